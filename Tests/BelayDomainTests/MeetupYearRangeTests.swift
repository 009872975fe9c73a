import BelayCore
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Meetup times are written with four-digit years (RFC 3339, iCalendar): an instant whose year
/// on the meetup's or the club's wall clock leaves 0001–9999 is refused, naming the field.
@Suite struct MeetupYearRangeTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var meetups: MeetupService { fixture.domain.meetups }

    func draft(_ start: String, hours: Double = 1, zone: String = "Asia/Seoul") throws -> NewMeetup {
        let startsAt = try #require(RFC3339.parse(start)?.date)
        return NewMeetup(title: "Far out", description: "", placeName: "Seoul Forest Gym", address: nil,
                         startsAt: startsAt, endsAt: startsAt.addingTimeInterval(hours * 3_600), timeZone: zone,
                         capacity: 12, hostID: fixture.host.id)
    }

    func invalidField(_ body: () throws -> Void) throws -> String? {
        let error = try #require(throws: DomainError.self, performing: body)
        #expect(error.reason == .invalidInput)
        #expect(error.message.contains("0001 to 9999"), "\(error.message)")
        return error.field
    }

    @Test("a start that is the year 10000 in the meetup's zone is refused naming starts_at")
    func startPastYear9999() throws {
        let input = try draft("9999-12-31T23:00:00Z")
        #expect(try invalidField { _ = try meetups.create(input, by: fixture.hostActor) } == "starts_at")
        #expect(try meetups.list(MeetupQuery(scope: .all, limit: 5)).items.isEmpty)
    }

    @Test("an end that leaves the year 9999 in the club's zone is refused naming ends_at, though UTC is still 9999")
    func endPastYear9999InTheClubsZone() throws {
        // It starts at 23:30 on 9999-12-31 in Asia/Seoul, the club's zone, and ends at 00:30 on 10000-01-01.
        let input = try draft("9999-12-31T14:30:00Z", zone: "UTC")
        #expect(try invalidField { _ = try meetups.create(input, by: fixture.hostActor) } == "ends_at")
    }

    @Test("a start before the year 0001 on the meetup's wall clock is refused naming starts_at")
    func startBeforeYear1() throws {
        let input = try draft("0001-01-01T03:00:00Z", zone: "America/Los_Angeles")
        #expect(try invalidField { _ = try meetups.create(input, by: fixture.hostActor) } == "starts_at")
    }

    @Test("the last evening of 9999 in Seoul is accepted; moving its end into 10000 is refused")
    func lastEveningAndUpdate() throws {
        let created = try meetups.create(try draft("9999-12-31T10:00:00Z"), by: fixture.hostActor)
        #expect(RFC3339.string(from: created.startsAt, utcOffsetSeconds: 9 * 3_600, fraction: .none) == "9999-12-31T19:00:00+09:00")
        var changes = MeetupChanges()
        changes.endsAt = try #require(RFC3339.parse("9999-12-31T15:30:00Z")?.date)
        #expect(try invalidField { _ = try meetups.update(id: created.id, changes, by: fixture.hostActor) } == "ends_at")
        #expect(try meetups.meetup(id: created.id).endsAt == created.endsAt)
    }

    @Test("a weekly series whose last meetup would fall in 10000 is refused naming until, and none is made")
    func seriesPastYear9999() throws {
        let input = try draft("9999-12-10T14:00:00Z")
        let until = try #require(RFC3339.parse("9999-12-31T23:59:00Z")?.date)
        let error = try #require(throws: DomainError.self) {
            _ = try meetups.createSeries(input, repeat: .weekly, until: until, by: fixture.hostActor)
        }
        #expect(error.field == "until")
        #expect(error.message.contains("9999"), "\(error.message)")
        #expect(try meetups.list(MeetupQuery(scope: .all, limit: 5)).items.isEmpty)
    }
}
