import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// One caller cannot flood everyone: changes and share events are limited per member, public
/// pages per address, and one reward keeps a bounded number of a member's share events.
@Suite struct RateLimitAPITests {
    @Test func changesAreLimitedPerMemberAndReadsAreNot() throws {
        let fixture = try APIFixture(settings: ["rate_limits": ["writes_per_member_per_minute": 4]])
        let (ana, ben) = (try fixture.member(), try fixture.member())
        let meetup = try fixture.meetup()
        var statuses: [Int] = []
        for index in 0..<6 {
            let response = fixture.post("/v1/meetups/\(meetup.id)/\(index % 2 == 0 ? "join" : "leave")", as: ana)
            statuses.append(response.status)
            if response.status == 429 {
                #expect(response.problemCode == "rate_limited")
                #expect(response.headers["Retry-After"] != nil)
                #expect(response.headers["RateLimit-Policy"] == #""writes";q=4;w=60"#)
            } else {
                #expect(response.headers["RateLimit"] != nil)
            }
        }
        #expect(statuses == [201, 200, 201, 200, 429, 429], "\(statuses)")
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: ana).status == 200)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: ben).status == 201)
        fixture.clock.advance(by: 15)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: ana).status != 429)
    }

    @Test func shareEventsHaveTheirOwnLimitAndACapPerReward() throws {
        let fixture = try APIFixture(settings: ["rate_limits": ["share_events_per_member_per_minute": 100], "share": ["max_events_per_reward": 2]])
        let ana = try fixture.member()
        let meetup = try fixture.meetup()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: ana.id, by: .user(ana.id, role: .member))
        let checkIn = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: ana.id, proof: .host), by: .commandLine)
        let rewardID = try #require(checkIn.reward?.id)
        func share(_ id: String) -> APIResponse {
            fixture.post("/v1/rewards/\(rewardID)/share-events", as: ana,
                         json: #"{"target": "instagram_stories", "completed": true, "client_event_id": "\#(id)"}"#)
        }
        #expect(share("a").status == 201)
        #expect(share("b").status == 201)
        let third = share("c")
        #expect(third.status == 409)
        #expect(third.problemCode == "share_event_limit")
        // A retry of one already recorded is still answered with it.
        #expect(share("a").status == 200)
        let stored = try fixture.domain.shares.events(memberID: ana.id)
        #expect(stored.count == 2)
    }

    @Test func publicPagesAreLimitedPerAddress() throws {
        let fixture = try APIFixture(settings: ["rate_limits": ["public_per_address_per_minute": 3]])
        let statuses = (0..<5).map { _ in fixture.get("/issuer").status }
        #expect(statuses == [200, 200, 200, 429, 429], "\(statuses)")
        // The API's health and the document are never limited.
        #expect(fixture.get("/healthz").status == 200)
    }

    @Test func aLimitOfZeroIsOff() throws {
        let fixture = try APIFixture(settings: ["rate_limits": ["writes_per_member_per_minute": 0, "public_per_address_per_minute": 0,
                                                                "auth_per_address_per_minute": 0]])
        let ana = try fixture.member()
        let meetup = try fixture.meetup()
        // Past any burst a limit could have: every change passes, and none says it is limited.
        let changes = (0..<300).map { index in fixture.post("/v1/meetups/\(meetup.id)/\(index % 2 == 0 ? "join" : "leave")", as: ana) }
        #expect(changes.filter { $0.status == 429 }.isEmpty)
        #expect(changes.allSatisfy { $0.headers["RateLimit-Policy"] == nil && $0.headers["RateLimit"] == nil })
        let pages = (0..<700).map { _ in fixture.get("/issuer") }
        #expect(pages.allSatisfy { $0.status == 200 && $0.headers["RateLimit"] == nil })
        let signIns = (0..<40).map { _ in fixture.post("/v1/auth/refresh", as: nil, json: #"{"refresh_token": "not-a-token"}"#) }
        #expect(signIns.allSatisfy { $0.status != 429 }, "\(signIns.map(\.status))")
    }
}
