import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The public page of a shared reward: published and taken down by its member on purpose,
/// safe to open anywhere, unfolding into a preview, and gone when the reward is.
@Suite struct SharePageTests {
    /// A member with a checked-in, rendered reward at `place`.
    func checkedInReward(_ fixture: APIFixture, place: String = "더클라임 강남점") throws -> (member: APIFixture.Member, rewardID: Int64) {
        let meetup = try fixture.meetup(startsIn: 0, place: place)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: fixture.host, json: #"{"user_id": \#(member.id)}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        try fixture.renderJobs(count: 1)
        return (member, rewardID)
    }

    /// A member's rendered reward at `place` whose page they published, and the page's link.
    func sharedReward(_ fixture: APIFixture, place: String = "더클라임 강남점") throws -> (member: APIFixture.Member, rewardID: Int64, link: String) {
        let (member, rewardID) = try checkedInReward(fixture, place: place)
        let published = fixture.post("/v1/rewards/\(rewardID)/share-page", as: member)
        #expect(published.status == 201)
        let link = try #require(published["url"]?.stringValue)
        return (member, rewardID, link)
    }

    func path(_ link: String) -> String { String(link.dropFirst("https://api.belay.example".count)) }

    func html(_ response: APIResponse) -> String { String(decoding: response.bytes, as: UTF8.self) }

    @Test func readingThePayloadPublishesNothingAndOnlyTheMemberPublishes() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let (member, rewardID) = try checkedInReward(fixture)
        // Asked for by the member and by the host, the payload names no page and makes none.
        for caller in [member, fixture.host] {
            let share = fixture.get("/v1/rewards/\(rewardID)/share", as: caller)
            #expect(share["share_sheet"]?["link"] == .null)
            #expect(share["share_sheet"]?["page_published"]?.boolValue == false)
        }
        #expect(fixture.get("/v1/rewards/\(rewardID)/share", as: member)["share_sheet"]?["publish_url"]?.stringValue
                == "https://api.belay.example/v1/rewards/\(rewardID)/share-page")
        #expect(fixture.get("/v1/rewards/\(rewardID)/share", as: fixture.host)["share_sheet"]?["publish_url"] == .null)
        #expect(try fixture.domain.sharePages.slug(for: try fixture.domain.rewards.reward(id: rewardID)) == nil)

        // Only the member publishes; the host may read the reward but not publish it.
        let byHost = fixture.post("/v1/rewards/\(rewardID)/share-page", as: fixture.host)
        #expect(byHost.status == 403)
        schemas.check(byHost, .post, "/v1/rewards/{id}/share-page")
        let stranger = try fixture.member()
        #expect(fixture.post("/v1/rewards/\(rewardID)/share-page", as: stranger).status == 404)

        let first = fixture.post("/v1/rewards/\(rewardID)/share-page", as: member)
        #expect(first.status == 201)
        schemas.check(first, .post, "/v1/rewards/{id}/share-page")
        let link = try #require(first["url"]?.stringValue)
        let slug = String(link.split(separator: "/").last ?? "")
        #expect(slug.count == 22)
        #expect(first["shows_name"]?.boolValue == false, "a new member's name is off until they turn it on")
        let again = fixture.post("/v1/rewards/\(rewardID)/share-page", as: member)
        #expect(again.status == 200, "publishing twice is harmless")
        schemas.check(again, .post, "/v1/rewards/{id}/share-page")
        #expect(again["url"]?.stringValue == link)
        #expect(fixture.get("/v1/rewards/\(rewardID)/share", as: member)["share_sheet"]?["link"]?.stringValue == link)
        #expect(fixture.get("/v1/rewards/\(rewardID)/share", as: fixture.host)["share_sheet"]?["link"]?.stringValue == link)
        #expect(fixture.get(path(link)).status == 200)

        // A revoked reward is not published.
        let (other, otherReward) = try checkedInReward(fixture)
        let reward = try fixture.domain.rewards.reward(id: otherReward)
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: reward.meetupID, memberID: other.id, by: .commandLine)
        let revoked = fixture.post("/v1/rewards/\(otherReward)/share-page", as: other)
        #expect(revoked.status == 409)
        #expect(revoked.problemCode == "reward_revoked")
        schemas.check(revoked, .post, "/v1/rewards/{id}/share-page")
    }

    @Test func theMemberTakesThePageDownAndItIsGoneForGood() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let (member, rewardID, link) = try sharedReward(fixture)
        #expect(fixture.get(path(link)).status == 200)
        #expect(fixture.send(.delete, "/v1/rewards/\(rewardID)/share-page", token: fixture.host.token).status == 403,
                "the host may read the reward but not take its page down")
        let removed = fixture.send(.delete, "/v1/rewards/\(rewardID)/share-page", token: member.token)
        #expect(removed.status == 204)
        schemas.check(removed, .delete, "/v1/rewards/{id}/share-page")
        let gone = fixture.get(path(link))
        #expect(gone.status == 410)
        #expect(html(gone).contains("공유한 사람이 이 페이지를 내렸어요"))
        #expect(!html(gone).contains("Gold Jug"))
        #expect(fixture.get(path(link) + "/card.png").status == 410)
        #expect(fixture.get(path(link) + "/sticker.png")["code"]?.stringValue == "share_page_unpublished")
        #expect(fixture.send(.delete, "/v1/rewards/\(rewardID)/share-page", token: member.token).status == 204, "twice is harmless")
        let share = fixture.get("/v1/rewards/\(rewardID)/share", as: member)
        #expect(share["share_sheet"]?["link"] == .null)
        #expect(share["share_sheet"]?["page_published"]?.boolValue == false)

        // Published again: a new link; the old one stays gone.
        let republished = fixture.post("/v1/rewards/\(rewardID)/share-page", as: member)
        #expect(republished.status == 201)
        let newLink = try #require(republished["url"]?.stringValue)
        #expect(newLink != link)
        #expect(fixture.get(path(newLink)).status == 200)
        #expect(fixture.get(path(link)).status == 410)

        // An admin may take a page down too.
        #expect(fixture.send(.delete, "/v1/rewards/\(rewardID)/share-page", token: fixture.admin.token).status == 204)
        #expect(fixture.get(path(newLink)).status == 410)
    }

    @Test func thePageShowsWhatWasSharedInTheClubsLanguageWithPreviewTags() throws {
        let fixture = try APIFixture()
        let (_, _, link) = try sharedReward(fixture)
        let page = fixture.get(path(link))
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        let text = html(page)
        #expect(text.contains("<html lang=\"ko\">"))
        #expect(text.contains("더클라임 강남점"))
        #expect(text.contains("Gold Jug"))
        #expect(text.contains("2026년"))
        #expect(text.contains("Belay Climbing Club"))
        #expect(!text.contains("Member "), "a new member's name is not shown until they turn it on")
        #expect(!text.contains("<script"))
        #expect(!text.contains("member1"), "the handle is not shown")
        for tag in ["og:title", "og:description", "og:image", "og:image:width", "og:image:height", "og:image:type", "og:image:alt", "og:url"] {
            #expect(text.contains("<meta property=\"\(tag)\" content=\""), "\(tag)")
        }
        #expect(text.contains("<meta property=\"og:image\" content=\"\(link)/card.png\">"))
        #expect(text.contains("<meta property=\"og:image:width\" content=\"1200\">"))
        #expect(text.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(page.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
        #expect(page.headers["Content-Security-Policy"]?.contains("script-src") == false)
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["Referrer-Policy"] != nil)
        #expect(page.headers["Cache-Control"] == "public, max-age=30")
        let etag = try #require(page.headers["ETag"])
        #expect(fixture.get(path(link), headers: [("If-None-Match", etag)]).status == 304)
        #expect(fixture.get(SharePageDocumentPaths.stylesheet).status == 200)
    }

    @Test func everyValueIsEscaped() throws {
        let fixture = try APIFixture()
        let (_, _, link) = try sharedReward(fixture, place: "<script>alert(1)</script> & \"Gym\"")
        let text = html(fixture.get(path(link)))
        #expect(!text.contains("<script>"))
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Gym&quot;"))
    }

    @Test func theCardIsA1200x630PNGCachedByContent() throws {
        let fixture = try APIFixture()
        let (_, _, link) = try sharedReward(fixture)
        let card = fixture.get(path(link) + "/card.png")
        #expect(card.status == 200)
        #expect(card.contentType == "image/png")
        let file = fixture.directory.file("card.png")
        try Data(card.bytes).write(to: URL(fileURLWithPath: file))
        let size = try #require(PNGFile.dimensions(atPath: file))
        #expect(size.width == 1200 && size.height == 630)
        let etag = try #require(card.headers["ETag"])
        #expect(fixture.get(path(link) + "/card.png", headers: [("If-None-Match", etag)]).status == 304)
        #expect(fixture.get(path(link) + "/card.png").bytes == card.bytes)
        #expect(fixture.get(path(link) + "/sticker.png").status == 200)
    }

    @Test func aRevokedRewardIsGoneAndAnUnknownLinkIsNotFound() throws {
        let fixture = try APIFixture()
        let (member, rewardID, link) = try sharedReward(fixture)
        let reward = try fixture.domain.rewards.reward(id: rewardID)
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: reward.meetupID, memberID: member.id, by: .commandLine)
        let gone = fixture.get(path(link))
        #expect(gone.status == 410)
        #expect(gone.contentType == "text/html; charset=utf-8")
        #expect(html(gone).contains("lang=\"ko\""))
        #expect(!html(gone).contains("Gold Jug"))
        #expect(fixture.get(path(link) + "/card.png").status == 410)
        #expect(fixture.get(path(link) + "/sticker.png").status == 410)

        let unknown = fixture.get("/s/" + String(repeating: "Q", count: 22))
        #expect(unknown.status == 404)
        #expect(unknown.contentType == "text/html; charset=utf-8")
        #expect(html(unknown).contains("페이지를 찾을 수 없어요"))
        #expect(fixture.get("/s/not-a-slug").status == 404)
    }

    @Test func aNewMembersNameShowsOnlyOnceTheyTurnItOn() throws {
        let fixture = try APIFixture()
        let (member, _, link) = try sharedReward(fixture)
        #expect(fixture.get("/v1/me/share-preferences", as: member)["show_name_on_share_pages"]?.boolValue == false)
        var text = html(fixture.get(path(link)))
        #expect(!text.contains(member.user.displayName))
        #expect(text.contains("Belay Climbing Club에서 획득한 홀드"))
        let on = fixture.send(.put, "/v1/me/share-preferences", token: member.token, json: #"{"show_name_on_share_pages": true}"#)
        #expect(on.status == 200)
        #expect(on["show_name_on_share_pages"]?.boolValue == true)
        #expect(html(fixture.get(path(link))).contains(member.user.displayName))
        let off = fixture.send(.put, "/v1/me/share-preferences", token: member.token, json: #"{"show_name_on_share_pages": false}"#)
        #expect(off["show_name_on_share_pages"]?.boolValue == false)
        text = html(fixture.get(path(link)))
        #expect(!text.contains(member.user.displayName))
        #expect(fixture.send(.put, "/v1/me/share-preferences", token: member.token, json: #"{"show_name_on_share_pages": null}"#).status == 422)
    }

    @Test func appLinkFilesFollowTheConfiguration() throws {
        let unconfigured = try APIFixture()
        #expect(unconfigured.get("/.well-known/apple-app-site-association").status == 404)
        #expect(unconfigured.get("/.well-known/assetlinks.json").status == 404)

        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        let fixture = try APIFixture(settings: ["app_links": [
            "ios_app_ids": "A1B2C3D4E5.club.belay.app", "android_package": "club.belay.app",
            "android_sha256_fingerprints": fingerprint, "app_store_url": "https://apps.apple.com/app/id123",
        ]])
        let apple = fixture.get("/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        #expect(apple.contentType == "application/json")
        let details = try #require(apple["applinks"]?["details"]?.arrayValue?.first)
        #expect(details["appIDs"]?.arrayValue?.first?.stringValue == "A1B2C3D4E5.club.belay.app")
        #expect(details["components"]?.arrayValue?.first?["/"]?.stringValue == "/s/*")
        let android = fixture.get("/.well-known/assetlinks.json")
        #expect(android.status == 200)
        let statement = try #require(android.json?.arrayValue?.first)
        #expect(statement["target"]?["package_name"]?.stringValue == "club.belay.app")
        #expect(statement["target"]?["sha256_cert_fingerprints"]?.arrayValue?.first?.stringValue == fingerprint)
        let (_, _, link) = try sharedReward(fixture)
        #expect(html(fixture.get(path(link))).contains("href=\"https://apps.apple.com/app/id123\""))
    }
}

/// Paths of the share pages' own files.
enum SharePageDocumentPaths {
    static let stylesheet = "/assets/share-page.css"
}
