import BelayCore
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// A member's calendar feed is named before it is built: revalidating an unchanged feed is a
/// 304 that builds nothing, a feed already built is sent from memory, and any change to what
/// the feed shows (through the API or behind its back) changes the ETag.
@Suite struct CalendarFeedCacheTests {
    /// How many times the server built `answer`, from its own metrics.
    static func builds(_ fixture: APIFixture, _ answer: String) throws -> Int {
        let text = String(decoding: fixture.get("/metrics", as: fixture.admin).bytes, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("belay_answers_built_total{answer=\"\(answer)\"}") },
                                "no belay_answers_built_total for \(answer) in /metrics")
        return try #require(line.split(separator: " ").last.flatMap { Int($0) })
    }

    /// The path of `member`'s feed, from `GET /v1/me`.
    static func feedPath(_ fixture: APIFixture, _ member: APIFixture.Member) throws -> String {
        let url = try #require(fixture.get("/v1/me", as: member)["calendar_url"]?.stringValue)
        return String(url.dropFirst("https://api.belay.example".count))
    }

    @Test func revalidatingAnUnchangedFeedBuildsNothing() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        var meetups: [Meetup] = []
        for hours in 1...3 {
            let meetup = try fixture.meetup(startsIn: TimeInterval(hours * 3_600))
            #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
            meetups.append(meetup)
        }
        let path = try Self.feedPath(fixture, member)
        let first = fixture.get(path)
        #expect(first.status == 200)
        let etag = try #require(first.headers["ETag"])
        #expect(try Self.builds(fixture, "calendar_feed") == 1)

        // Revalidation: 304, nothing built; a plain GET: the same bytes, from memory.
        for _ in 0..<3 {
            let revalidated = fixture.get(path, headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.headers["ETag"] == etag)
            #expect(revalidated.bytes.isEmpty)
        }
        let again = fixture.get(path)
        #expect(again.status == 200 && again.bytes == first.bytes && again.headers["ETag"] == etag)
        #expect(again.headers["Content-Type"] == "text/calendar; charset=utf-8")
        #expect(try Self.builds(fixture, "calendar_feed") == 1)

        // A change through the API: a new ETag, built once.
        #expect(fixture.send(.patch, "/v1/meetups/\(meetups[0].id)", token: fixture.host.token, json: #"{"title": "Renamed"}"#).status == 200)
        let renamed = fixture.get(path, headers: [("If-None-Match", etag)])
        #expect(renamed.status == 200)
        let renamedETag = try #require(renamed.headers["ETag"])
        #expect(renamedETag != etag)
        #expect(String(decoding: renamed.bytes, as: UTF8.self).contains("SUMMARY:Renamed"))
        #expect(fixture.get(path, headers: [("If-None-Match", renamedETag)]).status == 304)
        #expect(try Self.builds(fixture, "calendar_feed") == 2)

        // A change the feed shows without its SEQUENCE moving (capacity moves DTSTAMP), made
        // behind the server's back as the CLI would: a new ETag too.
        fixture.clock.advance(by: 5)
        _ = try fixture.domain.meetups.update(id: meetups[1].id, MeetupChanges(capacity: 20), by: fixture.host.user.actorForTests)
        let updated = fixture.get(path, headers: [("If-None-Match", renamedETag)])
        #expect(updated.status == 200)
        #expect(updated.headers["ETag"] != renamedETag)

        // Leaving a meetup (the member's status, not the meetup, changes): a new ETag.
        let updatedETag = try #require(updated.headers["ETag"])
        _ = try fixture.domain.attendance.leave(meetupID: meetups[2].id, memberID: member.id, by: member.user.actorForTests)
        let left = fixture.get(path, headers: [("If-None-Match", updatedETag)])
        #expect(left.status == 200)
        #expect(left.headers["ETag"] != updatedETag)
        #expect(!String(decoding: left.bytes, as: UTF8.self).contains("meetup-\(meetups[2].id)@"))
    }

    @Test func whileTheResponseCacheHoldsTheETagTheFeedIsNotEvenQueried() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(60))
        let member = try fixture.member()
        let meetup = try fixture.meetup()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let path = try Self.feedPath(fixture, member)
        let etag = try #require(fixture.get(path).headers["ETag"])
        // Behind the server's back: shown once the cached ETag expires.
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(title: "Moved"), by: fixture.host.user.actorForTests)
        #expect(fixture.get(path, headers: [("If-None-Match", etag)]).status == 304)
        fixture.clock.advance(by: 60)
        #expect(fixture.get(path, headers: [("If-None-Match", etag)]).status == 200)
    }
}
