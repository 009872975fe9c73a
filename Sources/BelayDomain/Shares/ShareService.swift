import BelayStorage
import Foundation

/// Recording share events and the share statistics admins read.
public final class ShareService: Sendable {
    private let pool: DatabasePool
    private let clock: any WallClock
    private let clubTimeZone: TimeZone

    public init(pool: DatabasePool, clock: any WallClock, clubTimeZone: TimeZone) {
        self.pool = pool
        self.clock = clock
        self.clubTimeZone = clubTimeZone
    }

    /// Records a share event of a member's own reward. A retry with a client event id the
    /// member used before records nothing and returns the first event.
    /// - Throws: `DomainError`: `invalid_input` naming the field, `reward_not_found`,
    ///   alike for a reward that does not exist and one that is someone else's.
    public func record(_ event: NewShareEvent, by actor: Actor) throws -> ShareEventResult {
        try TextRule(field: "client_event_id", noun: "A client event id", lengths: 1...200).check(event.clientEventID)
        try TextRule(field: "activity_type", noun: "An activity type", lengths: 0...500).check(event.activityType)
        try TextRule(field: "target", noun: "A target", lengths: 0...100).check(event.target)
        try TextRule(field: "error", noun: "An error text", lengths: 0...2_000, allowsLineBreaks: true).check(event.error)
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
                guard let owner = try db.queryOne("SELECT member_id, meetup_id FROM rewards WHERE id = ?", [event.rewardID], {
                    (try $0.get(0, as: Int64.self), try $0.get(1, as: Int64.self))
                }) else {
                    throw DomainError(.rewardNotFound, "No reward has id \(event.rewardID)", field: "reward_id")
                }
                // Someone else's reward is answered like a missing one, so ids reveal nothing.
                guard owner.0 == memberID else {
                    throw DomainError(.rewardNotFound, "No reward has id \(event.rewardID)", field: "reward_id")
                }
                let recorded = try ShareRepository.insert(event, memberID: memberID, meetupID: owner.1, target: target, at: now, in: db)
                return ShareEventResult(event: recorded, isRepeat: false)
            }
        }
    }

    /// Share counts per meetup, target and day in the club's time zone, ordered by meetup,
    /// day and target.
    /// - Parameters:
    ///   - meetupID: only this meetup.
    ///   - from: only events at or after this instant.
    ///   - to: only events before this instant.
    public func statistics(meetupID: Int64? = nil, from: Date? = nil, to: Date? = nil) throws -> [ShareStatistic] {
        let rows = try domainCall { try pool.read { try ShareRepository.statisticsRows(meetupID: meetupID, from: from, to: to, in: $0) } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clubTimeZone
        struct Key: Hashable { let meetupID: Int64; let day: String; let target: ShareTarget }
        var statistics: [Key: ShareStatistic] = [:]
        for row in rows {
            let parts = calendar.dateComponents([.year, .month, .day], from: row.occurredAt)
            let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            let key = Key(meetupID: row.meetupID, day: day, target: row.target)
            var statistic = statistics[key] ?? ShareStatistic(meetupID: row.meetupID, meetupTitle: row.meetupTitle, target: row.target,
                                                              day: day, events: 0, completed: 0, failed: 0, dismissed: 0)
            statistic.events += 1
            if row.completed { statistic.completed += 1 } else if row.hasError { statistic.failed += 1 } else { statistic.dismissed += 1 }
            statistics[key] = statistic
        }
        return statistics.values.sorted {
            ($0.meetupID, $0.day, $0.target.rawValue) < ($1.meetupID, $1.day, $1.target.rawValue)
        }
    }
}
