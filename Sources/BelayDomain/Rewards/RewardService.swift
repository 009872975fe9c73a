import BelayCore
import BelayStorage
import Foundation

/// Reading rewards, and awarding those that are missing (the backfill's first step).
public final class RewardService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let awarder: RewardAwarder

    public init(pool: any DatabaseStore, clock: any TimeSource, policy: RewardPolicy, clubTimeZone: TimeZone) {
        self.pool = pool
        self.clock = clock
        self.awarder = RewardAwarder(policy: policy, clubTimeZone: clubTimeZone)
    }

    init(pool: any DatabaseStore, clock: any TimeSource, awarder: RewardAwarder) {
        self.pool = pool
        self.clock = clock
        self.awarder = awarder
    }

    /// One reward with its hold, background, meetup facts and render status.
    /// - Throws: `DomainError.rewardNotFound`.
    public func reward(id: Int64) throws -> Reward {
        guard let reward = try domainCall({ try pool.read { try RewardRepository.find(id: id, in: $0) } }) else {
            throw DomainError(.rewardNotFound, "No reward has id \(id)")
        }
        return reward
    }

    /// One reward, when `actor` may see it (the one rule: members see their own rewards,
    /// hosts those from the meetups they host, admins all). A reward the actor may not see
    /// is answered exactly like one that does not exist, so ids reveal nothing.
    /// - Throws: `DomainError.rewardNotFound`.
    public func reward(id: Int64, visibleTo actor: Actor) throws -> Reward {
        let reward = try reward(id: id)
        if actor.isAdmin || reward.memberID == actor.userID { return reward }
        if actor.role == .host, try domainCall({
            try pool.read { db in
                guard let meetup = try MeetupRepository.essentials(id: reward.meetupID, in: db) else { return false }
                return try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db)
            }
        }) {
            return reward
        }
        throw DomainError(.rewardNotFound, "No reward has id \(id)")
    }

    /// The rewards of a meetup's check-ins (revoked ones included), in the order they were
    /// awarded, when `actor` manages the meetup (its host, a co-host, an admin): the rule of
    /// `reward(id:visibleTo:)` for a host. At most `limit` (a meetup holds up to 10,000).
    /// - Throws: `DomainError.meetupNotFound`, alike for a meetup that does not exist and one
    ///   the actor does not manage.
    public func rewards(meetupID: Int64, visibleTo actor: Actor, limit: Int = 10_000) throws -> [Reward] {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db),
                      try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db) else {
                    throw DomainError(.meetupNotFound, "No meetup has id \(meetupID)")
                }
                return try RewardRepository.list(meetupID: meetupID, limit: max(1, min(limit, 10_000)), in: db)
            }
        }
    }

    /// The ids of every revoked reward and the highest reward id: what the badge revocation
    /// list publishes.
    /// - Throws: `DomainError` `storage_failure`.
    public func revocations() throws -> (revoked: [Int64], highestID: Int64) {
        try domainCall { try pool.read { try RewardRepository.revocations(in: $0) } }
    }

    /// A member's rewards, newest first; revoked ones only when asked.
    /// - Parameter hostID: only rewards from meetups this host hosts (what a host may see of
    ///   another member's rewards).
    /// - Throws: `DomainError` for a bad limit or cursor.
    public func rewards(memberID: Int64, includeRevoked: Bool = false, hostedBy hostID: Int64? = nil,
                        limit: Int = 50, cursor: String? = nil) throws -> Page<Reward> {
        let limit = try validatedLimit(limit)
        let listName = "rewards-\(memberID)"
        let before = try cursor.map { try Cursor.decode($0, list: listName).id } ?? Int64.max
        let rows = try domainCall {
            try pool.read { try RewardRepository.list(memberID: memberID, includeRevoked: includeRevoked, hostedBy: hostID,
                                                      beforeID: before, limit: limit + 1, in: $0) }
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: listName, key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// Awards rewards (and queues their renders) for checked-in attendances that lack one,
    /// oldest check-in first, with the same rules and determinism as a live check-in.
    ///
    /// Works in small transactions of up to 100 attendances, so it can run beside the
    /// server, and is idempotent: after a crash, run it again.
    /// - Parameters:
    ///   - since: only check-ins at or after this instant.
    ///   - meetupID: only this meetup.
    ///   - limit: look at most at this many attendances (1…100,000).
    /// - Throws: `DomainError` for a bad limit, or `storage_failure`.
    public func awardMissingRewards(since: Date? = nil, meetupID: Int64? = nil, limit: Int = 1_000) throws -> AwardReport {
        let limit = try validatedLimit(limit, maximum: 100_000)
        var report = AwardReport()
        var remaining = limit
        var skipped = Set<Int64>()
        while remaining > 0 {
            let batchSize = min(100, remaining)
            let now = clock.now()
            let (batch, awarded, stillMissing) = try domainCall {
                try pool.write { db -> (Int, [Int64], [Int64]) in
                    let missing = try RewardRepository.attendancesWithoutReward(since: since, meetupID: meetupID,
                                                                                limit: batchSize + skipped.count, in: db)
                        .filter { !skipped.contains($0.attendanceID) }
                        .prefix(batchSize)
                    var awarded: [Int64] = []
                    var stillMissing: [Int64] = []
                    for attendance in missing {
                        if let id = try awarder.award(attendanceID: attendance.attendanceID, memberID: attendance.memberID,
                                                      meetupID: attendance.meetupID, checkedInAt: attendance.checkedInAt,
                                                      checkInNumber: attendance.checkInNumber, reason: .backfill, now: now, in: db)?.id.get() {
                            awarded.append(id)
                        } else {
                            stillMissing.append(attendance.attendanceID)
                        }
                    }
                    return (missing.count, awarded, stillMissing)
                }
            }
            report.awarded += awarded
            report.skippedWithoutCatalog += stillMissing.count
            skipped.formUnion(stillMissing)
            remaining -= batch
            if batch < batchSize { return report }
        }
        report.hasMore = try domainCall {
            try pool.read { !(try RewardRepository.attendancesWithoutReward(since: since, meetupID: meetupID, limit: skipped.count + 1, in: $0)
                .filter { !skipped.contains($0.attendanceID) }.isEmpty) }
        }
        return report
    }
}
