import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Weekly streaks as Strava counts them, in the club's zone, and catalogue progress.
@Suite struct ProgressServiceTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!

    /// `yyyy-MM-dd HH:mm` in Seoul.
    static func at(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = seoul
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    @Test func weeksInARowCountWithThisWeekKeepingTheStreakAlive() {
        // Mondays: 2026-11-02, 11-09, 11-16, 11-23, 11-30.
        let checkIns = [Self.at("2026-11-03 19:00"), Self.at("2026-11-05 19:00"), Self.at("2026-11-14 10:00"), Self.at("2026-11-22 23:30"),
                        Self.at("2026-11-25 19:00")]
        let inThisWeek = WeeklyStreak.of(checkIns + [Self.at("2026-11-30 19:00")], now: Self.at("2026-12-01 12:00"), zone: Self.seoul)
        #expect(inThisWeek == WeeklyStreak(current: 5, longest: 5, thisWeekDone: true))
        // This week has none yet: the streak up to last week still stands…
        #expect(WeeklyStreak.of(checkIns, now: Self.at("2026-12-01 12:00"), zone: Self.seoul) == WeeklyStreak(current: 4, longest: 4, thisWeekDone: false))
        // …until a whole week passes without one.
        #expect(WeeklyStreak.of(checkIns, now: Self.at("2026-12-07 00:30"), zone: Self.seoul) == WeeklyStreak(current: 0, longest: 4, thisWeekDone: false))
        #expect(WeeklyStreak.of([], now: Self.at("2026-12-01 12:00"), zone: Self.seoul) == WeeklyStreak(current: 0, longest: 0, thisWeekDone: false))
    }

    @Test func weeksAreTheClubsWeeksAndTheLongestRunIsKept() {
        // Sunday 23:30 in Seoul is still that week there, though it is Sunday 14:30 UTC either way;
        // Monday 00:30 in Seoul is the next week there, but still Sunday in UTC.
        let sunday = Self.at("2026-11-22 23:30"), monday = Self.at("2026-11-23 00:30")
        #expect(WeeklyStreak.of([sunday, monday], now: monday, zone: Self.seoul).current == 2)
        #expect(WeeklyStreak.of([sunday, monday], now: monday, zone: TimeZone(identifier: "UTC")!).current == 1)
        let history = ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", "2026-02-09", "2026-11-23"].map { Self.at($0 + " 19:00") }
        let streak = WeeklyStreak.of(history, now: Self.at("2026-11-24 12:00"), zone: Self.seoul)
        #expect(streak.longest == 4)
        #expect(streak.current == 1)
        // Across a daylight-saving change (Berlin, 2027-03-28) the weeks still follow each other.
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let around = [Date(timeIntervalSince1970: 1_805_990_400), Date(timeIntervalSince1970: 1_806_594_000)] // Thursdays 2027-03-25 and 2027-04-01
        #expect(WeeklyStreak.of(around, now: around[1], zone: berlin).current == 2)
    }

    @Test func progressCountsDistinctCatalogueHoldsAndTheNextMilestone() throws {
        let fixture = try DomainFixture()
        let member = try fixture.member()
        let empty = try fixture.domain.progress.progress(memberID: member.id)
        #expect(empty.checkIns == 0)
        #expect(empty.collected == 0)
        #expect(empty.total == DomainFixture.fixtureHolds.count)
        #expect(empty.nextMilestone?.checkIn == 1)
        #expect(empty.nextMilestone?.holdID == "jug-gold")
        #expect(empty.nextMilestone?.remaining == 1)
        #expect(empty.byRarity.map(\.rarity) == [.common, .uncommon, .rare, .epic])

        for week in 0..<3 {
            let meetup = try fixture.meetup(startsIn: 600)
            _ = try fixture.checkedIn(member, at: meetup)
            if week < 2 { fixture.clock.advance(by: 7 * 86_400) }
        }
        let progress = try fixture.domain.progress.progress(memberID: member.id)
        #expect(progress.checkIns == 3)
        let rewards = try fixture.domain.rewards.rewards(memberID: member.id, limit: 10).items
        #expect(progress.collected == Set(rewards.map(\.hold.id)).count)
        #expect(progress.byRarity.map(\.total).reduce(0, +) == progress.total)
        #expect(progress.nextMilestone?.checkIn == 10)
        #expect(progress.nextMilestone?.remaining == 7)
        #expect(progress.streak.current == 3)
        #expect(progress.streak.thisWeekDone)
    }
}
