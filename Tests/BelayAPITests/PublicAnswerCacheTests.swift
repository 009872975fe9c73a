import BelayAPI
import BelayComposition
import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline
import Foundation
import Synchronization
import Testing

/// The public badge answers are built once and kept until what they are made of changes, and
/// the on-demand image queues are bounded: a full one answers 503 `busy` with `Retry-After`.
@Suite struct PublicAnswerCacheTests {
    /// The payload of a compact JWT.
    static func payload(_ token: [UInt8]) throws -> JSONValue {
        let parts = String(decoding: token, as: UTF8.self).split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return try JSONValue.parse(Array(try #require(Data(base64Encoded: base64))))
    }

    @Test func theStatusListIsSignedOnceAndAgainWhenARewardIsRevoked() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member, json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#)
        #expect(checkIn.status == 201)

        let issuer = fixture.get("/issuer")
        #expect(issuer.status == 200)
        let kid = try #require(issuer["publicKeys"]?.arrayValue?.first?["kid"]?.stringValue)
        let thumbprint = String(try #require(kid.split(separator: "/").last))
        #expect(fixture.get("/issuer").bytes == issuer.bytes)
        #expect(try CalendarFeedCacheTests.builds(fixture, "issuer_profile") == 1)

        let path = "/badges/status/\(thumbprint)"
        let first = fixture.get(path)
        #expect(first.status == 200)
        #expect(first.headers["Content-Type"] == "application/vc+jwt")
        #expect(fixture.get(path).bytes == first.bytes)
        #expect(try CalendarFeedCacheTests.builds(fixture, "badge_status_list") == 1)

        // Revoked from the command line (`belay attendees undo-check-in`): a new list, once.
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        let revoked = fixture.get(path)
        #expect(revoked.status == 200)
        #expect(revoked.bytes != first.bytes)
        let before = try Self.payload(first.bytes)["credentialSubject"]?["encodedList"]?.stringValue
        let after = try Self.payload(revoked.bytes)["credentialSubject"]?["encodedList"]?.stringValue
        #expect(before != nil && after != nil && before != after, "the revoked bit is set")
        #expect(fixture.get(path).bytes == revoked.bytes)
        #expect(try CalendarFeedCacheTests.builds(fixture, "badge_status_list") == 2)

        // An unknown key is 404 and keeps nothing.
        #expect(fixture.get("/badges/status/nope").problemCode == "badge_key_not_found")

        // A new key (`belay badges rotate-key`, another process): the profile publishes both.
        let badges = try #require(fixture.application.services.badges)
        try badges.keys.rotate()
        let rotated = fixture.get("/issuer")
        #expect(rotated["publicKeys"]?.arrayValue?.count == 2)
        #expect(try CalendarFeedCacheTests.builds(fixture, "issuer_profile") == 2)
        #expect(fixture.get(path).status == 200, "the old key's list is still published")
    }

    @Test func whileTheResponseCacheHoldsTheRevocationsTheDatabaseIsNotAsked() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(60))
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member,
                             json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#).status == 201)
        let kid = try #require(fixture.get("/issuer")["publicKeys"]?.arrayValue?.first?["kid"]?.stringValue)
        let path = "/badges/status/\(try #require(kid.split(separator: "/").last))"
        let first = fixture.get(path)
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        #expect(fixture.get(path).bytes == first.bytes, "a change behind the server's back shows within the lifetime")
        fixture.clock.advance(by: 60)
        #expect(fixture.get(path).bytes != first.bytes)
    }

    /// Draws nothing until the test lets it go.
    final class GatedCollectionRenderer: CollectionImageRenderer {
        let started: DispatchSemaphore
        let release: DispatchSemaphore
        init(started: DispatchSemaphore, release: DispatchSemaphore) {
            self.started = started
            self.release = release
        }

        func contentKey(for request: CollectionRequest) throws -> ContentKey {
            ContentKey(canonical: "gated/\(request.scale)/\(request.content.memberName)")
        }

        func renderPNG(_ request: CollectionRequest, toFile path: String) throws {
            started.signal()
            release.wait()
            try Data("PNG".utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    struct NoServiceYet: Error {}

    /// Passes requests to a collection service made once the fixture (and its domain) exists.
    final class LateCollectionSource: CollectionImageSource {
        let service = Mutex<CollectionService?>(nil)

        func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?) throws -> (file: URL, digest: String) {
            guard let service = service.withLock({ $0 }) else { throw NoServiceYet() }
            return try service.collectionImage(memberID: memberID, scale: scale, hostedBy: hostID)
        }

        func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?,
                             then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void) {
            guard let service = service.withLock({ $0 }) else {
                return completion(.failure(NoServiceYet()))
            }
            service.collectionImage(memberID: memberID, scale: scale, hostedBy: hostID, then: completion)
        }
    }

    @Test func aFullCollectionQueueAnswers503WithRetryAfter() throws {
        let source = LateCollectionSource()
        let fixture = try APIFixture(collections: source)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // One render thread and room for one request: the first fills the queue.
        var settings = RenderPipelineSettings(configuration: fixture.configuration)
        settings.workers = 1
        source.service.withLock {
            $0 = CollectionService(domain: fixture.domain, settings: settings, queueCapacity: 1,
                                   rendererFactory: { GatedCollectionRenderer(started: started, release: release) })
        }
        let member = try fixture.member()
        let first = Mutex<APIResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let response = fixture.get("/v1/me/collection.png?scale=1", as: member)
            first.withLock { $0 = response }
            done.signal()
        }.start()
        #expect(started.wait(timeout: .now() + 15) == .success, "the first render started")

        let refused = fixture.get("/v1/me/collection.png?scale=2", as: member)
        #expect(refused.status == 503)
        #expect(refused.problemCode == "busy")
        #expect(refused.headers["Retry-After"] == "10")

        release.signal()
        #expect(done.wait(timeout: .now() + 15) == .success)
        #expect(first.withLock { $0?.status } == 200)
    }
}
