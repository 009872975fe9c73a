import BelayAPI
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// The meetup response cache: changes through the API show at once, changes behind its back
/// (the CLI) within the cache's lifetime.
@Suite struct ResponseCacheTests {
    @Test func writesThroughTheAPIShowAtOnce() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(3_600))
        let meetup = try fixture.meetup(capacity: 5)
        let member = try fixture.member()
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 0)
        #expect(fixture.get("/v1/meetups?limit=50", as: member)["items"]?.arrayValue?.first?["going_count"]?.intValue == 0)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 1)
        #expect(fixture.get("/v1/meetups?limit=50", as: member)["items"]?.arrayValue?.first?["going_count"]?.intValue == 1)
        #expect(fixture.send(.patch, "/v1/meetups/\(meetup.id)", token: fixture.host.token, json: #"{"title": "Renamed"}"#).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["title"]?.stringValue == "Renamed")
        // Leaving through the API: counted at once again.
        #expect(fixture.post("/v1/meetups/\(meetup.id)/leave", as: member).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 0)
        // A request without a token changes nothing and keeps the cache.
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/leave", as: nil).status == 401)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 0)
    }

    @Test func changesFromAnotherProcessShowWithinTheLifetime() throws {
        let fixture = try APIFixture(responseCacheLifetime: .milliseconds(200))
        let meetup = try fixture.meetup(capacity: 5)
        let member = try fixture.member()
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 0)
        // As `belay attendees add` would: through the domain, not the server.
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        let deadline = Date().addingTimeInterval(10)
        var seen: Int64? = 0
        while seen != 1 && Date() < deadline {
            seen = fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue
        }
        #expect(seen == 1)
    }

    @Test func aBodyReadWhileSomethingChangedIsNotStored() {
        let cache = ResponseCache(lifetime: .seconds(3_600))
        let generation = cache.currentGeneration
        cache.invalidate()
        cache.store([1], for: .meetup(1), readGeneration: generation)
        #expect(cache.body(for: .meetup(1)) == nil)
        cache.store([2], for: .meetup(1), readGeneration: cache.currentGeneration)
        #expect(cache.body(for: .meetup(1)) == [2])
        #expect(cache.body(for: .meetup(2)) == nil)
        #expect(ResponseCache(lifetime: .zero).body(for: .meetup(1)) == nil)
    }
}
