import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A host naming a user by id learns nothing about users they may not see: such an id is
/// answered exactly, byte for byte, like an id no user has.
@Suite struct HiddenUserAPITests {
    /// The same request for a hidden user and a missing one, with the same request id: the
    /// answers must not differ in one byte or header.
    func expectSameAnswer(_ fixture: APIFixture, _ path: String, as caller: APIFixture.Member, hidden: Int64, missing: Int64,
                          sourceLocation: SourceLocation = #_sourceLocation) -> APIResponse {
        let probe = [("X-Request-Id", "probe-1")]
        let forHidden = fixture.post(path, as: caller, json: #"{"user_id": \#(hidden)}"#, headers: probe)
        let forMissing = fixture.post(path, as: caller, json: #"{"user_id": \#(missing)}"#, headers: probe)
        #expect(forHidden.status == 404, sourceLocation: sourceLocation)
        #expect(forHidden.problemCode == "user_not_found", sourceLocation: sourceLocation)
        #expect(forHidden.status == forMissing.status, sourceLocation: sourceLocation)
        #expect(String(decoding: forHidden.bytes, as: UTF8.self) == String(decoding: forMissing.bytes, as: UTF8.self),
                sourceLocation: sourceLocation)
        #expect(Self.headerLines(forHidden) == Self.headerLines(forMissing), sourceLocation: sourceLocation)
        return forHidden
    }

    static func headerLines(_ response: APIResponse) -> [String] {
        response.headers.map { "\($0.name): \($0.value)" }
    }

    @Test func aHostCheckingInAUserTheyCannotSeeHearsWhatAMissingIdGets() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let elsewhere = try fixture.member()
        let otherHost = try fixture.member(role: .host, name: "otherhost")
        let theirs = try fixture.meetup(startsIn: 0, host: otherHost)
        #expect(fixture.post("/v1/meetups/\(theirs.id)/join", as: elsewhere).status == 201)
        let path = "/v1/meetups/\(meetup.id)/check-in"
        for hidden in [fixture.admin.id, otherHost.id, elsewhere.id] {
            let answer = expectSameAnswer(fixture, path, as: fixture.host, hidden: hidden, missing: 99_999)
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(!text.contains("admin") && !text.contains("otherhost") && !text.contains(elsewhere.user.handle), "\(text)")
        }
        // A member the host can see (they joined one of the host's meetups) is named.
        let seen = try fixture.member()
        let earlier = try fixture.meetup(startsIn: 3_600)
        #expect(fixture.post("/v1/meetups/\(earlier.id)/join", as: seen).status == 201)
        let named = fixture.post(path, as: fixture.host, json: #"{"user_id": \#(seen.id)}"#)
        #expect(named.status == 409)
        #expect(named["reason"]?.stringValue == "not_attending")
        #expect(named["detail"]?.stringValue?.hasPrefix("\(seen.user.handle) has not joined meetup \(meetup.id)") == true)
        // An admin sees everyone.
        let byAdmin = fixture.post(path, as: fixture.admin, json: #"{"user_id": \#(elsewhere.id)}"#)
        #expect(byAdmin["reason"]?.stringValue == "not_attending")
    }

    @Test func aHostNamingACohostTheyCannotSeeHearsWhatAMissingIdGets() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 600)
        let otherHost = try fixture.member(role: .host, name: "otherhost")
        let member = try fixture.member()
        let path = "/v1/meetups/\(meetup.id)/cohosts"
        for hidden in [fixture.admin.id, otherHost.id, member.id] {
            let answer = expectSameAnswer(fixture, path, as: fixture.host, hidden: hidden, missing: 99_999)
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(!text.contains("admin") && !text.contains("otherhost") && !text.contains(member.user.handle), "\(text)")
        }
        #expect(fixture.get(path, as: fixture.host)["items"]?.arrayValue?.isEmpty == true, "nobody hidden was added")
        // An admin still names any host.
        let byAdmin = fixture.post(path, as: fixture.admin, json: #"{"user_id": \#(otherHost.id)}"#)
        #expect(byAdmin.status == 200)
        #expect(byAdmin["items"]?.arrayValue?.first?["handle"]?.stringValue == "otherhost")
    }
}
