import BelayCore
import BelayStorage
import Foundation

/// Recording share events and the share statistics admins read.
public final class ShareService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let clubTimeZone: TimeZone

    /// Share events one member may record for one reward; more are refused `share_event_limit`.
    let maxEventsPerReward: Int

    public init(pool: any DatabaseStore, clock: any TimeSource, clubTimeZone: TimeZone, maxEventsPerReward: Int) {
        self.maxEventsPerReward = maxEventsPerReward
        self.pool = pool
        self.clock = clock
        self.clubTimeZone = clubTimeZone
    }

    /// A member's own share events in the order they were recorded, `limit` after `afterID`
    /// (for their data export).
    /// - Throws: `DomainError.storageFailure`.
    public func events(memberID: Int64, afterID: Int64 = 0, limit: Int = 500) throws -> [ShareEvent] {
        try domainCall { try pool.read { try ShareRepository.list(memberID: memberID, afterID: afterID, limit: limit, in: $0) } }
    }

    /// Records a share event of a member's own reward. A retry with a client event id the
    /// member used before records nothing and returns the first event.
    /// - Throws: `DomainError`: `invalid_input` naming the field, `reward_not_found`,
    ///   alike for a reward that does not exist and one that is someone else's;
    ///   `share_event_limit` once the member has recorded `maxEventsPerReward` for the reward.
    public func record(_ event: NewShareEvent, by actor: Actor) throws -> ShareEventResult {
        try TextRule.shareClientEventID.check(event.clientEventID)
        try TextRule.shareActivityType.check(event.activityType)
        try TextRule.shareTarget.check(event.target)
        try TextRule.shareError.check(event.error)
        guard let memberID = actor.userID else {
            throw DomainError(.notPermitted, "Share events are recorded by the member who shared")
        }
        let target = ShareTarget.normalise(target: event.target, activityType: event.activityType)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                if let first = try ShareRepository.find(memberID: memberID, clientEventID: event.clientEventID, in: db) {
                    return ShareEventResult(event: first, isRepeat: true)
                }
                guard let owner = try RewardRepository.owner(id: event.rewardID, in: db) else {
                    throw DomainError(.rewardNotFound, "No reward has id \(event.rewardID)", field: "reward_id")
                }
                // Someone else's reward is answered like a missing one, so ids reveal nothing.
                guard owner.memberID == memberID else {
                    throw DomainError(.rewardNotFound, "No reward has id \(event.rewardID)", field: "reward_id")
                }
                guard try ShareRepository.count(rewardID: event.rewardID, memberID: memberID, in: db) < maxEventsPerReward else {
                    throw DomainError(.shareEventLimit, "Reward \(event.rewardID) already has \(maxEventsPerReward) share events of yours, the most one reward keeps; nothing was recorded")
                }
                let recorded = try ShareRepository.insert(event, memberID: memberID, meetupID: owner.meetupID, target: target, at: now, in: db)
                return ShareEventResult(event: recorded, isRepeat: false)
            }
        }
    }

    /// Share counts per meetup, target and day in the club's time zone, ordered by meetup,
    /// day and target: every row (for the CLI). Aggregated by the database, page by page.
    /// - Parameters:
    ///   - meetupID: only this meetup.
    ///   - from: only events at or after this instant.
    ///   - to: only events before this instant.
    public func statistics(meetupID: Int64? = nil, from: Date? = nil, to: Date? = nil) throws -> [ShareStatistic] {
        var all: [ShareStatistic] = []
        var after = ShareStatisticKey.start
        while true {
            let page = try statistics(meetupID: meetupID, from: from, to: to, after: after, limit: 1_000)
            all += page.items
            guard let next = page.next else { return all }
            after = next
        }
    }

    /// One page of share counts per meetup, target and day in the club's time zone, ordered
    /// by meetup, day and target, aggregated by the database. The work follows the page's
    /// size: only the meetups on it (a host's only, through an index) and their events in
    /// the time range are read. Events pruned after `share.events_retention_days`
    /// (`ShareEventRetention`) count through their daily totals, whole days: a range that
    /// starts or ends inside such a day counts all of it.
    /// - Parameters:
    ///   - meetupID: only this meetup.
    ///   - from: only events at or after this instant.
    ///   - to: only events before this instant.
    ///   - hostID: only meetups this user hosts (nil for every meetup).
    ///   - after: the previous page's `next`; `.start` for the first page.
    ///   - limit: rows per page, 1–10,000.
    /// - Throws: `DomainError` (`invalid_input`) for a limit outside 1–10,000.
    public func statistics(meetupID: Int64? = nil, from: Date? = nil, to: Date? = nil, hostID: Int64? = nil,
                           after: ShareStatisticKey, limit: Int) throws -> ShareStatisticsPage {
        guard (1...10_000).contains(limit) else { throw DomainError.invalid("limit", "must be 1–10,000 (got \(limit))") }
        // Counts of pruned events are kept per day: a day counts when the range touches it.
        let firstDay = from.map { ClubDay(zone: clubTimeZone).name(of: $0) } ?? "0000-01-01"
        let lastDay = to.map { ClubDay(zone: clubTimeZone).name(of: $0.addingTimeInterval(-0.001)) } ?? "9999-12-31"
        return try domainCall {
            try pool.read { db in
                // Events kept: only the stretch of time they cover (and the offsets in it) is read.
                var lower = Date(timeIntervalSince1970: 0), upper = lower
                if let range = try ShareRepository.occurrenceRange(in: db) {
                    lower = max(from ?? range.first, range.first)
                    upper = max(lower, min(to ?? range.last.addingTimeInterval(0.001), range.last.addingTimeInterval(0.001)))
                }
                let offsets = lower < upper ? offsetIntervals(from: lower, to: upper) : "[]"
                let rows = try ShareRepository.statistics(offsets: offsets, from: lower, to: upper, firstDay: firstDay, lastDay: lastDay,
                                                          after: after, hostID: hostID, meetupID: meetupID, limit: limit + 1,
                                                          in: db)
                let items = Array(rows.prefix(limit))
                let next = rows.count > limit ? items.last.map {
                    ShareStatisticKey(meetupID: $0.meetupID, day: $0.day, target: $0.target.rawValue)
                } : nil
                return ShareStatisticsPage(items: items, next: next)
            }
        }
    }

    /// `[start_ms, end_ms, utc_offset_seconds]` intervals covering `[from, to)` in which
    /// the club's zone keeps one UTC offset, as a JSON array.
    func offsetIntervals(from: Date, to: Date) -> String {
        var intervals: [String] = []
        var start = from
        while start < to {
            let offset = clubTimeZone.secondsFromGMT(for: start)
            var end = clubTimeZone.nextDaylightSavingTimeTransition(after: start) ?? to
            if end > to || end <= start { end = to }
            intervals.append("[\(start.millisecondsSince1970),\(end.millisecondsSince1970),\(offset)]")
            start = end
        }
        return "[" + intervals.joined(separator: ",") + "]"
    }
}
