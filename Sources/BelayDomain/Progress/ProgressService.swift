import BelayCore
import BelayStorage
import Foundation

/// A member's progress through the catalogue, their next milestone and their weekly streak.
public final class ProgressService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let milestones: [Int: String]
    private let streakMilestones: [Int: String]
    private let clubTimeZone: TimeZone

    public init(pool: any DatabaseStore, clock: any TimeSource, milestones: [Int: String], streakMilestones: [Int: String] = [:],
                clubTimeZone: TimeZone) {
        self.pool = pool
        self.clock = clock
        self.milestones = milestones
        self.streakMilestones = streakMilestones
        self.clubTimeZone = clubTimeZone
    }

    /// The member's progress now.
    /// - Throws: `DomainError.storageFailure`.
    public func progress(memberID: Int64) throws -> MemberProgress {
        let now = clock.now()
        let (totals, collected, times) = try domainCall {
            try pool.read { db in
                (try ProgressRepository.catalogueCounts(in: db), try ProgressRepository.collectedCounts(memberID: memberID, in: db),
                 try ProgressRepository.checkInTimes(memberID: memberID, in: db))
            }
        }
        let byRarity = HoldRarity.allCases.sorted().map { rarity in
            MemberProgress.RarityCount(rarity: rarity, collected: collected[rarity.rawValue] ?? 0, total: totals[rarity.rawValue] ?? 0)
        }
        let next = milestones.keys.sorted().first { $0 > times.count }.map {
            MemberProgress.NextMilestone(checkIn: $0, holdID: milestones[$0] ?? "", remaining: $0 - times.count)
        }
        let streak = WeeklyStreak.of(times, now: now, zone: clubTimeZone)
        let nextStreak = streakMilestones.keys.sorted().first { $0 > streak.longest }.map {
            MemberProgress.NextStreakMilestone(weeks: $0, holdID: streakMilestones[$0] ?? "", remaining: $0 - streak.current)
        }
        return MemberProgress(checkIns: times.count, collected: byRarity.map(\.collected).reduce(0, +),
                              total: byRarity.map(\.total).reduce(0, +), byRarity: byRarity, nextMilestone: next,
                              streak: streak, nextStreakMilestone: nextStreak)
    }
}
