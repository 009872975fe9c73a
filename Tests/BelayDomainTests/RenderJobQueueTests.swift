@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct RenderJobQueueTests {
    let fixture: DomainFixture
    let reward: Reward
    let policy = RenderJobPolicy(maxAttempts: 3, retryBaseSeconds: 30, maxRetryDelaySeconds: 3_600, leaseSeconds: 60)

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain { [policy] in $0.renderJobs = policy })
        let meetup = try fixture.meetup()
        fixture.clock.advance(by: 3_600)
        reward = try #require(try fixture.checkedIn(try fixture.member("jisoo"), at: meetup).reward)
    }

    var queue: RenderJobQueue { fixture.domain.renderJobs }
    let output = RenderOutput(stickerHash: "s1", stickerPath: "images/s1.png", storyHash: "t1", storyPath: "images/t1.png", templateVersion: 1)

    @Test func aClaimCarriesEverythingNeededToRender() throws {
        let jobs = try queue.claim(owner: "worker-a", limit: 10)
        let job = try #require(jobs.first)
        #expect(jobs.count == 1)
        #expect(job.rewardID == reward.id)
        #expect(job.attempt == 1)
        #expect(job.leaseOwner == "worker-a")
        #expect(job.leaseExpiresAt == fixture.clock.now().addingTimeInterval(60))
        #expect(job.hold.artworkPath == "holds/jug-gold.png")
        #expect(job.background.filePath.hasPrefix("backgrounds/"))
        #expect(job.background.topColor == "#1E3C72")
        #expect(job.background.bottomColor == "#2A5298")
        #expect(job.placeName == "Seoul Forest Gym")
        #expect(job.meetupTimeZone == "Asia/Seoul")
        #expect(job.memberDisplayName == "Jisoo")
        #expect(job.milestone == 1)
        #expect(try queue.claim(owner: "worker-b").isEmpty, "a leased job is not handed out twice")
    }

    @Test func completingMakesTheRewardReady() throws {
        let job = try #require(try queue.claim(owner: "worker-a").first)
        let ready = try queue.complete(jobID: job.id, owner: "worker-a", output: output)
        #expect(ready.renderStatus == .ready)
        #expect(ready.images?.stickerHash == "s1")
        #expect(ready.images?.storyPath == "images/t1.png")
        #expect(ready.images?.templateVersion == 1)
        #expect(try queue.job(id: job.id).status == .done)
        #expect(refusal { try queue.complete(jobID: job.id, owner: "worker-a", output: output) } == .leaseLost)
        #expect(refusal { try queue.complete(jobID: 999, owner: "worker-a", output: output) } == .renderJobNotFound)
    }

    @Test func anExpiredLeaseCanBeClaimedAgainAndTheOldWorkerIsTurnedAway() throws {
        let first = try #require(try queue.claim(owner: "crashed").first)
        fixture.clock.advance(by: 59)
        #expect(try queue.claim(owner: "worker-b").isEmpty)
        fixture.clock.advance(by: 1)
        let second = try #require(try queue.claim(owner: "worker-b").first)
        #expect(second.id == first.id)
        #expect(second.attempt == 2)
        #expect(refusal { try queue.complete(jobID: first.id, owner: "crashed", output: output) } == .leaseLost)
        #expect(try queue.complete(jobID: second.id, owner: "worker-b", output: output).renderStatus == .ready)
    }

    @Test func failuresBackOffExponentiallyThenFailTheReward() throws {
        let start = fixture.clock.now()
        let first = try #require(try queue.claim(owner: "w").first)
        #expect(try queue.fail(jobID: first.id, owner: "w", error: "font missing") == .willRetry(retryAt: start.addingTimeInterval(30), attempts: 1))
        fixture.clock.advance(by: 29)
        #expect(try queue.claim(owner: "w").isEmpty, "not before the back-off")
        fixture.clock.advance(by: 1)
        let second = try #require(try queue.claim(owner: "w").first)
        #expect(second.attempt == 2)
        #expect(try queue.fail(jobID: second.id, owner: "w", error: "font missing") == .willRetry(retryAt: fixture.clock.now().addingTimeInterval(60), attempts: 2))
        #expect(try queue.job(id: second.id).lastError == "font missing")
        fixture.clock.advance(by: 60)
        let third = try #require(try queue.claim(owner: "w").first)
        #expect(try queue.fail(jobID: third.id, owner: "w", error: "font still missing") == .gaveUp(attempts: 3))
        let failed = try fixture.domain.rewards.reward(id: reward.id)
        #expect(failed.renderStatus == .failed)
        #expect(failed.failureReason == "font still missing")
        #expect(try queue.job(id: third.id).status == .failed)
        fixture.clock.advance(by: 86_400)
        #expect(try queue.claim(owner: "w").isEmpty)
    }

    @Test func aLeaseLostTooOftenFailsTheJob() throws {
        for _ in 0..<3 {
            _ = try #require(try queue.claim(owner: "crashing").first)
            fixture.clock.advance(by: 61)
        }
        #expect(try queue.claim(owner: "w").isEmpty)
        let failed = try fixture.domain.rewards.reward(id: reward.id)
        #expect(failed.renderStatus == .failed)
        #expect(failed.failureReason?.contains("lease") == true)
    }

    @Test func theBackfillFindsMissingOutdatedAndFailedRenders() throws {
        #expect(try queue.rewardsNeedingRender(templateVersion: 1).isEmpty, "a job is already in flight")
        #expect(try queue.enqueue(rewardID: reward.id, reason: .backfill) == nil, "one job in flight per reward")

        let job = try #require(try queue.claim(owner: "w").first)
        try queue.complete(jobID: job.id, owner: "w", output: output)
        #expect(try queue.rewardsNeedingRender(templateVersion: 1).isEmpty)
        #expect(try queue.rewardsNeedingRender(templateVersion: 2) == [RenderNeed(rewardID: reward.id, kind: .outdated)])

        let queued = try queue.enqueueNeededRenders(templateVersion: 2)
        #expect(queued.map(\.jobReason) == [.rerender])
        #expect(try queue.enqueueNeededRenders(templateVersion: 2).isEmpty, "idempotent")
        // A failed re-render keeps the old images usable.
        for _ in 0..<3 {
            let retry = try #require(try queue.claim(owner: "w").first)
            try queue.fail(jobID: retry.id, owner: "w", error: "boom")
            fixture.clock.advance(by: 3_600)
        }
        let stillReady = try fixture.domain.rewards.reward(id: reward.id)
        #expect(stillReady.renderStatus == .ready)
        #expect(stillReady.images?.templateVersion == 1)

        // A never-rendered failure is offered for retry, and only when asked.
        let meetup = try fixture.domain.meetups.meetup(id: stillReady.meetupID)
        fixture.clock.set(meetup.startsAt.addingTimeInterval(600))
        let other = try #require(try fixture.checkedIn(try fixture.member(), at: meetup).reward)
        for _ in 0..<3 {
            let attempt = try #require(try queue.claim(owner: "w").first { $0.rewardID == other.id })
            try queue.fail(jobID: attempt.id, owner: "w", error: "boom")
            fixture.clock.advance(by: 3_600)
        }
        #expect(try fixture.domain.rewards.reward(id: other.id).renderStatus == .failed)
        #expect(try queue.rewardsNeedingRender(templateVersion: 1, includeFailed: false).isEmpty)
        #expect(try queue.rewardsNeedingRender(templateVersion: 1) == [RenderNeed(rewardID: other.id, kind: .failed)])
        try queue.enqueue(rewardID: other.id, reason: .retry)
        #expect(try fixture.domain.rewards.reward(id: other.id).renderStatus == .pending)
        #expect(try queue.counts().queued == 1)
    }

    @Test func claimsRespectTheLimitAndOrder() throws {
        let meetup = try fixture.domain.meetups.meetup(id: reward.meetupID)
        for _ in 0..<4 { try fixture.checkedIn(try fixture.member(), at: meetup) }
        let batch = try queue.claim(owner: "w", limit: 3)
        #expect(batch.count == 3)
        #expect(batch.map(\.id) == batch.map(\.id).sorted())
        #expect(batch.first?.rewardID == reward.id)
        #expect(try queue.claim(owner: "w2", limit: 10).count == 2)
        #expect(refusal { _ = try queue.claim(owner: "", limit: 1) } == .invalidInput)
    }
}
