import BelayCore
import BelayAPI
import BelayDomain
import Foundation
import Testing

/// Between its sticker and its story a reward is ready to share to Stories, and every answer
/// says the story is on its way.
@Suite struct StoryFollowsTests {
    /// A member who joined a meetup and checked in, and the id of the reward they earned.
    static func checkedIn(_ fixture: APIFixture) throws -> (APIFixture.Member, Int64) {
        let ana = try fixture.member()
        let meetup = try fixture.meetup()
        _ = fixture.post("/v1/meetups/\(meetup.id)/join", as: ana)
        fixture.clock.advance(by: 900)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: ana, json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        return (ana, rewardID)
    }

    @Test func aRewardWithItsStickerAloneCanBeSharedToStoriesAndSaysWhenToAskForTheStory() throws {
        let fixture = try APIFixture(settings: ["share": ["instagram_app_id": "1234567890"]])
        let schemas = try SchemaConformance(fixture)
        let (ana, rewardID) = try Self.checkedIn(fixture)

        // A worker records the sticker; the story is left for the job's next step.
        let queue = fixture.domain.renderJobs
        let job = try #require(try queue.claim(owner: "test:1:render").first)
        let sticker = String(repeating: "5", count: 64), story = String(repeating: "7", count: 64)
        try queue.complete(jobID: job.id, owner: "test:1:render", output: RenderOutput(
            stickerHash: sticker, stickerPath: "images/55/\(sticker).png", storyHash: nil, storyPath: nil, templateVersion: 1))

        let reward = fixture.get("/v1/rewards/\(rewardID)", as: ana)
        schemas.check(reward, .get, "/v1/rewards/{id}")
        #expect(reward["render_status"]?.stringValue == "ready")
        #expect(reward["images"]?["sticker"]?["hash"]?.stringValue == sticker)
        #expect(reward["images"]?["story"] == .null)
        #expect(reward["retry_after_seconds"]?.intValue == 2)

        let share = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        schemas.check(share, .get, "/v1/rewards/{id}/share")
        #expect(share["ready_images"]?.arrayValue?.compactMap(\.stringValue) == ["sticker"])
        #expect(share["retry_after_seconds"]?.intValue == 2)
        #expect(share["instagram_stories"]?["available"]?.boolValue == true, "Stories need only the sticker and colours")
        #expect(share["images"]?["story"] == .null)
        #expect(share["share_sheet"]?["available"]?.boolValue == true)
        #expect(share["share_sheet"]?["image_url"] == .null)
        #expect(share["share_sheet"]?["detail"]?.stringValue?.contains("still being rendered") == true)

        let pendingStory = fixture.get("/v1/rewards/\(rewardID)/story/\(story).png", as: ana)
        #expect(pendingStory.status == 202)
        #expect(pendingStory.headers["Retry-After"] == "2")

        // The story step: claimed after the sticker, recorded, and everything is whole.
        let storyJob = try #require(try queue.claim(owner: "test:1:render").first)
        #expect(storyJob.id == job.id && storyJob.storyOnly)
        try queue.completeStory(jobID: storyJob.id, owner: "test:1:render", storyHash: story, storyPath: "images/77/\(story).png")
        let whole = fixture.get("/v1/rewards/\(rewardID)/share", as: ana)
        schemas.check(whole, .get, "/v1/rewards/{id}/share")
        #expect(whole["ready_images"]?.arrayValue?.compactMap(\.stringValue) == ["sticker", "story"])
        #expect(whole["retry_after_seconds"] == .null)
        #expect(whole["share_sheet"]?["image_url"]?.stringValue?.hasSuffix("/v1/rewards/\(rewardID)/story/\(story).png") == true)
        #expect(whole["share_sheet"]?["detail"] == .null)
        #expect(try queue.job(id: job.id).status == .done)
    }

    /// The sticker's request reads the reward once a moment per reader; the story that follows
    /// must not be answered from that reading, which had no story yet.
    @Test func theStoryIsServedOnceStoredEvenRightAfterItsStickerWasAskedFor() throws {
        let fixture = try APIFixture(responseCacheLifetime: .seconds(60))
        let (ana, rewardID) = try Self.checkedIn(fixture)
        let sticker = "55" + String(repeating: "5", count: 62), story = "77" + String(repeating: "7", count: 62)
        let images = URL(fileURLWithPath: fixture.directory.file("data")).appendingPathComponent("images")
        for (hash, bytes) in [(sticker, "sticker bytes"), (story, "story bytes")] {
            let folder = images.appendingPathComponent(String(hash.prefix(2)))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes.utf8).write(to: folder.appendingPathComponent("\(hash).png"))
        }

        let queue = fixture.domain.renderJobs
        let job = try #require(try queue.claim(owner: "test:1:render").first)
        try queue.complete(jobID: job.id, owner: "test:1:render", output: RenderOutput(
            stickerHash: sticker, stickerPath: "images/55/\(sticker).png", storyHash: nil, storyPath: nil, templateVersion: 1))
        let stickerImage = fixture.get("/v1/rewards/\(rewardID)/sticker/\(sticker).png", as: ana)
        #expect(stickerImage.status == 200)
        #expect(fixture.get("/v1/rewards/\(rewardID)/story/\(story).png", as: ana).status == 202)

        let storyJob = try #require(try queue.claim(owner: "test:1:render").first)
        try queue.completeStory(jobID: storyJob.id, owner: "test:1:render", storyHash: story, storyPath: "images/77/\(story).png")
        let storyImage = fixture.get("/v1/rewards/\(rewardID)/story/\(story).png", as: ana)
        #expect(storyImage.status == 200, "the story was answered from the reading made for the sticker")
        #expect(storyImage.bytes == Array("story bytes".utf8))
        #expect(fixture.get("/v1/rewards/\(rewardID)/sticker/\(sticker).png", as: ana).status == 200)
    }
}
