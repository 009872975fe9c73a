import BelayCore
import BelayStorage
import Foundation

/// Keeps the check-in bookkeeping tables from growing forever: idempotency keys
/// (`check_in_idempotency_keys`) and wrong-code counters (`check_in_attempts`) older than
/// the retention window are deleted.
///
/// Both only matter for a short time: a key answers an app's retry of a lost response
/// (seconds to hours later), a counter locks a member out for minutes. After the window a
/// retry is still answered with the first result, from the attendance itself. Deletes run
/// in small batches, each its own short write, so check-ins sharing the writer never wait
/// long.
public final class CheckInRetention: Sendable {
    /// Days rows are kept (1 or more).
    public let retentionDays: Int
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let batchSize: Int

    /// - Parameters:
    ///   - retentionDays: days rows are kept (`check_in.retention_days`); at least 1.
    ///   - batchSize: rows deleted per write transaction.
    /// - Throws: `DomainError` (`invalid_input`) for a retention under 1 day or a batch under 1.
    public init(pool: any DatabaseStore, clock: any TimeSource, retentionDays: Int = 7, batchSize: Int = 1_000) throws {
        guard retentionDays >= 1 else {
            throw DomainError.invalid("retention_days", "must be 1 or more (got \(retentionDays)): a retried check-in must still find its idempotency key")
        }
        guard batchSize >= 1 else { throw DomainError.invalid("batch_size", "must be 1 or more (got \(batchSize))") }
        self.pool = pool
        self.clock = clock
        self.retentionDays = retentionDays
        self.batchSize = batchSize
    }

    /// Deletes every idempotency key and wrong-code counter older than the window.
    /// Idempotent; safe while check-ins go on.
    /// - Returns: what was deleted.
    /// - Throws: `DomainError` when the database fails (what was deleted before stays deleted).
    @discardableResult
    public func prune() throws -> CheckInPruneReport {
        let cutoff = clock.now().addingTimeInterval(-Double(retentionDays) * 86_400)
        var report = CheckInPruneReport(cutoff: cutoff)
        let limit = batchSize
        try domainCall {
            while true {
                let deleted = try pool.write { try CheckInRetentionRepository.deleteIdempotencyKeys(before: cutoff, limit: limit, in: $0) }
                report.idempotencyKeys += deleted
                if deleted < limit { break }
            }
            while true {
                let deleted = try pool.write { try CheckInRetentionRepository.deleteAttempts(before: cutoff, limit: limit, in: $0) }
                report.attempts += deleted
                if deleted < limit { break }
            }
        }
        return report
    }
}
