import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// Check-in refusals answer 409 or 422 with the domain's reason, and the render workers are
/// only woken by check-ins that happened.
@Suite struct CheckInRefusalTests {
    @Test func everyRefusalHasItsReason() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(capacity: 1, startsIn: 0)
        let (going, waiting, stranger) = (try fixture.member(), try fixture.member(), try fixture.member())
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: going).status == 201)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: waiting)["status"]?.stringValue == "waitlisted")
        let code = try fixture.currentCode(meetup)
        let path = "/v1/meetups/\(meetup.id)/check-in"

        func expectRefusal(_ response: APIResponse, _ status: Int, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(response.status == status, sourceLocation: sourceLocation)
            #expect(response["reason"]?.stringValue == reason, sourceLocation: sourceLocation)
            #expect(response.problemCode == reason, sourceLocation: sourceLocation)
            schemas.check(response, .post, "/v1/meetups/{id}/check-in", sourceLocation: sourceLocation)
        }
        expectRefusal(fixture.post(path, as: stranger, json: #"{"code": "\#(code)"}"#), 409, "not_attending")
        expectRefusal(fixture.post(path, as: waiting, json: #"{"code": "\#(code)"}"#), 409, "waitlisted")
        let wrong = code == "000000" ? "111111" : "000000"
        let bad = fixture.post(path, as: going, json: #"{"code": "\#(wrong)"}"#)
        expectRefusal(bad, 422, "bad_code")
        #expect(bad["field"]?.stringValue == "code")
        let offlineFuture = fixture.post(path, as: fixture.host, json: #"{"user_id": \#(going.id), "at": "2030-01-01T00:00:00+09:00"}"#)
        #expect(offlineFuture.status == 422)
        #expect(offlineFuture["field"]?.stringValue == "at")

        let first = fixture.post(path, as: going, json: #"{"code": "\#(code)"}"#, headers: [("Idempotency-Key", "k-1")])
        #expect(first.status == 201)
        // The same check-in retried with another code (it rotated meanwhile) is the first result;
        // the key on a different request is refused.
        let retried = fixture.post(path, as: going, json: #"{"code": "\#(wrong)"}"#, headers: [("Idempotency-Key", "k-1")])
        #expect(retried.status == 200)
        #expect(retried["attendance"]?["id"]?.intValue == first["attendance"]?["id"]?.intValue)
        let reused = fixture.post(path, as: going, json: #"{"user_id": \#(going.id)}"#, headers: [("Idempotency-Key", "k-1")])
        expectRefusal(reused, 422, "idempotency_key_reused")
        let alreadyIn = fixture.post(path, as: going, json: #"{"code": "\#(wrong)"}"#)
        #expect(alreadyIn.status == 200)
        #expect(alreadyIn.bytes == first.bytes)
        let badKey = fixture.post(path, as: going, json: #"{"code": "\#(code)"}"#, headers: [("Idempotency-Key", "has space")])
        #expect(badKey.status == 422)
        #expect(badKey["header"]?.stringValue == "Idempotency-Key")

        let later = try fixture.meetup(startsIn: 86_400 * 3)
        #expect(fixture.post("/v1/meetups/\(later.id)/join", as: stranger).status == 201)
        expectRefusal(fixture.post("/v1/meetups/\(later.id)/check-in", as: stranger, json: #"{"code": "\#(try fixture.currentCode(later))"}"#),
                      409, "window_not_open")
        #expect(fixture.post("/v1/meetups/\(later.id)/cancel", as: fixture.host).status == 200)
        expectRefusal(fixture.post("/v1/meetups/\(later.id)/check-in", as: stranger, json: #"{"code": "000000"}"#), 409, "meetup_cancelled")

        fixture.clock.advance(by: 86_400)
        expectRefusal(fixture.post(path, as: waiting, json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#), 409, "waitlisted")
        let metrics = String(decoding: fixture.get("/metrics", as: fixture.admin).bytes, as: UTF8.self)
        #expect(metrics.contains(#"belay_check_ins_total{reason="bad_code",result="refused"} 1"#))
        #expect(metrics.contains(#"belay_check_ins_total{reason="waitlisted",result="refused"} 2"#))
    }

    @Test func offlineCheckInByTheHostKeepsItsTime() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        fixture.clock.advance(by: 3_600)
        let at = RFC3339.string(from: APIFixture.start.addingTimeInterval(600), utcOffsetSeconds: 9 * 3600)
        let response = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.host, json: #"{"user_id": \#(member.id), "at": "\#(at)"}"#)
        #expect(response.status == 201)
        #expect(response["attendance"]?["check_in_method"]?.stringValue == "offline")
        #expect(response["attendance"]?["checked_in_at"]?.stringValue == at)
    }

    @Test func sharePayloadSaysWhyATargetIsUnavailable() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let rewardID = try #require(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member,
                                                 json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#)["reward"]?["id"]?.intValue)
        try fixture.renderJobs(count: 1)
        let share = fixture.get("/v1/rewards/\(rewardID)/share", as: member)
        schemas.check(share, .get, "/v1/rewards/{id}/share")
        for (target, setting) in [("instagram_stories", "instagram_app_id"), ("facebook_stories", "facebook_app_id")] {
            #expect(share[target]?["available"]?.boolValue == false)
            #expect(share[target]?["reason"]?.stringValue == "\(setting)_missing")
            #expect(share[target]?["detail"]?.stringValue?.contains("share.\(setting)") == true)
            #expect(share[target]?["url"] == .null)
            #expect(share[target]?["pasteboard"] == .null)
        }
        #expect(share["share_sheet"]?["available"]?.boolValue == true)
        #expect(share["share_sheet"]?["image_url"]?.stringValue?.hasPrefix("https://api.belay.example/v1/rewards/\(rewardID)/story/") == true)
        #expect(share["images"]?["sticker"]?["url"]?.stringValue != nil)

        // Undoing the check-in revokes the reward: nothing can be shared any more.
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        let revoked = fixture.get("/v1/rewards/\(rewardID)/share", as: member)
        schemas.check(revoked, .get, "/v1/rewards/{id}/share")
        #expect(revoked["share_sheet"]?["available"]?.boolValue == false)
        #expect(revoked["instagram_stories"]?["reason"]?.stringValue == "reward_revoked")
    }

    @Test func storiesGetOnlyTheColoursWhenConfiguredSo() throws {
        let fixture = try APIFixture(settings: ["share": ["instagram_app_id": "1234567890", "stories_background": "colors"]])
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let rewardID = try #require(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member,
                                                 json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#)["reward"]?["id"]?.intValue)
        try fixture.renderJobs(count: 1)
        let share = fixture.get("/v1/rewards/\(rewardID)/share", as: member)
        schemas.check(share, .get, "/v1/rewards/{id}/share")
        let instagram = try #require(share["instagram_stories"])
        #expect(instagram["available"]?.boolValue == true)
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.stickerImage"]?.stringValue != nil)
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.backgroundImage"] == nil, "no background image, only colours")
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.backgroundTopColor"]?.stringValue != nil)
        #expect(instagram["android"]?["background_asset_uri"] == .null)
        #expect(instagram["android"]?["files"]?.arrayValue?.count == 1)
        #expect(share["images"]?["stories_background"] == nil)
        #expect(share["images"]?["story"]?["url"]?.stringValue != nil, "the composite stays for the share sheet")
    }
}
