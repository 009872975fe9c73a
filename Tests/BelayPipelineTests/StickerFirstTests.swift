import BelayCore
import BelayDomain
@testable import BelayPipeline
import BelayRender
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// A reward is ready to share as soon as its sticker is stored; its story follows, and
/// stickers that differ only in their credential are drawn once.
@Suite struct StickerFirstTests {
    /// Runs one job through the server workers' two halves (sticker first).
    private func runAsServer(_ fixture: PipelineFixture, service: RenderService? = nil, _ job: RenderJob,
                             _ worker: RenderWorkerContext) -> RenderJobReport {
        let service = service ?? fixture.service
        switch service.prepare(job, in: worker, storyLater: true) {
        case let .finished(report): return report
        case let .rendered(prepared): return service.commit(prepared)
        }
    }

    @Test func theStickerIsRecordedFirstAndTheStoryFollowsAfterEveryWaitingSticker() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        #expect(!job.storyOnly)

        let first = runAsServer(fixture, job, worker)
        #expect(first.outcome == .stickerStored(rewardID: job.rewardID, renderedImages: 1, reusedImages: 0))
        let ready = try fixture.domain.rewards.reward(id: job.rewardID)
        #expect(ready.renderStatus == .ready, "shareable as soon as the sticker is stored")
        let images = try #require(ready.images)
        #expect(fixture.fileExists(images.stickerPath))
        #expect(images.storyHash == nil && images.storyPath == nil)
        #expect(try fixture.domain.renderJobs.job(id: job.id).status == .queued)

        // A check-in after it: its sticker is claimed before the first reward's story.
        try fixture.history(meetups: 1, members: 1, place: { _ in "Another Gym" })
        let next = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        #expect(next.id != job.id && !next.storyOnly)
        #expect(runAsServer(fixture, next, worker).outcome.rewardID == next.rewardID)
        var stories: [RenderJob] = []
        while let story = try fixture.domain.renderJobs.claim(owner: worker.owner).first {
            #expect(story.storyOnly)
            stories.append(story)
            #expect(runAsServer(fixture, story, worker).outcome == .completed(rewardID: story.rewardID, renderedImages: 1, reusedImages: 0))
        }
        #expect(stories.map(\.id) == [job.id, next.id])

        let done = try fixture.domain.rewards.reward(id: job.rewardID)
        let story = try #require(done.images?.storyPath)
        #expect(fixture.fileExists(story))
        #expect(done.images?.stickerHash == images.stickerHash, "the story step leaves the sticker as it was")
        #expect(try fixture.domain.renderJobs.job(id: job.id).status == .done)
        #expect(fixture.counters.renders == 4)
    }

    /// A render that finishes while the database cannot take its result (here another process
    /// holds the write lock far longer than the busy timeout, as a restarting server would)
    /// keeps its work and records it once the database is back, rather than abandoning the
    /// job to its lease and drawing it again.
    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "holds SQLite's write lock to make the database busy"))
    func aResultFinishedWhileTheDatabaseIsUnavailableIsRecordedWhenItIsBack() throws {
        let fixture = try PipelineFixture(database: DatabaseConfiguration(busyTimeoutMilliseconds: 20))
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        guard case let .rendered(prepared) = fixture.service.prepare(job, in: worker, storyLater: true) else {
            Issue.record("expected a sticker to commit"); return
        }
        let blocker = try SQLiteDatabase(path: fixture.directory.file("belay.sqlite3"))
        try blocker.execute("BEGIN IMMEDIATE")
        let report = Mutex<RenderJobReport?>(nil)
        let committed = DispatchSemaphore(value: 0)
        let service = fixture.service
        DispatchQueue.global().async {
            let outcome = service.commit(prepared)
            report.withLock { $0 = outcome }
            committed.signal()
        }
        // Many busy timeouts pass while the lock is held; the result waits.
        #expect(committed.wait(timeout: .now() + 1) == .timedOut, "nothing is recorded while the lock is held")
        try blocker.execute("COMMIT")
        #expect(committed.wait(timeout: .now() + 30) == .success)
        #expect(report.withLock { $0 }?.outcome == .stickerStored(rewardID: job.rewardID, renderedImages: 1, reusedImages: 0))
        #expect(try fixture.domain.rewards.reward(id: job.rewardID).renderStatus == .ready)
        #expect(fixture.counters.renders == 1, "drawn once")
    }

    @Test func aStoryThatFailsForGoodLeavesTheStickerShareableAndTheBackfillFindsIt() throws {
        let fixture = try PipelineFixture(renderJobs: RenderJobPolicy(maxAttempts: 2, retryBaseSeconds: 0, leaseSeconds: 60))
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        _ = runAsServer(fixture, job, worker)
        try fixture.corruptArtwork("jug-gold")
        let story = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        guard case .failed(_, _, nil) = runAsServer(fixture, story, worker).outcome else {
            Issue.record("the story step had used the job's last attempt"); return
        }
        let reward = try fixture.domain.rewards.reward(id: job.rewardID)
        #expect(reward.renderStatus == .ready && reward.images?.storyHash == nil)
        try fixture.repairArtwork("jug-gold")
        let needs = try fixture.domain.renderJobs.rewardsNeedingRender(templateVersion: 1)
        #expect(needs.map(\.rewardID) == [job.rewardID], "a reward without its story is rendered again")
    }

    @Test func theBackfillStoresBothImagesInOneStep() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        #expect(fixture.service.process(job, in: worker).outcome == .completed(rewardID: job.rewardID, renderedImages: 2, reusedImages: 0))
        #expect(try fixture.domain.rewards.reward(id: job.rewardID).images?.storyHash != nil)
    }

    @Test func stickersThatDifferOnlyInTheirCredentialAreDrawnOnce() throws {
        let fixture = try PipelineFixture()
        let badges = BadgeIssuer(settings: BadgeSettings(publicBaseURL: "https://belay.example/", clubName: "Belay Climbing Club",
                                                         keysDirectory: URL(fileURLWithPath: fixture.directory.file("badge-keys"))))
        let service = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: fixture.settings, badges: badges)
        // Twelve first check-ins at one meetup: every member gets the first-check-in hold.
        try fixture.history(meetups: 1, members: 12)
        let worker = fixture.workerContext()
        while let job = try fixture.domain.renderJobs.claim(owner: worker.owner).first, !job.storyOnly {
            _ = runAsServer(fixture, service: service, job, worker)
        }
        let rewards = try fixture.rewards()
        let looks = Set(rewards.map { "\($0.hold.id)/\($0.background.id)" })
        #expect(looks.count < rewards.count)
        #expect(fixture.counters.renders == looks.count, "one sticker drawn per hold and background")
        #expect(fixture.counters.bakes == rewards.count, "each member's credential baked into a copy")
        let stickers = Set(rewards.compactMap { $0.images?.stickerHash })
        #expect(stickers.count == rewards.count, "each sticker carries its own credential")
        for reward in rewards {
            let path = try #require(reward.images?.stickerPath)
            let bytes = try #require(FileManager.default.contents(atPath: fixture.directory.file("data/" + path)))
            let credential = try #require(String(decoding: bytes, as: UTF8.self).components(separatedBy: "/badge=").last)
            #expect(badges.verify(credential).rewardID == reward.id)
        }
    }

    /// A badge makes each reward's sticker its own: the first render of an award does not ask
    /// the store for it (a round trip to a bucket before the reward is ready), and asks only
    /// about the story, which members share; a later render of the same reward still asks.
    @Test func theFirstRenderOfABadgedStickerDoesNotAskTheStoreForIt() throws {
        let fixture = try PipelineFixture()
        let badges = BadgeIssuer(settings: BadgeSettings(publicBaseURL: "https://belay.example/", clubName: "Belay Climbing Club",
                                                         keysDirectory: URL(fileURLWithPath: fixture.directory.file("badge-keys"))))
        let store = AskingImageStore(root: fixture.settings.imagesDirectory)
        let service = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: fixture.settings, badges: badges,
                                        imageStore: store)
        try fixture.history(meetups: 1, members: 3)
        let worker = fixture.workerContext()
        while let job = try fixture.domain.renderJobs.claim(owner: worker.owner).first, !job.storyOnly {
            #expect(job.reason == .award)
            _ = runAsServer(fixture, service: service, job, worker)
        }
        let rewards = try fixture.rewards()
        let stickers = Set(rewards.compactMap { $0.images?.stickerHash })
        #expect(stickers.count == rewards.count && !stickers.isEmpty)
        for sticker in stickers {
            #expect(store.containsImage(digest: sticker, fileExtension: "png"))
        }
        #expect(Set(store.askedDigests).isDisjoint(with: stickers), "the store was asked about a reward's own sticker")
        #expect(!store.askedDigests.isEmpty, "the shared story is still looked for")
    }

    @Test func theRealRenderersBakedCopyIsByteForByteTheStickerRenderedWithTheCredential() throws {
        let renderer = try BelayRewardRenderer(settings: BuiltInSettings.render())
        var request = PipelineFixture.assetsRequest(hold: "jug-azure", background: "wall-dusk", place: "더클라임 강남점", stickerScale: 1)
        let plain = try #require(try renderer.render(request, sticker: true, story: false).sticker)
        request.badgeCredential = "eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl"
        let direct = try #require(try renderer.render(request, sticker: true, story: false).sticker)
        #expect(try renderer.bakeBadge("eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl", into: plain) == direct)
        #expect(PNGTextChunk.text(keyword: Renderer.badgeKeyword, in: direct) == "eyJhbGciOiJFZERTQSJ9.e30.c2lnbmF0dXJl")
        #expect(try renderer.contentKeys(for: request).sticker != (try { var p = request; p.badgeCredential = nil; return try renderer.contentKeys(for: p).sticker }()))
    }

    @Test func eachWorkerWarmsUpBeforeItsFirstClaimAndTheWarmUpStoresNothing() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 1)
        let warmed = Mutex<[String]>([])
        let holds = try fixture.domain.catalog.holds(), backgrounds = try fixture.domain.catalog.backgrounds()
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 2, warmUp: { [service = fixture.service] context in
                                        service.warmUp(context, holds: holds, backgrounds: backgrounds)
                                        warmed.withLock { $0.append(context.owner) }
                                    })
        try pool.start()
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 1, timeout: 30))
        pool.stop()
        #expect(Set(warmed.withLock { $0 }).count == 2, "one warm-up per worker")
        // Two throwaway renders (one per worker), then the job's sticker and its story; every
        // other artwork read once per worker.
        #expect(fixture.counters.renders == 2 + 2)
        #expect(fixture.counters.preloads == 2 * (holds.count - 1 + backgrounds.count - 1))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: fixture.directory.file("data/images")).filter { $0.hasSuffix(".png") }.count == 2,
                "the warm-up stores nothing")
    }

    @Test func theStickerCacheKeepsWhatFitsAndDropsTheLeastRecentlyUsed() {
        let cache = StickerBaseCache(capacityBytes: 10)
        cache.keep([1, 2, 3, 4], digest: "a")
        cache.keep([5, 6, 7, 8], digest: "b")
        #expect(cache.sticker(digest: "a") == [1, 2, 3, 4])
        cache.keep([9, 9, 9, 9], digest: "c")
        #expect(cache.sticker(digest: "b") == nil, "b was used least recently")
        #expect(cache.sticker(digest: "a") != nil && cache.sticker(digest: "c") != nil)
        cache.keep(Array(repeating: 0, count: 11), digest: "too-big")
        #expect(cache.sticker(digest: "too-big") == nil && cache.count == 2)
    }
}
