import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

@Suite struct RenderServiceTests {
    @Test func aJobStoresBothImagesAndMakesTheRewardReady() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 1, place: { _ in "더클라임 강남점" })
        let worker = fixture.workerContext()
        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)

        let report = fixture.service.process(job, in: worker)

        #expect(report.outcome == .completed(rewardID: job.rewardID, renderedImages: 2, reusedImages: 0))
        let reward = try fixture.domain.rewards.reward(id: job.rewardID)
        let images = try #require(reward.images)
        #expect(reward.renderStatus == .ready)
        #expect(images.templateVersion == 1)
        #expect(images.stickerPath == "images/\(images.stickerHash.prefix(2))/\(images.stickerHash).png")
        let storyHash = try #require(images.storyHash)
        #expect(images.storyPath?.hasSuffix("\(storyHash).png") == true)
        let sticker = try #require(FileManager.default.contents(atPath: fixture.directory.file("data/" + images.stickerPath)))
        #expect(String(decoding: sticker, as: UTF8.self).contains("더클라임 강남점"))
        // The meetup started 2026-11-29T02:00Z, 11:00 in Seoul: the date is Seoul's, in Korean.
        #expect(String(decoding: sticker, as: UTF8.self).contains("2026.11.29 (일)"))
        #expect(try fixture.domain.renderJobs.job(id: job.id).status == .done)
    }

    @Test func identicalInputsAreRenderedOnce() throws {
        let fixture = try PipelineFixture()
        // Two members at the same meetup whose rewards share hold and background render the same images.
        let meetups = try fixture.history(meetups: 1, members: 12)
        let worker = fixture.workerContext()
        var outcomes: [RenderJobOutcome] = []
        while let job = try fixture.domain.renderJobs.claim(owner: worker.owner).first {
            outcomes.append(fixture.service.process(job, in: worker).outcome)
        }
        let rewards = try fixture.rewards()
        #expect(rewards.count == 12 && rewards.allSatisfy { $0.meetupID == meetups[0].id && $0.renderStatus == .ready })
        let distinct = Set(rewards.map { "\($0.hold.id)/\($0.background.id)" })
        #expect(distinct.count < rewards.count, "the fixture gives some members the same hold and background")
        #expect(fixture.counters.renders == distinct.count)
        #expect(Set(rewards.compactMap { $0.images?.stickerHash }).count == distinct.count)
        let reused = outcomes.filter { if case .completed(_, 0, 2) = $0 { return true } else { return false } }
        #expect(reused.count == rewards.count - distinct.count)
    }

    @Test func aCorruptArtworkFailsWithAReasonNamingTheFileAndIsRetriedUntilTheLimit() throws {
        let fixture = try PipelineFixture(renderJobs: RenderJobPolicy(maxAttempts: 2, retryBaseSeconds: 30, leaseSeconds: 60))
        try fixture.history(meetups: 1, members: 1)   // the first check-in earns the milestone hold jug-gold
        try fixture.corruptArtwork("jug-gold")
        let worker = fixture.workerContext()

        let first = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        guard case let .failed(_, reason, retryAt) = fixture.service.process(first, in: worker).outcome else {
            Issue.record("expected a failure"); return
        }
        #expect(reason.contains("assets/holds/jug-gold.png"))
        #expect(retryAt == fixture.clock.now().addingTimeInterval(30))
        #expect(try fixture.domain.rewards.reward(id: first.rewardID).renderStatus == .pending)
        #expect(try fixture.domain.renderJobs.claim(owner: worker.owner).isEmpty, "not before the back-off")

        fixture.clock.advance(by: 30)
        let second = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        guard case .failed(_, _, nil) = fixture.service.process(second, in: worker).outcome else {
            Issue.record("expected the last attempt to give up"); return
        }
        let reward = try fixture.domain.rewards.reward(id: first.rewardID)
        #expect(reward.renderStatus == .failed)
        #expect(reward.failureReason?.contains("jug-gold.png") == true)
        #expect(reward.images == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.file("data/images")).isEmpty)
    }

    @Test(.enabled(if: ReadOnlyDirectory.isAvailable, "needs a way to make a directory read-only"))
    func aReadOnlyDataDirectoryPostponesTheJobWithoutSpendingAnAttemptOrWritingAnything() throws {
        let fixture = try PipelineFixture(renderJobs: RenderJobPolicy(maxAttempts: 1, retryBaseSeconds: 0, leaseSeconds: 60))
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let readOnly = try ReadOnlyDirectory(fixture.directory.file("data/images"))
        try readOnly.makeReadOnly()

        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        let outcome = fixture.service.process(job, in: worker).outcome
        guard case let .postponed(_, reason, until) = outcome else {
            Issue.record("expected the job to be postponed, not \(outcome)"); return
        }
        #expect(reason.contains("not writable"))
        #expect(reason.contains(fixture.directory.file("data/images")))
        #expect(until == fixture.clock.now().addingTimeInterval(60))
        let record = try fixture.domain.renderJobs.job(id: job.id)
        #expect(record.status == .queued && record.attempts == 0, "the machine's fault spends no attempt (the limit is 1)")
        #expect(try fixture.domain.rewards.reward(id: job.rewardID).renderStatus == .pending)

        try readOnly.makeWritable()
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.file("data/images")).isEmpty)
        fixture.clock.advance(by: 60)
        let again = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        #expect(fixture.service.process(again, in: worker).outcome == .completed(rewardID: job.rewardID, renderedImages: 2, reusedImages: 0))
        let reward = try fixture.domain.rewards.reward(id: job.rewardID)
        #expect(fixture.fileExists(reward.images?.stickerPath) && fixture.fileExists(reward.images?.storyPath))
    }

    @Test(.enabled(if: FullDisk.isAvailable, "needs root to mount a small file system"))
    func aFullDiskPostponesTheJobWithAClearErrorAndLeavesNoPartialFile() throws {
        let fixture = try PipelineFixture(renderJobs: RenderJobPolicy(maxAttempts: 1, retryBaseSeconds: 0, leaseSeconds: 60))
        try fixture.history(meetups: 1, members: 1)
        let worker = fixture.workerContext()
        let disk = try FullDisk(fixture.directory.file("data/images"))
        defer { disk.unmount() }

        let job = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        guard case let .postponed(_, reason, _) = fixture.service.process(job, in: worker).outcome else {
            Issue.record("expected the job to be postponed"); return
        }
        #expect(reason.contains("the disk is full"))
        #expect(try fixture.domain.renderJobs.job(id: job.id).attempts == 0)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: disk.path).filter { !$0.hasSuffix(".filler") && $0.contains(".") }
        #expect(leftovers.isEmpty, "no partial or temporary file: \(leftovers)")

        disk.makeRoom()
        fixture.clock.advance(by: 60)
        let again = try #require(try fixture.domain.renderJobs.claim(owner: worker.owner).first)
        #expect(fixture.service.process(again, in: worker).outcome == .completed(rewardID: job.rewardID, renderedImages: 2, reusedImages: 0))
        let reward = try fixture.domain.rewards.reward(id: job.rewardID)
        #expect(fixture.fileExists(reward.images?.stickerPath) && fixture.fileExists(reward.images?.storyPath))
    }

    @Test func aResultIsDroppedWhenTheLeaseWasLost() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 1)
        let slow = fixture.workerContext("test:1:slow")
        let job = try #require(try fixture.domain.renderJobs.claim(owner: slow.owner).first)
        fixture.clock.advance(by: 61)
        let fast = fixture.workerContext("test:1:fast")
        let taken = try #require(try fixture.domain.renderJobs.claim(owner: fast.owner).first)
        #expect(taken.id == job.id)

        guard case let .abandoned(_, reason) = fixture.service.process(job, in: slow).outcome else {
            Issue.record("expected the stale worker's result to be dropped"); return
        }
        #expect(reason.contains("lease_lost"))
        #expect(fixture.service.process(taken, in: fast).outcome == .completed(rewardID: job.rewardID, renderedImages: 0, reusedImages: 2))
    }

    @Test func rowPathsOutsideTheStoreAreRefused() throws {
        let fixture = try PipelineFixture()
        let digest = String(repeating: "ab", count: 32)
        #expect(fixture.service.fileURL(forRowPath: "images/ab/\(digest).png") != nil)
        #expect(fixture.service.fileURL(forRowPath: "images/../belay.sqlite3") == nil)
        #expect(fixture.service.fileURL(forRowPath: "images/ab/../../belay.sqlite3") == nil)
        #expect(fixture.service.fileURL(forRowPath: "images/cd/\(digest).png") == nil)
        #expect(fixture.service.fileURL(forRowPath: "/etc/passwd") == nil)
    }
}
