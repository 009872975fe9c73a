import BelayCore
import BelayStorage
import Foundation

/// Keeps the webhook outbox from growing forever: deliveries that are done (delivered, or
/// given up after the last attempt) and older than the retention window are deleted, with
/// their events once no delivery refers to them; so are the deliveries of removed endpoints
/// (never sent). A delivery still pending (waiting for a retry, or for a disabled endpoint
/// to be enabled) is kept however old, and so is its event.
///
/// An endpoint's log (`belay webhooks log`) then reaches back over the window. Deletes run
/// in small batches, each its own short write, so check-ins sharing the writer never wait
/// long.
public final class WebhookRetention: Sendable {
    /// Days deliveries are kept (1 or more).
    public let retentionDays: Int
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let batchSize: Int

    /// - Parameters:
    ///   - retentionDays: days deliveries are kept (`webhooks.retention_days`); at least 1.
    ///   - batchSize: deliveries looked at per write transaction.
    /// - Throws: `DomainError` (`invalid_input`) for a retention under 1 day or a batch under 1.
    public init(pool: any DatabaseStore, clock: any TimeSource, retentionDays: Int = 30, batchSize: Int = 1_000) throws {
        guard retentionDays >= 1 else {
            throw DomainError.invalid("retention_days", "must be 1 or more (got \(retentionDays)): an endpoint's log must show its last day")
        }
        guard batchSize >= 1 else { throw DomainError.invalid("batch_size", "must be 1 or more (got \(batchSize))") }
        self.pool = pool
        self.clock = clock
        self.retentionDays = retentionDays
        self.batchSize = batchSize
    }

    /// Deletes every finished delivery (and delivery to a removed endpoint) created before the
    /// window, and the events left without deliveries. Idempotent; safe while deliveries go on.
    /// - Returns: what was deleted.
    /// - Throws: `DomainError` when the database fails (what was deleted before stays deleted).
    @discardableResult
    public func prune() throws -> WebhookPruneReport {
        let cutoff = clock.now().addingTimeInterval(-Double(retentionDays) * 86_400)
        var report = WebhookPruneReport(cutoff: cutoff)
        let limit = batchSize
        try domainCall {
            var after: Int64 = 0
            while true {
                let batch = try pool.write { db in
                    try WebhookRepository.pruneBatch(after: after, limit: limit, before: cutoff, in: db)
                }
                report.deliveries += batch.deliveries
                report.events += batch.events
                guard let last = batch.lastID, !batch.reachedCutoff else { break }
                after = last
            }
        }
        return report
    }
}

/// What one `WebhookRetention.prune()` deleted.
public struct WebhookPruneReport: Sendable, Hashable {
    /// Deliveries created before this instant were deleted when done.
    public var cutoff: Date
    public var deliveries = 0
    public var events = 0

    public init(cutoff: Date, deliveries: Int = 0, events: Int = 0) {
        self.cutoff = cutoff
        self.deliveries = deliveries
        self.events = events
    }

    /// Rows deleted in all.
    public var total: Int { deliveries + events }
}
