import BelayCore
import BelayStorage
import Foundation

/// Keeps `share_events` from growing forever without changing what share statistics say:
/// events from club-zone days wholly older than the retention window are added to
/// `share_statistics_daily` (counts per meetup, day and target) and deleted in the same
/// transaction, and `ShareService.statistics` reads those counts together with the events
/// kept.
///
/// What goes is what statistics do not need one by one: a member's export then lists only
/// the events kept, and a reward's count of share events (`share.max_events_per_reward`)
/// counts only those. Deletes run in small batches, each its own short write, so check-ins
/// sharing the writer never wait long.
public final class ShareEventRetention: Sendable {
    /// Days events are kept (1 or more).
    public var retentionDays: Int { window.days }
    private let window: RetentionWindow
    private let day: ClubDay

    /// - Parameters:
    ///   - retentionDays: days events are kept (`share.events_retention_days`); at least 1.
    ///   - clubTimeZone: the zone statistics name days in.
    ///   - batchSize: events looked at per write transaction.
    /// - Throws: `DomainError` (`invalid_input`) for a retention under 1 day or a batch under 1.
    public init(pool: any DatabaseStore, clock: any TimeSource, clubTimeZone: TimeZone, retentionDays: Int,
                batchSize: Int = 1_000) throws {
        window = try RetentionWindow(pool: pool, clock: clock, days: retentionDays, batchSize: batchSize,
                                     why: "the day in progress is still counted event by event")
        self.day = ClubDay(zone: clubTimeZone)
    }

    /// Counts and deletes every event of a club-zone day that ended before the window began.
    /// Idempotent; safe while events are recorded.
    /// - Returns: what was pruned.
    /// - Throws: `DomainError` when the database fails (what was pruned before stays pruned,
    ///   counted).
    @discardableResult
    public func prune() throws -> ShareEventPruneReport {
        // Whole days only, so a day is never half counted and half kept.
        let cutoff = day.start(of: window.cutoff())
        var report = ShareEventPruneReport(cutoff: cutoff)
        try domainCall {
            try window.inBatches({ [day] after, limit, db in
                try ShareRepository.pruneBatch(after: after, limit: limit, before: cutoff, day: day, in: db)
            }, next: { batch in
                report.events += batch.deleted
                report.days += batch.countsAdded
                return batch.reachedCutoff ? nil : batch.lastID
            })
        }
        return report
    }
}

/// What one `ShareEventRetention.prune()` did.
public struct ShareEventPruneReport: Sendable, Hashable {
    /// Events before this instant (the start of a club-zone day) were pruned.
    public var cutoff: Date
    /// Events counted into daily totals and deleted.
    public var events = 0
    /// Daily totals (meetup, day, target) written or added to.
    public var days = 0

    public init(cutoff: Date, events: Int = 0, days: Int = 0) {
        self.cutoff = cutoff
        self.events = events
        self.days = days
    }
}
