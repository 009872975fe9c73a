import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Co-hosts over the API: named by the host, then managing the meetup through every route
/// its host uses.
@Suite struct CohostAPITests {
    @Test func aCohostUsesTheHostsRoutesOnceNamed() throws {
        let fixture = try APIFixture()
        let cohost = try fixture.member(role: .host, name: "cohost")
        let stranger = try fixture.member(role: .host, name: "stranger")
        let member = try fixture.member()
        let meetup = try fixture.meetup(startsIn: 600)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: cohost).status == 403)
        // The host sees (so may name) a host who joined one of their meetups.
        let earlier = try fixture.meetup(startsIn: 1_200)
        #expect(fixture.post("/v1/meetups/\(earlier.id)/join", as: cohost).status == 201)

        #expect(fixture.post("/v1/meetups/\(meetup.id)/cohosts", as: cohost, json: #"{"user_id": \#(stranger.id)}"#).status == 403)
        let added = fixture.post("/v1/meetups/\(meetup.id)/cohosts", as: fixture.host, json: #"{"user_id": \#(cohost.id)}"#)
        #expect(added.status == 200)
        #expect(added["items"]?.arrayValue?.first?["handle"]?.stringValue == "cohost")
        let listed = fixture.get("/v1/meetups/\(meetup.id)/cohosts", as: cohost)
        #expect(listed["items"]?.arrayValue?.count == 1)

        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: cohost).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees.csv", as: cohost).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/check-in-code", as: cohost).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: stranger).status == 403)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/cohosts", as: stranger).status == 403)

        let removed = fixture.send(.delete, "/v1/meetups/\(meetup.id)/cohosts/\(cohost.id)", token: fixture.host.token)
        #expect(removed.status == 200)
        #expect(removed["items"]?.arrayValue?.isEmpty == true)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees", as: cohost).status == 403)
        let member422 = fixture.post("/v1/meetups/\(meetup.id)/cohosts", as: fixture.host, json: #"{"user_id": "x"}"#)
        #expect(member422.status == 422)
    }
}
