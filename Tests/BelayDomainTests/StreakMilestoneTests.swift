@testable import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Milestones by weekly streak length: awarded in the check-in's transaction the first time a
/// streak reaches the length, and reproduced exactly by the backfill.
@Suite struct StreakMilestoneTests {
    static let policy = BuiltInSettings.domain { $0.rewards.milestones = [1: "jug-gold"]; $0.rewards.streakMilestones = [2: "crimp-silver", 3: "jug-prism"] }.rewards
    static let week: TimeInterval = 7 * 86_400

    /// Check-ins in weeks 0, 1 (twice), 2, then a gap, then weeks 5 and 6; returns every
    /// reward's (hold, streak milestone), oldest first, after `awardMissing` if the catalogue
    /// came only afterwards.
    static func season(catalogFirst: Bool) throws -> [(hold: String, streak: Int?)] {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = policy }, importCatalog: catalogFirst)
        let member = try fixture.member()
        for week in 0...6 {
            if week > 0 { fixture.clock.advance(by: Self.week) }
            guard week != 3 && week != 4 else { continue }
            try fixture.checkedIn(member, at: try fixture.meetup(startsIn: 600))
            if week == 1 { try fixture.checkedIn(member, at: try fixture.meetup(startsIn: 1_200)) }
        }
        if !catalogFirst {
            try DomainFixture.writeCatalog(in: fixture.directory.file("assets"))
            try fixture.domain.catalog.importCatalog(assetsDirectory: fixture.directory.file("assets"))
            #expect(try fixture.domain.rewards.awardMissingRewards().awarded.count == 6)
        }
        return try fixture.domain.rewards.rewards(memberID: member.id, limit: 20).items.reversed().map { ($0.hold.id, $0.streakMilestone) }
    }

    @Test func aStreakMilestoneGoesToTheCheckInThatFirstReachesItsLength() throws {
        let rewards = try Self.season(catalogFirst: true)
        #expect(rewards.count == 6)
        // Week 0: the first check-in's milestone wins over any streak milestone.
        #expect(rewards[0].hold == "jug-gold" && rewards[0].streak == nil)
        // Week 1: two weeks in a row; its second check-in reaches nothing new.
        #expect(rewards[1].hold == "crimp-silver" && rewards[1].streak == 2)
        #expect(rewards[2].streak == nil && rewards[2].hold != "crimp-silver")
        // Week 2: three weeks in a row.
        #expect(rewards[3].hold == "jug-prism" && rewards[3].streak == 3)
        // Weeks 5 and 6 start again: two weeks in a row was reached before, so nothing.
        #expect(rewards[4].streak == nil && rewards[5].streak == nil)
    }

    @Test func theBackfillAwardsTheSameStreakMilestones() throws {
        let live = try Self.season(catalogFirst: true)
        let backfilled = try Self.season(catalogFirst: false)
        #expect(live.map(\.hold) == backfilled.map(\.hold))
        #expect(live.map(\.streak) == backfilled.map(\.streak))
    }

    @Test func lengthsReachedCountOnlyNewLongestRuns() {
        let zone = TimeZone(identifier: "Asia/Seoul")!
        let monday = DomainFixture.start.addingTimeInterval(Self.week)  // a Sunday in Seoul, then weeks on
        let weeks = (0..<4).map { monday.addingTimeInterval(Double($0) * Self.week) }
        #expect(WeeklyStreak.lengthsReached(by: weeks[0], before: [], zone: zone) == 1...1)
        #expect(WeeklyStreak.lengthsReached(by: weeks[1], before: [weeks[0]], zone: zone) == 2...2)
        #expect(WeeklyStreak.lengthsReached(by: weeks[1], before: [weeks[0], weeks[1]], zone: zone) == nil)
        // After a gap the run starts again, and lengths reached before count no more.
        #expect(WeeklyStreak.lengthsReached(by: weeks[3], before: [weeks[0], weeks[1]], zone: zone) == nil)
        #expect(WeeklyStreak.lengthsReached(by: weeks[3], before: [weeks[0]], zone: zone) == nil)
        #expect(WeeklyStreak.lengthsReached(by: weeks[2], before: [weeks[0], weeks[1]], zone: zone) == 3...3)
    }

    @Test func progressNamesTheNextStreakMilestone() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.rewards = Self.policy })
        let member = try fixture.member()
        #expect(try fixture.domain.progress.progress(memberID: member.id).nextStreakMilestone
            == MemberProgress.NextStreakMilestone(weeks: 2, holdID: "crimp-silver", remaining: 2))
        try fixture.checkedIn(member, at: try fixture.meetup(startsIn: 600))
        fixture.clock.advance(by: Self.week)
        try fixture.checkedIn(member, at: try fixture.meetup(startsIn: 600))
        #expect(try fixture.domain.progress.progress(memberID: member.id).nextStreakMilestone
            == MemberProgress.NextStreakMilestone(weeks: 3, holdID: "jug-prism", remaining: 1))
    }

    @Test func aStreakMilestoneOfNoWeeksIsRefused() {
        #expect(throws: DomainError.self) { try BuiltInSettings.domain { $0.rewards.streakMilestones = [0: "jug-gold"] }.rewards.validate() }
        #expect(throws: DomainError.self) { try BuiltInSettings.domain { $0.rewards.streakMilestones = [4: ""] }.rewards.validate() }
    }
}
