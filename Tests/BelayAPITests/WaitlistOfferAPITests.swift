import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// `POST /v1/meetups/{id}/claim` with `waitlist.claim_minutes` set.
@Suite struct WaitlistOfferAPITests {
    @Test func theFirstInLineClaimsTheFreedPlace() throws {
        let fixture = try APIFixture(settings: ["waitlist": ["claim_minutes": 30, "cutoff_minutes": 60]])
        let meetup = try fixture.meetup(capacity: 1, startsIn: 86_400)
        let (first, second, third) = (try fixture.member(), try fixture.member(), try fixture.member())
        for member in [first, second, third] { #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        #expect(fixture.post("/v1/meetups/\(meetup.id)/leave", as: first).status == 200)
        let mine = fixture.get("/v1/meetups/\(meetup.id)/attendance", as: second)
        #expect(mine["status"]?.stringValue == "waitlisted")
        #expect(mine["offer_expires_at"]?.stringValue != nil)
        let refused = fixture.post("/v1/meetups/\(meetup.id)/claim", as: third)
        #expect(refused.status == 409)
        #expect(refused.problemCode == "no_offer")
        let claimed = fixture.post("/v1/meetups/\(meetup.id)/claim", as: second)
        #expect(claimed.status == 200)
        #expect(claimed["status"]?.stringValue == "going")
        #expect(claimed["offer_expires_at"] == .null)
    }
}
