import BelayCore
@testable import BelayDomain
import Foundation
import Testing

/// What one member's calendar feed holds: at most its limit, upcoming meetups first, and a
/// version that names exactly the feed read at the same moment.
@Suite struct CalendarServiceTests {
    @Test func aFullFeedKeepsItsUpcomingMeetupsAndLeavesOutThePastOnesFirst() throws {
        let fixture = try DomainFixture()
        let member = try fixture.member()
        let calendar = CalendarService(pool: fixture.pool, clock: fixture.clock, feedLimit: 3)
        // Two meetups that will be over, then three still to come, joined while all were upcoming.
        var past: [Meetup] = []
        for day in 1...2 { past.append(try fixture.meetup(startsIn: TimeInterval(day * 86_400), title: "Past \(day)")) }
        var upcoming: [Meetup] = []
        for day in 10...12 { upcoming.append(try fixture.meetup(startsIn: TimeInterval(day * 86_400), title: "Upcoming \(day)")) }
        for meetup in past + upcoming {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        fixture.clock.advance(by: 5 * 86_400)

        let feed = try calendar.feed(memberID: member.id)
        #expect(feed.map(\.meetup.id) == upcoming.map(\.id))
        #expect(try calendar.feedVersion(memberID: member.id) == CalendarFeedVersion(entries: feed))

        // With room for four: the latest past meetup joins, and the feed stays in date order.
        let roomier = CalendarService(pool: fixture.pool, clock: fixture.clock, feedLimit: 4)
        #expect(try roomier.feed(memberID: member.id).map(\.meetup.id) == [past[1].id] + upcoming.map(\.id))
        #expect(CalendarService.feedLimit == 500)
        #expect(fixture.domain.calendar.feedLimit == CalendarService.feedLimit)
    }

    @Test func theVersionChangesWithEverythingTheFeedShows() throws {
        let fixture = try DomainFixture()
        let member = try fixture.member()
        let meetup = try fixture.meetup()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        let calendar = fixture.domain.calendar
        let first = try calendar.feedVersion(memberID: member.id)
        #expect(first.items.count == 1)
        #expect(try calendar.feedVersion(memberID: member.id).canonicalText == first.canonicalText)
        // A change a calendar shows without a new SEQUENCE (DTSTAMP moves with updated_at).
        fixture.clock.advance(by: 1)
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(capacity: 30), by: fixture.hostActor)
        let second = try calendar.feedVersion(memberID: member.id)
        #expect(second.canonicalText != first.canonicalText)
        #expect(second == CalendarFeedVersion(entries: try calendar.feed(memberID: member.id)))
    }
}
