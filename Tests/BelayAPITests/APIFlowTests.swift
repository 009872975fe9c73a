import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// The app's whole story through the router, every answer checked against the OpenAPI document.
@Suite struct APIFlowTests {
    @Test func meetupJoinWaitlistLeaveCheckInRewardImagesShareAndStatistics() throws {
        let fixture = try APIFixture(settings: ["share": ["instagram_app_id": "1234567890", "facebook_app_id": "998877"]])
        let schemas = try SchemaConformance(fixture)
        let (ana, bo, chan) = (try fixture.member(), try fixture.member(), try fixture.member())

        // The host creates a meetup starting in ten minutes, with room for two.
        let starts = RFC3339.string(from: APIFixture.start.addingTimeInterval(600), utcOffsetSeconds: 9 * 3600)
        let ends = RFC3339.string(from: APIFixture.start.addingTimeInterval(7_800), utcOffsetSeconds: 9 * 3600)
        let created = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "Friday bouldering", "place_name": "더클라임 강남", "starts_at": "\(starts)", "ends_at": "\(ends)",
             "time_zone": "Asia/Seoul", "capacity": 2, "address": "Seoul"}
            """)
        #expect(created.status == 201)
        schemas.check(created, .post, "/v1/meetups")
        let meetupID = try #require(created["id"]?.intValue)
        #expect(created.headers["Location"] == "/v1/meetups/\(meetupID)")
        #expect(created["starts_at"]?.stringValue == starts)
        #expect(created["host_id"]?.intValue == fixture.host.id)

        let listed = fixture.get("/v1/meetups?limit=50", as: ana)
        schemas.check(listed, .get, "/v1/meetups")
        #expect(listed["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [meetupID])
        #expect(listed["next_cursor"] == .null)

        // Two join and are going; the third is waitlisted.
        for member in [ana, bo] {
            let joined = fixture.post("/v1/meetups/\(meetupID)/join", as: member)
            #expect(joined.status == 201)
            #expect(joined["status"]?.stringValue == "going")
            schemas.check(joined, .post, "/v1/meetups/{id}/join")
        }
        let waitlisted = fixture.post("/v1/meetups/\(meetupID)/join", as: chan)
        #expect(waitlisted["status"]?.stringValue == "waitlisted")
        #expect(waitlisted["waitlist_position"]?.intValue == 1)
        let again = fixture.post("/v1/meetups/\(meetupID)/join", as: chan)
        #expect(again.status == 200)
        #expect(again.bytes == waitlisted.bytes)

        let meetup = fixture.get("/v1/meetups/\(meetupID)", as: chan)
        schemas.check(meetup, .get, "/v1/meetups/{id}")
        #expect(meetup["going_count"]?.intValue == 2)
        #expect(meetup["waitlist_count"]?.intValue == 1)
        #expect(meetup["places_left"]?.intValue == 0)

        // Bo leaves: Chan is promoted in the same transaction.
        let left = fixture.post("/v1/meetups/\(meetupID)/leave", as: bo)
        #expect(left.status == 200)
        schemas.check(left, .post, "/v1/meetups/{id}/leave")
        #expect(left["attendance"]?["status"]?.stringValue == "cancelled")
        #expect(left["promoted_count"]?.intValue == 1)
        let promoted = fixture.get("/v1/meetups/\(meetupID)/attendance", as: chan)
        schemas.check(promoted, .get, "/v1/meetups/{id}/attendance")
        #expect(promoted["status"]?.stringValue == "going")

        let attendees = fixture.get("/v1/meetups/\(meetupID)/attendees?status=going", as: fixture.host)
        schemas.check(attendees, .get, "/v1/meetups/{id}/attendees")
        #expect(attendees["items"]?.arrayValue?.compactMap { $0["handle"]?.stringValue }.sorted() == [ana.user.handle, chan.user.handle].sorted())

        // On the day: the host shows the code, Ana types it.
        fixture.clock.advance(by: 900)
        let code = fixture.get("/v1/meetups/\(meetupID)/check-in-code", as: fixture.host)
        schemas.check(code, .get, "/v1/meetups/{id}/check-in-code")
        let digits = try #require(code["code"]?.stringValue)
        let checkIn = fixture.post("/v1/meetups/\(meetupID)/check-in", as: ana, json: #"{"code": "\#(digits)"}"#,
                                   headers: [("Idempotency-Key", "ana-checkin-1")])
        #expect(checkIn.status == 201)
        schemas.check(checkIn, .post, "/v1/meetups/{id}/check-in")
        #expect(checkIn["attendance"]?["status"]?.stringValue == "checked_in")
        let reward = try #require(checkIn["reward"])
        let rewardID = try #require(reward["id"]?.intValue)
        #expect(reward["render_status"]?.stringValue == "pending")
        #expect(reward["images"] == .null)
        #expect(reward["retry_after_seconds"]?.intValue == 2)
        #expect(reward["milestone"]?.intValue == 1)

        let repeated = fixture.post("/v1/meetups/\(meetupID)/check-in", as: ana, json: #"{"code": "\#(digits)"}"#,
                                    headers: [("Idempotency-Key", "ana-checkin-1")])
        #expect(repeated.status == 200)
        #expect(repeated.bytes == checkIn.bytes)

        // While the render is pending the image URL answers 202 and the share payload says so.
        let pendingImage = fixture.get("/v1/rewards/\(rewardID)/sticker/\(String(repeating: "a", count: 64)).png", as: ana)
        #expect(pendingImage.status == 202)
        #expect(pendingImage.headers["Retry-After"] == "2")
        schemas.check(pendingImage, .get, "/v1/rewards/{id}/sticker/{hash}.png")
        let pendingShare = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        schemas.check(pendingShare, .get, "/v1/rewards/{id}/share")
        #expect(pendingShare["instagram_stories"]?["available"]?.boolValue == false)
        #expect(pendingShare["instagram_stories"]?["reason"]?.stringValue == "render_pending")

        // The render workers pick the job up; the reward is ready with content-addressed URLs.
        try fixture.renderJobs(count: 1)
        let ready = fixture.get("/v1/rewards/\(rewardID)", as: ana)
        schemas.check(ready, .get, "/v1/rewards/{id}")
        #expect(ready["render_status"]?.stringValue == "ready")
        let stickerURL = try #require(ready["images"]?["sticker"]?["url"]?.stringValue)
        let stickerHash = try #require(ready["images"]?["sticker"]?["hash"]?.stringValue)
        #expect(stickerURL == "https://api.belay.example/v1/rewards/\(rewardID)/sticker/\(stickerHash).png")
        let stickerPath = String(stickerURL.dropFirst("https://api.belay.example".count))

        let sticker = fixture.get(stickerPath, as: ana)
        #expect(sticker.status == 200)
        schemas.check(sticker, .get, "/v1/rewards/{id}/sticker/{hash}.png")
        #expect(sticker.contentType == "image/png")
        #expect(sticker.headers["ETag"] == "\"\(stickerHash)\"")
        #expect(sticker.headers["Cache-Control"] == "private, max-age=31536000, immutable")
        #expect(String(decoding: sticker.bytes, as: UTF8.self).hasPrefix("PNG sticker|"))
        let notModified = fixture.get(stickerPath, as: ana, headers: [("If-None-Match", "\"\(stickerHash)\"")])
        #expect(notModified.status == 304)
        #expect(notModified.bytes.isEmpty)
        #expect(notModified.headers["ETag"] == "\"\(stickerHash)\"")
        schemas.check(notModified, .get, "/v1/rewards/{id}/sticker/{hash}.png")
        let storyURL = try #require(ready["images"]?["story"]?["url"]?.stringValue)
        let story = fixture.get(String(storyURL.dropFirst("https://api.belay.example".count)), as: ana)
        #expect(story.status == 200)
        #expect(String(decoding: story.bytes, as: UTF8.self).hasPrefix("PNG story|"))

        let rewards = fixture.get("/v1/me/rewards", as: ana)
        schemas.check(rewards, .get, "/v1/me/rewards")
        #expect(rewards["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [rewardID])

        // The share payload: Instagram and Facebook Stories with the reward's colours, the share sheet.
        let share = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        schemas.check(share, .get, "/v1/rewards/{id}/share")
        let top = try #require(ready["background"]?["top_color"]?.stringValue)
        let bottom = try #require(ready["background"]?["bottom_color"]?.stringValue)
        let instagram = try #require(share["instagram_stories"])
        #expect(instagram["available"]?.boolValue == true)
        #expect(instagram["url"]?.stringValue == "instagram-stories://share?source_application=1234567890")
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.stickerImage"]?.stringValue == stickerURL)
        // The Stories background layer is the gradient alone, never the composite story (the
        // composer draws the sticker layer on top itself).
        let backgroundURL = try #require(share["images"]?["stories_background"]?["url"]?.stringValue)
        #expect(backgroundURL != storyURL && backgroundURL.contains("/stories-background/"))
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.backgroundImage"]?.stringValue == backgroundURL)
        #expect(instagram["android"]?["background_asset_uri"]?.stringValue == backgroundURL)
        #expect(instagram["android"]?["content_uri_provider"]?.stringValue == "FileProvider")
        let files = instagram["android"]?["files"]?.arrayValue ?? []
        #expect(files.map { $0["part"]?.stringValue } == ["interactive_asset_uri", "background_asset_uri"])
        #expect(files.map { $0["mime_type"]?.stringValue } == ["image/png", "image/png"])
        #expect(files.map { $0["url"]?.stringValue } == [stickerURL, backgroundURL])
        let background = fixture.get(String(backgroundURL.dropFirst("https://api.belay.example".count)), as: ana)
        #expect(background.status == 200 && background.headers["Content-Type"] == "image/png")
        #expect(background.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        schemas.check(background, .get, "/v1/rewards/{id}/stories-background/{hash}.png")
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.backgroundTopColor"]?.stringValue == top)
        #expect(instagram["pasteboard"]?["com.instagram.sharedSticker.backgroundBottomColor"]?.stringValue == bottom)
        #expect(instagram["pasteboard_expiration_seconds"]?.intValue == 300)
        #expect(instagram["android"]?["action"]?.stringValue == "com.instagram.share.ADD_TO_STORY")
        #expect(instagram["android"]?["extras"]?["interactive_asset_uri"]?.stringValue == stickerURL)
        #expect(instagram["android"]?["extras"]?["top_background_color"]?.stringValue == top)
        #expect(instagram["android"]?["extras"]?["bottom_background_color"]?.stringValue == bottom)
        #expect(instagram["android"]?["extras"]?["source_application"]?.stringValue == "1234567890")
        let facebook = try #require(share["facebook_stories"])
        #expect(facebook["url"]?.stringValue == "facebook-stories://share?source_application=998877")
        #expect(facebook["pasteboard"]?["com.facebook.sharedSticker.appID"]?.stringValue == "998877")
        #expect(facebook["android"]?["extras"]?["com.facebook.platform.extra.APPLICATION_ID"]?.stringValue == "998877")
        #expect(share["share_sheet"]?["image_url"]?.stringValue == storyURL)
        // Asking for the payload publishes nothing: the member publishes the page on purpose.
        #expect(share["share_sheet"]?["link"] == .null)
        #expect(share["share_sheet"]?["page_published"]?.boolValue == false)
        let publishURL = try #require(share["share_sheet"]?["publish_url"]?.stringValue)
        #expect(publishURL == "https://api.belay.example/v1/rewards/\(rewardID)/share-page")
        let published = fixture.post(String(publishURL.dropFirst("https://api.belay.example".count)), as: ana)
        #expect(published.status == 201)
        schemas.check(published, .post, "/v1/rewards/{id}/share-page")
        let link = try #require(published["url"]?.stringValue)
        #expect(link.hasPrefix("https://api.belay.example/s/"))
        #expect(link.count == "https://api.belay.example/s/".count + 22)
        let sharedNow = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        schemas.check(sharedNow, .get, "/v1/rewards/{id}/share")
        #expect(sharedNow["share_sheet"]?["link"]?.stringValue == link)
        #expect(sharedNow["share_sheet"]?["page_published"]?.boolValue == true)
        #expect(sharedNow["share_sheet"]?["publish_url"] == .null)
        #expect(share["share_sheet"]?["text"]?.stringValue?.contains("더클라임 강남") == true)

        // Share events, deduplicated by client event id.
        let event = #"{"target": "instagram_stories", "activity_type": null, "completed": true, "client_event_id": "evt-1"}"#
        let recorded = fixture.post("/v1/rewards/\(rewardID)/share-events", as: ana, json: event)
        #expect(recorded.status == 201)
        schemas.check(recorded, .post, "/v1/rewards/{id}/share-events")
        let duplicate = fixture.post("/v1/rewards/\(rewardID)/share-events", as: ana, json: event)
        #expect(duplicate.status == 200)
        #expect(duplicate["id"] == recorded["id"])
        let sheet = fixture.post("/v1/rewards/\(rewardID)/share-events", as: ana, json: """
            {"activity_type": "com.apple.UIKit.activity.SaveToCameraRoll", "completed": false, "error": "cancelled", "client_event_id": "evt-2"}
            """)
        #expect(sheet.status == 201)
        #expect(sheet["target"]?.stringValue == "share_sheet")

        let statistics = fixture.get("/v1/stats/shares?meetup_id=\(meetupID)", as: fixture.host)
        #expect(statistics.status == 200)
        schemas.check(statistics, .get, "/v1/stats/shares")
        let rows = try #require(statistics["items"]?.arrayValue)
        #expect(rows.compactMap { $0["target"]?.stringValue }.sorted() == ["instagram_stories", "share_sheet"])
        #expect(rows.compactMap { $0["events"]?.intValue } == [1, 1])
        #expect(rows.first { $0["target"]?.stringValue == "share_sheet" }?["failed"]?.intValue == 1)
        let byMeetup = fixture.get("/v1/stats/shares?meetup_id=\(meetupID)&by=meetup", as: fixture.host)
        schemas.check(byMeetup, .get, "/v1/stats/shares")
        let meetupRows = try #require(byMeetup["items"]?.arrayValue)
        #expect(meetupRows.count == 1)
        #expect(meetupRows.first?["events"]?.intValue == 2)
        #expect(meetupRows.first?["target"] == .null && meetupRows.first?["day"] == .null)
        let byTarget = try #require(fixture.get("/v1/stats/shares?by=target", as: fixture.host)["items"]?.arrayValue)
        #expect(byTarget.compactMap { $0["target"]?.stringValue } == ["instagram_stories", "share_sheet"])
        #expect(byTarget.allSatisfy { $0["meetup_id"] == .null })
        #expect(fixture.get("/v1/stats/shares?by=week", as: fixture.host)["parameter"]?.stringValue == "by")
        #expect(fixture.get("/v1/stats/shares?by=day&cursor=abc", as: fixture.host)["parameter"]?.stringValue == "cursor")

        // Collections, and what the admin sees in the metrics.
        let collection = fixture.get("/v1/me/collection.png?scale=3", as: ana)
        #expect(collection.status == 200)
        schemas.check(collection, .get, "/v1/me/collection.png")
        let etag = try #require(collection.headers["ETag"])
        #expect(fixture.get("/v1/me/collection.png?scale=3", as: ana, headers: [("If-None-Match", etag)]).status == 304)
        let metrics = fixture.get("/metrics", as: fixture.admin)
        #expect(metrics.status == 200)
        let text = String(decoding: metrics.bytes, as: UTF8.self)
        #expect(text.contains(#"http_requests_total{method="POST",route="/v1/meetups/{id}/check-in",status="201"} 1"#))
        #expect(text.contains(#"belay_check_ins_total{reason="",result="created"} 1"#))
        #expect(text.contains(#"belay_check_ins_total{reason="",result="repeated"} 1"#))
        #expect(text.contains(#"belay_share_events_total{result="recorded",target="instagram_stories"} 1"#))
        #expect(text.contains(#"belay_share_events_total{result="duplicate",target="instagram_stories"} 1"#))
        #expect(text.contains(#"belay_render_queue_jobs{state="done"} 1"#))
        #expect(text.contains(#"belay_render_jobs_total{outcome="completed"} 1"#))
        #expect(text.contains("http_request_duration_seconds_bucket"))
    }

    @Test func listsPageWithCursors() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let ids = try (0..<5).map { try fixture.meetup(startsIn: 600 + Double($0) * 3_600).id }
        var seen: [Int64] = []
        var cursor: String?
        repeat {
            let page = fixture.get("/v1/meetups?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), as: fixture.host)
            #expect(page.status == 200)
            schemas.check(page, .get, "/v1/meetups")
            seen += page["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            cursor = page["next_cursor"]?.stringValue
        } while cursor != nil && seen.count < 10
        #expect(seen == ids)

        let bad = fixture.get("/v1/meetups?cursor=bm90LWEtY3Vyc29y", as: fixture.host)
        #expect(bad.status == 400)
        #expect(bad.problemCode == "invalid_cursor")
        #expect(bad["parameter"]?.stringValue == "cursor")
        schemas.check(bad, .get, "/v1/meetups")
        #expect(fixture.get("/v1/meetups?limit=0", as: fixture.host).problemCode == "invalid_query_parameter")
        #expect(fixture.get("/v1/meetups?limit=201", as: fixture.host).problemCode == "invalid_query_parameter")
        #expect(fixture.get("/v1/meetups?scope=soon", as: fixture.host)["parameter"]?.stringValue == "scope")
        #expect(fixture.get("/v1/stats/shares?cursor=zzz", as: fixture.admin).problemCode == "invalid_cursor")
    }
}
