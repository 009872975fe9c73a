import BelayCore
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
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 0, "still cached")
        fixture.clock.advance(by: 0.2)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: member)["going_count"]?.intValue == 1)
    }

    @Test func theCacheIsBoundedByBytesNotOnlyByEntries() {
        let cache = ResponseCache(lifetime: .seconds(3_600), capacity: 4_096, maximumBytes: 10_000)
        for id in 1...100 {
            cache.store([UInt8](repeating: 7, count: 1_000), for: .meetup(Int64(id)), readGeneration: cache.currentGeneration)
            #expect(cache.usage.bytes <= 10_000)
        }
        #expect(cache.usage.count <= 10)
        #expect(cache.body(for: .meetup(100))?.count == 1_000)
        // A body larger than the whole budget is not kept at all.
        cache.store([UInt8](repeating: 1, count: 10_001), for: .meetup(500), readGeneration: cache.currentGeneration)
        #expect(cache.body(for: .meetup(500)) == nil)
        #expect(cache.usage.bytes <= 10_000)
        // Storing the same key again replaces its bytes rather than adding to them.
        let before = cache.usage.bytes
        cache.store([UInt8](repeating: 2, count: 1_000), for: .meetup(100), readGeneration: cache.currentGeneration)
        #expect(cache.usage.bytes == before)
    }

    @Test func cursorsThatNameTheSamePositionAreOneRequest() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(3_600))
        for hours in 1...3 { _ = try fixture.meetup(startsIn: TimeInterval(hours * 3_600)) }
        let first = fixture.get("/v1/meetups?limit=1", as: fixture.host)
        let cursor = try #require(first["next_cursor"]?.stringValue)
        let decoded = String(decoding: try #require(Data(base64Encoded: Self.padded(cursor))), as: UTF8.self)
        let parts = decoded.split(separator: ":").map(String.init)
        #expect(parts.count == 3)
        // The same position with a sign and leading zeros: a different string, the same page.
        let respelled = Data("\(parts[0]):+000\(parts[1]):0000\(parts[2])".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(respelled != cursor)
        let canonical = try fixture.domain.meetups.canonical(MeetupQuery(scope: .upcoming, limit: 1, cursor: respelled))
        #expect(canonical.cursor == cursor)
        let viaCursor = fixture.get("/v1/meetups?limit=1&cursor=\(cursor)", as: fixture.host)
        let viaRespelled = fixture.get("/v1/meetups?limit=1&cursor=\(respelled)", as: fixture.host)
        #expect(viaCursor.status == 200)
        #expect(viaRespelled.bytes == viaCursor.bytes)
        #expect(fixture.get("/v1/meetups?limit=1&cursor=bm9wZQ", as: fixture.host).problemCode == "invalid_cursor")
    }

    static func padded(_ base64URL: String) -> String {
        let text = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return text + String(repeating: "=", count: (4 - text.count % 4) % 4)
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

    @Test func bodiesAgeOnTheInjectedMonotonicClockNotTheWallClock() {
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_795_946_400))
        let cache = ResponseCache(lifetime: .seconds(5), clock: clock)
        cache.store([7], for: .meetup(1), readGeneration: cache.currentGeneration)
        clock.set(Date(timeIntervalSince1970: 1_795_946_400 + 86_400))
        #expect(cache.body(for: .meetup(1)) == [7], "setting the wall clock ages nothing")
        clock.advance(by: 4.9)
        #expect(cache.body(for: .meetup(1)) == [7])
        clock.advance(by: 0.1)
        #expect(cache.body(for: .meetup(1)) == nil, "five seconds on the monotonic clock")
    }
}
