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
    public var retentionDays: Int { window.days }
    private let window: RetentionWindow

    /// - Parameters:
    ///   - retentionDays: days rows are kept (`check_in.retention_days`); at least 1.
    ///   - batchSize: rows deleted per write transaction.
    /// - Throws: `DomainError` (`invalid_input`) for a retention under 1 day or a batch under 1.
    public init(pool: any DatabaseStore, clock: any TimeSource, retentionDays: Int, batchSize: Int = 1_000) throws {
        window = try RetentionWindow(pool: pool, clock: clock, days: retentionDays, batchSize: batchSize,
                                     why: "a retried check-in must still find its idempotency key")
    }

    /// Deletes every idempotency key and wrong-code counter older than the window.
    /// Idempotent; safe while check-ins go on.
    /// - Returns: what was deleted.
    /// - Throws: `DomainError` when the database fails (what was deleted before stays deleted).
    @discardableResult
    public func prune() throws -> CheckInPruneReport {
        let cutoff = window.cutoff()
        var report = CheckInPruneReport(cutoff: cutoff)
        // Neither table is read in id order: a batch that deletes fewer rows than it may is the last.
        try domainCall {
            try window.inBatches({ _, limit, db in
                try CheckInRetentionRepository.deleteIdempotencyKeys(before: cutoff, limit: limit, in: db)
            }, next: { deleted in
                report.idempotencyKeys += deleted
                return deleted < window.batchSize ? nil : 0
            })
            try window.inBatches({ _, limit, db in
                try CheckInRetentionRepository.deleteAttempts(before: cutoff, limit: limit, in: db)
            }, next: { deleted in
                report.attempts += deleted
                return deleted < window.batchSize ? nil : 0
            })
        }
        return report
    }
}
