@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Share events older than the window are counted per meetup, day and target and deleted;
/// statistics read the counts with the events kept and say exactly what they said before.
@Suite struct ShareEventRetentionTests {
    private static let day: TimeInterval = 86_400

    private func reward(_ fixture: DomainFixture) throws -> Reward {
        let meetup = try fixture.meetup(startsIn: 0)
        return try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
    }

    private func share(_ fixture: DomainFixture, _ reward: Reward, _ id: String, target: String = "instagram_stories",
                       completed: Bool = true, error: String? = nil) throws {
        _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: target, activityType: nil, completed: completed,
                                                           error: error, clientEventID: id), by: .user(reward.memberID, role: .member))
    }

    private func eventCount(_ fixture: DomainFixture) throws -> Int {
        try fixture.pool.read { try $0.scalar("SELECT count(*) FROM share_events", as: Int.self) ?? -1 }
    }

    @Test func statisticsAreTheSameAfterPruning() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.clubTimeZone = zone })
        let first = try reward(fixture), second = try reward(fixture)
        let start = fixture.clock.now()
        let days = ClubDay(zone: zone)
        var count = 0
        // Three days of events at two meetups, several per meetup, day and target.
        for _ in 0..<3 {
            for reward in [first, second] {
                try share(fixture, reward, "e\(count)"); count += 1
                try share(fixture, reward, "e\(count)"); count += 1
                try share(fixture, reward, "e\(count)", target: "share_sheet", completed: false, error: "cancelled"); count += 1
                try share(fixture, reward, "e\(count)", target: "share_sheet", completed: false); count += 1
            }
            fixture.clock.advance(by: Self.day)
        }
        let shares = fixture.domain.shares
        let before = try shares.statistics()
        #expect(before.count == 3 * 2 * 2)
        let firstDay = days.name(of: start), lastDay = days.name(of: start.addingTimeInterval(2 * Self.day))
        #expect(Set(before.map(\.day)) == [firstDay, days.name(of: start.addingTimeInterval(Self.day)), lastDay])

        // 400 days after the third day, the first two days are wholly older than the window; the third is not.
        fixture.clock.advance(by: 399 * Self.day)
        let retention = try ShareEventRetention(pool: fixture.pool, clock: fixture.clock, clubTimeZone: zone,
                                                retentionDays: 400, batchSize: 3)
        let report = try retention.prune()
        #expect(report.events == 16 && report.cutoff == days.start(of: start.addingTimeInterval(2 * Self.day)), "\(report)")
        #expect(try eventCount(fixture) == 8)
        #expect(try fixture.pool.read { try $0.scalar("SELECT count(*) FROM share_statistics_daily", as: Int.self) } == 8,
                "two meetups, two days, two targets; totals split over batches are added up")
        #expect(try retention.prune().events == 0, "pruning again finds nothing")

        #expect(try shares.statistics() == before)
        for limit in [1, 5] {
            var pages: [ShareStatistic] = []
            var after = ShareStatisticKey.start
            while true {
                let page = try shares.statistics(after: after, limit: limit)
                pages += page.items
                guard let next = page.next else { break }
                after = next
            }
            #expect(pages == before, "limit \(limit)")
        }
        #expect(try shares.statistics(meetupID: first.meetupID) == before.filter { $0.meetupID == first.meetupID })
        #expect(try shares.statistics(hostID: fixture.host.id, after: .start, limit: 100).items == before)
        // A range counts a pruned day whole when it touches it, and a kept day event by event.
        #expect(try shares.statistics(to: days.start(of: start.addingTimeInterval(Self.day))) == before.filter { $0.day == firstDay })
        #expect(try shares.statistics(from: days.start(of: start.addingTimeInterval(2 * Self.day))) == before.filter { $0.day == lastDay })
        #expect(try shares.statistics(from: start.addingTimeInterval(Self.day + 1)) == before.filter { $0.day != firstDay },
                "the second day's events were at its instant start + 1 day; pruned, the day counts whole")

        // Everything goes in the end; the counts stay.
        fixture.clock.advance(by: 2 * Self.day)
        #expect(try retention.prune().events == 8)
        #expect(try eventCount(fixture) == 0)
        #expect(try shares.statistics() == before)
    }

    @Test func aWindowUnderOneDayIsRefused() throws {
        let fixture = try DomainFixture()
        #expect(refusal { _ = try ShareEventRetention(pool: fixture.pool, clock: fixture.clock, clubTimeZone: .gmt, retentionDays: 0) }
                == .invalidInput)
    }
}
