import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Weekly series: the same local time every week across daylight-saving changes, and
/// changes to one meetup or to it and every later one.
@Suite struct MeetupSeriesTests {
    let fixture: DomainFixture
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    init() throws {
        fixture = try DomainFixture()
        // 2027-03-01: before the series; Berlin changes to summer time on 2027-03-28.
        fixture.clock.set(Self.local("2027-03-01 12:00"))
    }

    static func local(_ text: String, _ zone: TimeZone = berlin) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    private func draft() -> NewMeetup {
        NewMeetup(title: "Thursday training", placeName: "Boulderhaus", startsAt: Self.local("2027-03-18 19:00"),
                  endsAt: Self.local("2027-03-18 21:30"), timeZone: "Europe/Berlin", capacity: 12, hostID: fixture.host.id)
    }

    private func localTimes(_ meetups: [Meetup]) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.berlin
        formatter.dateFormat = "MM-dd HH:mm"
        return meetups.map { formatter.string(from: $0.startsAt) + "–" + formatter.string(from: $0.endsAt).suffix(5) }
    }

    @Test func aWeeklySeriesKeepsItsLocalTimeAcrossTheChangeToSummerTime() throws {
        let series = try fixture.domain.meetups.createSeries(draft(), repeat: .weekly, until: Self.local("2027-04-08 23:59"), by: fixture.hostActor)
        #expect(localTimes(series) == ["03-18 19:00–21:30", "03-25 19:00–21:30", "04-01 19:00–21:30", "04-08 19:00–21:30"])
        #expect(series.map { Self.berlin.secondsFromGMT(for: $0.startsAt) } == [3_600, 3_600, 7_200, 7_200])
        #expect(Set(series.map(\.seriesID)) == [series[0].id])
        #expect(try fixture.domain.meetups.meetup(id: series[2].id).seriesID == series[0].id)
        // Each is a meetup of its own: its own attendance.
        let member = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: series[1].id, memberID: member.id, by: .user(member.id, role: .member))
        #expect(try fixture.domain.meetups.meetup(id: series[1].id).goingCount == 1)
        #expect(try fixture.domain.meetups.meetup(id: series[2].id).goingCount == 0)
    }

    @Test func aSeriesNeedsARepetitionAndAtMost104AndAHost() throws {
        let meetups = fixture.domain.meetups
        let short = try #require(throws: DomainError.self) {
            try meetups.createSeries(draft(), repeat: .weekly, until: Self.local("2027-03-24 23:59"), by: fixture.hostActor)
        }
        #expect(short.field == "until")
        let long = try #require(throws: DomainError.self) {
            try meetups.createSeries(draft(), repeat: .weekly, until: Self.local("2029-12-31 23:59"), by: fixture.hostActor)
        }
        #expect(long.field == "until")
        #expect(long.message.contains("at most 104"))
        let member = try fixture.member()
        #expect(refusal { _ = try meetups.createSeries(draft(), repeat: .weekly, until: Self.local("2027-04-08 23:59"),
                                                       by: .user(member.id, role: .member)) } == .notPermitted)
        let over = try #require(throws: DomainError.self) {
            var past = draft()
            past.startsAt = Self.local("2027-02-04 19:00")
            past.endsAt = Self.local("2027-02-04 21:00")
            return try meetups.createSeries(past, repeat: .weekly, until: Self.local("2027-04-08 23:59"), by: fixture.hostActor)
        }
        #expect(over.field == "ends_at")
    }

    @Test func changingOneAndEveryLaterOne() throws {
        let meetups = fixture.domain.meetups
        let series = try meetups.createSeries(draft(), repeat: .weekly, until: Self.local("2027-04-08 23:59"), by: fixture.hostActor)
        _ = try meetups.cancel(id: series[3].id, by: fixture.hostActor)

        // From the second on, half an hour later and renamed; the cancelled one is left alone.
        var changes = MeetupChanges()
        changes.title = "Thursday training (late)"
        changes.startsAt = Self.local("2027-03-25 19:30")
        changes.endsAt = Self.local("2027-03-25 22:00")
        let updated = try meetups.updateFollowing(id: series[1].id, changes, by: fixture.hostActor)
        #expect(updated.map(\.id) == [series[1].id, series[2].id])
        #expect(localTimes(updated) == ["03-25 19:30–22:00", "04-01 19:30–22:00"], "the same local shift in winter and in summer time")
        #expect(updated.allSatisfy { $0.title == "Thursday training (late)" })
        let first = try meetups.meetup(id: series[0].id)
        #expect(localTimes([first]) == ["03-18 19:00–21:30"])
        #expect(first.title == "Thursday training")
        #expect(try meetups.meetup(id: series[3].id).status == .cancelled)

        // One at a time still works; a zone change is refused for the following ones.
        var one = MeetupChanges()
        one.capacity = 20
        #expect(try meetups.update(id: series[2].id, one, by: fixture.hostActor).capacity == 20)
        #expect(try meetups.meetup(id: series[1].id).capacity == 12)
        var zone = MeetupChanges()
        zone.timeZone = "Asia/Seoul"
        let refused = try #require(throws: DomainError.self) { try meetups.updateFollowing(id: series[1].id, zone, by: fixture.hostActor) }
        #expect(refused.field == "time_zone")
        // On a one-off meetup, --following is a plain update.
        let single = try fixture.meetup()
        #expect(try meetups.updateFollowing(id: single.id, one, by: fixture.hostActor).map(\.capacity) == [20])
        #expect(single.seriesID == nil)
    }
}
