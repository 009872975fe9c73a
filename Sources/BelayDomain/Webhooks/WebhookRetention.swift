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
    public var retentionDays: Int { window.days }
    private let window: RetentionWindow

    /// - Parameters:
    ///   - retentionDays: days deliveries are kept (`webhooks.retention_days`); at least 1.
    ///   - batchSize: deliveries looked at per write transaction.
    /// - Throws: `DomainError` (`invalid_input`) for a retention under 1 day or a batch under 1.
    public init(pool: any DatabaseStore, clock: any TimeSource, retentionDays: Int, batchSize: Int = 1_000) throws {
        window = try RetentionWindow(pool: pool, clock: clock, days: retentionDays, batchSize: batchSize,
                                     why: "an endpoint's log must show its last day")
    }

    /// Deletes every finished delivery (and delivery to a removed endpoint) created before the
    /// window, and the events left without deliveries. Idempotent; safe while deliveries go on.
    /// - Returns: what was deleted.
    /// - Throws: `DomainError` when the database fails (what was deleted before stays deleted).
    @discardableResult
    public func prune() throws -> WebhookPruneReport {
        let cutoff = window.cutoff()
        var report = WebhookPruneReport(cutoff: cutoff)
        try domainCall {
            try window.inBatches({ after, limit, db in
                try WebhookRepository.pruneBatch(after: after, limit: limit, before: cutoff, in: db)
            }, next: { batch in
                report.deliveries += batch.deliveries
                report.events += batch.events
                return batch.reachedCutoff ? nil : batch.lastID
            })
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
