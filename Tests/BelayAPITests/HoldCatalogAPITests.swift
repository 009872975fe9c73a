import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// `GET /v1/holds` with the artwork it links to, and progress in `/v1/me`.
@Suite struct HoldCatalogAPITests {
    @Test func theCatalogueListsEveryHoldWithArtworkThatLoads() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let list = fixture.get("/v1/holds", as: member)
        #expect(list.status == 200)
        let items = try #require(list["items"]?.arrayValue)
        let catalogue = try fixture.domain.catalog.holds()
        #expect(items.count == catalogue.count)
        let gold = try #require(items.first { $0["id"]?.stringValue == "jug-gold" })
        #expect(gold["milestone_only"]?.boolValue == true)
        #expect(gold["milestone_check_in"]?.intValue == 1)
        #expect(gold["rarity"]?.stringValue == "epic")
        let url = try #require(gold["artwork_url"]?.stringValue)
        #expect(url.hasSuffix("/v1/holds/jug-gold/artwork.png"))

        let artwork = fixture.get("/v1/holds/jug-gold/artwork.png", as: member)
        #expect(artwork.status == 200)
        #expect(artwork.contentType == "image/png")
        #expect(Array(artwork.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let etag = try #require(artwork.headers["ETag"])
        #expect(fixture.get("/v1/holds/jug-gold/artwork.png", as: member, headers: [("If-None-Match", etag)]).status == 304)
        #expect(fixture.get("/v1/holds/no-such-hold/artwork.png", as: member).status == 404)
        #expect(fixture.get("/v1/holds", as: nil).status == 401)
    }

    @Test func meShowsProgressAndTheStreak() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let before = try #require(fixture.get("/v1/me", as: member)["progress"])
        #expect(before["check_ins"]?.intValue == 0)
        #expect(before["next_milestone"]?["check_in"]?.intValue == 1)
        #expect(before["streak"]?["current_weeks"]?.intValue == 0)
        let meetup = try fixture.meetup(startsIn: 600)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host),
                                                by: fixture.host.user.actorForTests)
        let after = try #require(fixture.get("/v1/me", as: member)["progress"])
        #expect(after["check_ins"]?.intValue == 1)
        #expect(after["holds_collected"]?.intValue == 1)
        #expect(after["holds_total"]?.intValue == Int64(try fixture.domain.catalog.holds().count))
        #expect(after["next_milestone"]?["check_in"]?.intValue == 10)
        #expect(after["next_milestone"]?["remaining"]?.intValue == 9)
        #expect(after["streak"]?["current_weeks"]?.intValue == 1)
        #expect(after["streak"]?["this_week_done"]?.boolValue == true)
        let epic = after["by_rarity"]?.arrayValue?.first { $0["rarity"]?.stringValue == "epic" }
        #expect(epic?["collected"]?.intValue == 1, "the first check-in is the epic Gold Jug")
    }

    @Test func streakMilestonesShowInTheCatalogueProgressAndReward() throws {
        let fixture = try APIFixture(settings: ["rewards": ["streak_milestones": ["1": "crimp-silver", "3": "sloper-emerald"],
                                                            "milestones": ["10": "jug-gold"]]])
        let member = try fixture.member()
        let holds = try #require(fixture.get("/v1/holds", as: member)["items"]?.arrayValue)
        #expect(holds.first { $0["id"]?.stringValue == "crimp-silver" }?["milestone_streak_weeks"]?.intValue == 1)
        #expect(holds.first { $0["id"]?.stringValue == "jug-gold" }?["milestone_streak_weeks"] == .null)
        #expect(fixture.get("/v1/me", as: member)["progress"]?["next_streak_milestone"]?["weeks"]?.intValue == 1)

        let meetup = try fixture.meetup(startsIn: 600)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let result = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host),
                                                         by: fixture.host.user.actorForTests)
        let rewardID = try #require(result.reward?.id)
        let reward = fixture.get("/v1/rewards/\(rewardID)", as: member)
        #expect(reward.status == 200)
        #expect(reward["streak_milestone"]?.intValue == 1)
        #expect(reward["hold"]?["id"]?.stringValue == "crimp-silver")
        let next = try #require(fixture.get("/v1/me", as: member)["progress"]?["next_streak_milestone"])
        #expect(next["weeks"]?.intValue == 3)
        #expect(next["hold_id"]?.stringValue == "sloper-emerald")
        #expect(next["remaining"]?.intValue == 2)
    }
}
