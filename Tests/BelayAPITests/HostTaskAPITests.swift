import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A host's tasks from the app, with the command line's rules: adding and removing attendees,
/// undoing a check-in, the no-shows of a completed meetup, and a member's attendance record;
/// a user the host may not see answers like one that does not exist.
@Suite struct HostTaskAPITests {
    /// `member` joins an earlier meetup of the fixture's host, so the host may see them.
    static func seenByHost(_ fixture: APIFixture, _ members: [APIFixture.Member]) throws {
        let earlier = try fixture.meetup(capacity: 50, startsIn: 86_400)
        for member in members { #expect(fixture.post("/v1/meetups/\(earlier.id)/join", as: member).status == 201) }
    }

    @Test func aHostAddsRemovesAndUndoesACheckInAsTheCommandLineDoes() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(capacity: 1, startsIn: 0)
        let (minji, dahye) = (try fixture.member(), try fixture.member())
        try Self.seenByHost(fixture, [minji, dahye])
        let path = "/v1/meetups/\(meetup.id)/attendees"

        // Going while there is room, then waitlisted; adding again changes nothing.
        let added = fixture.post(path, as: fixture.host, json: #"{"user_id": \#(minji.id)}"#)
        schemas.check(added, .post, "/v1/meetups/{id}/attendees")
        #expect(added.status == 201)
        #expect(added["status"]?.stringValue == "going" && added["handle"]?.stringValue == minji.user.handle)
        #expect(fixture.post(path, as: fixture.host, json: #"{"user_id": \#(minji.id)}"#).status == 200)
        let waiting = fixture.post(path, as: fixture.host, json: #"{"user_id": \#(dahye.id)}"#)
        #expect(waiting["status"]?.stringValue == "waitlisted" && waiting["waitlist_position"]?.intValue == 1)
        // A member adds nobody but themselves.
        #expect(fixture.post(path, as: minji, json: #"{"user_id": \#(dahye.id)}"#).problemCode == "not_permitted")

        // Removing the going member promotes the first in line.
        let removed = fixture.send(.delete, "\(path)/\(minji.id)", token: fixture.host.token)
        schemas.check(removed, .delete, "/v1/meetups/{id}/attendees/{user_id}")
        #expect(removed["removed"]?["status"]?.stringValue == "cancelled")
        #expect(removed["promoted"]?.arrayValue?.map { $0["handle"]?.stringValue } == [dahye.user.handle])

        // Undoing a check-in: going again, the reward revoked.
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.host, json: #"{"user_id": \#(dahye.id)}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        #expect(fixture.send(.delete, "\(path)/\(dahye.id)", token: fixture.host.token).problemCode == "already_checked_in")
        let undone = fixture.post("/v1/meetups/\(meetup.id)/undo-check-in", as: fixture.host, json: #"{"user_id": \#(dahye.id)}"#)
        schemas.check(undone, .post, "/v1/meetups/{id}/undo-check-in")
        #expect(undone["status"]?.stringValue == "going" && undone["checked_in_at"] == .null)
        let revokedAt = try fixture.domain.pool.read { db in
            try db.scalar("SELECT revoked_at FROM rewards WHERE id = ?", [Int64(rewardID)], as: Date?.self)
        }
        #expect(revokedAt != nil)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/undo-check-in", as: fixture.host, json: #"{"user_id": \#(dahye.id)}"#).problemCode == "not_checked_in")
        #expect(fixture.post("/v1/meetups/\(meetup.id)/undo-check-in", as: dahye, json: #"{"user_id": \#(dahye.id)}"#).status == 403)
    }

    @Test func aUserTheHostMayNotSeeIsAnsweredLikeAMissingOne() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let stranger = try fixture.member()
        let otherHost = try fixture.member(role: .host, name: "otherhost")
        let hidden = HiddenUserAPITests()
        for path in ["/v1/meetups/\(meetup.id)/attendees", "/v1/meetups/\(meetup.id)/undo-check-in"] {
            for id in [stranger.id, otherHost.id, fixture.admin.id] {
                let answer = hidden.expectSameAnswer(fixture, path, as: fixture.host, hidden: id, missing: 99_999)
                let text = String(decoding: answer.bytes, as: UTF8.self)
                #expect(!text.contains(stranger.user.handle) && !text.contains("otherhost") && !text.contains("admin"), "\(text)")
            }
        }
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).goingCount == 0, "nobody hidden was added")
        // Removing and the record name the user in the path: the answer is the missing id's, with this id.
        for route in ["/v1/meetups/\(meetup.id)/attendees/{id}", "/v1/users/{id}/attendance-record"] {
            let method: HTTPMethod = route.hasSuffix("record") ? .get : .delete
            let forStranger = fixture.send(method, route.replacingOccurrences(of: "{id}", with: String(stranger.id)), token: fixture.host.token,
                                           headers: [("X-Request-Id", "probe")])
            let forMissing = fixture.send(method, route.replacingOccurrences(of: "{id}", with: "99999"), token: fixture.host.token,
                                          headers: [("X-Request-Id", "probe")])
            #expect(forStranger.status == 404 && forStranger.problemCode == "user_not_found")
            #expect(String(decoding: forStranger.bytes, as: UTF8.self).replacingOccurrences(of: String(stranger.id), with: "99999")
                == String(decoding: forMissing.bytes, as: UTF8.self))
        }
        // The admin sees everyone; a member themselves.
        #expect(fixture.post("/v1/meetups/\(meetup.id)/attendees", as: fixture.admin, json: #"{"user_id": \#(stranger.id)}"#).status == 201)
        #expect(fixture.get("/v1/users/\(stranger.id)/attendance-record", as: stranger)["joined"]?.intValue == 1)
    }

    @Test func aCompletedMeetupCountsItsNoShowsAndMembersKeepARecord() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(capacity: 2, startsIn: 0)
        let (came, missed, waited, left) = (try fixture.member(), try fixture.member(), try fixture.member(), try fixture.member())
        for member in [came, missed, waited, left] { #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        #expect(fixture.post("/v1/meetups/\(meetup.id)/leave", as: left).status == 200)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.host, json: #"{"user_id": \#(came.id)}"#).status == 201)
        let noShows = "/v1/meetups/\(meetup.id)/no-shows"

        // Until it is completed they may still come.
        let early = fixture.get(noShows, as: fixture.host)
        schemas.check(early, .get, "/v1/meetups/{id}/no-shows")
        #expect(early.status == 409 && early.problemCode == "meetup_not_completed")
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: came)["no_shows"] == .null)

        fixture.clock.advance(by: 7_200 + 7_200)
        #expect(try fixture.domain.meetups.completeEnded().map(\.id) == [meetup.id])
        let list = fixture.get(noShows, as: fixture.host)
        schemas.check(list, .get, "/v1/meetups/{id}/no-shows")
        #expect(list["items"]?.arrayValue?.map { $0["handle"]?.stringValue } == [missed.user.handle])
        #expect(fixture.get(noShows, as: came).status == 403)
        let body = fixture.get("/v1/meetups/\(meetup.id)", as: came)
        schemas.check(body, .get, "/v1/meetups/{id}")
        #expect(body["no_shows"]?.intValue == 1)

        // The record: joined (not left), checked in, no-shows; for the hosts who may see the member.
        let record = fixture.get("/v1/users/\(missed.id)/attendance-record", as: fixture.host)
        schemas.check(record, .get, "/v1/users/{id}/attendance-record")
        #expect(record["handle"]?.stringValue == missed.user.handle)
        #expect([record["joined"], record["checked_in"], record["no_shows"]].map { $0?.intValue } == [1, 0, 1])
        let good = fixture.get("/v1/users/\(came.id)/attendance-record", as: fixture.admin)
        #expect([good["joined"], good["checked_in"], good["no_shows"]].map { $0?.intValue } == [1, 1, 0])
        #expect([waited, left].map { fixture.get("/v1/users/\($0.id)/attendance-record", as: fixture.host)["no_shows"]?.intValue } == [0, 0])
        #expect(fixture.get("/v1/users/\(missed.id)/attendance-record", as: came).problemCode == "user_not_found")
    }
}
