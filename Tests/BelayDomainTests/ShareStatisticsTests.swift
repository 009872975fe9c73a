@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// `ShareService.statistics`: aggregated by SQLite through indexes, page by page, a host's
/// meetups only, days in the club's zone across daylight-saving changes.
@Suite struct ShareStatisticsTests {
    /// A member with a reward at each of `meetups` new meetups of `host` (nil: the fixture's host).
    private func rewards(_ fixture: DomainFixture, meetups: Int, host: User? = nil) throws -> [Reward] {
        let member = try fixture.member()
        var made: [Reward] = []
        for index in 0..<meetups {
            let start = fixture.clock.now().addingTimeInterval(3_600)
            let hostUser = host ?? fixture.host
            let meetup = try fixture.domain.meetups.create(
                NewMeetup(title: "Session \(index)", placeName: "Gym", startsAt: start, endsAt: start.addingTimeInterval(7_200),
                          timeZone: "Asia/Seoul", capacity: 10, hostID: hostUser.id),
                by: .user(hostUser.id, role: .host))
            fixture.clock.advance(by: 3_600)
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
            made.append(try #require(try fixture.domain.checkIns.checkIn(
                CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: .user(hostUser.id, role: .host)).reward))
        }
        return made
    }

    private func share(_ fixture: DomainFixture, _ reward: Reward, _ id: String, target: String = "instagram_stories",
                       completed: Bool = true, error: String? = nil) throws {
        _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: target, activityType: nil, completed: completed,
                                                           error: error, clientEventID: id), by: .user(reward.memberID, role: .member))
    }

    @Test func pagesTogetherAreTheWholeListAndAHostSeesOnlyTheirMeetups() throws {
        let fixture = try DomainFixture()
        let otherHost = try fixture.domain.users.createUser(NewUser(handle: "other-host", displayName: "Other", role: .host))
        let mine = try rewards(fixture, meetups: 3)
        let theirs = try rewards(fixture, meetups: 2, host: otherHost)
        var count = 0
        for reward in mine + theirs {
            for day in 0..<2 {
                try share(fixture, reward, "e\(count)", target: "instagram_stories"); count += 1
                try share(fixture, reward, "e\(count)", target: "share_sheet", completed: false, error: "cancelled by the app"); count += 1
                try share(fixture, reward, "e\(count)", target: "share_sheet", completed: false); count += 1
                fixture.clock.advance(by: Double(day + 1) * 86_400)
            }
        }
        let shares = fixture.domain.shares
        let all = try shares.statistics()
        #expect(all.count == 5 * 2 * 2, "five meetups, two days, two targets")
        #expect(all.map(\.events).reduce(0, +) == count)
        let sheet = try #require(all.first { $0.target == .shareSheet })
        #expect(sheet.events == 2 && sheet.completed == 0 && sheet.failed == 1 && sheet.dismissed == 1)
        #expect(all == all.sorted { ($0.meetupID, $0.day, $0.target.rawValue) < ($1.meetupID, $1.day, $1.target.rawValue) })

        for limit in [1, 3, 7] {
            var pages: [ShareStatistic] = []
            var after = ShareStatisticKey.start
            var pageCount = 0
            while true {
                let page = try shares.statistics(after: after, limit: limit)
                #expect(page.items.count <= limit)
                pages += page.items
                pageCount += 1
                guard let next = page.next else { break }
                after = next
            }
            #expect(pages == all, "limit \(limit)")
            #expect(pageCount == (all.count + limit - 1) / limit)
        }

        let hosted = try shares.statistics(hostID: fixture.host.id, after: .start, limit: 100)
        #expect(hosted.items == all.filter { statistic in mine.contains { $0.meetupID == statistic.meetupID } })
        #expect(hosted.next == nil)
        let one = try shares.statistics(meetupID: theirs[0].meetupID, hostID: otherHost.id, after: .start, limit: 100)
        #expect(one.items.count == 4 && one.items.allSatisfy { $0.meetupID == theirs[0].meetupID })
        #expect(try shares.statistics(meetupID: theirs[0].meetupID, hostID: fixture.host.id, after: .start, limit: 100).items.isEmpty)
        let firstDay = try #require(all.first?.day)
        let windowed = try shares.statistics(from: nil, to: fixture.clock.now().addingTimeInterval(-100 * 86_400))
        #expect(windowed.isEmpty && firstDay.count == 10)
    }

    @Test func daysFollowTheClubsZoneAcrossADaylightSavingChange() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.clubTimeZone = zone })
        let reward = try #require(try rewards(fixture, meetups: 1).first)
        // New York moves from UTC-5 to UTC-4 at 2027-03-14 07:00 UTC.
        let instants = ["2027-03-14T04:30:00Z", "2027-03-14T05:30:00Z", "2027-03-15T03:30:00Z", "2027-03-15T04:30:00Z"]
        for (index, text) in instants.enumerated() {
            fixture.clock.set(try #require(ISO8601DateFormatter().date(from: text)))
            try share(fixture, reward, "dst-\(index)")
        }
        let days = try fixture.domain.shares.statistics().map { "\($0.day):\($0.events)" }
        #expect(days == ["2027-03-13:1", "2027-03-14:2", "2027-03-15:1"])
    }

    // SQLite's plan; PostgreSQL plans joins itself from its statistics.
    @Test(.enabled(if: !TestDatabase.isPostgreSQL))
    func theQueryReachesMeetupsAndEventsThroughIndexesOnly() throws {
        let fixture = try DomainFixture()
        for (forHost, forMeetup) in [(true, false), (false, false), (true, true), (false, true)] {
            var arguments: [any DatabaseValueConvertible] = ["[[0,1,0]]", 0, 1, 0, "", "", 3, 2, "2026-01-01", "2026-12-31"]
            if forHost || forMeetup { arguments.append(Int64(1)) }
            if forMeetup { arguments.append(Int64(1)) }
            let plan = try fixture.pool.read { db in
                try db.query("EXPLAIN QUERY PLAN " + ShareRepository.statisticsSQL(forHost: forHost, forMeetup: forMeetup, dialect: db.dialect), arguments) {
                    try $0.get("detail", as: String.self)
                }
            }
            let text = plan.joined(separator: "\n")
            #expect(!plan.contains { $0.hasPrefix("SCAN e") || $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN m") || $0.contains("SCAN share_events") },
                    "host \(forHost), meetup \(forMeetup):\n\(text)")
            #expect(text.contains("SEARCH e USING INDEX share_events_by_meetup"), "\(text)")
            // Counts of pruned events are found through their table's key.
            #expect(text.contains("SEARCH k USING PRIMARY KEY (meetup_id=?"), "\(text)")
            if forHost && !forMeetup {
                // A host's meetups (hosted and co-hosted) are found through their indexes.
                #expect(text.contains("USING COVERING INDEX meetups_by_host (host_id=?)"), "\(text)")
                #expect(text.contains("USING COVERING INDEX meetup_cohosts_by_user (user_id=?)"), "\(text)")
            }
        }
    }
}
