import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct BackfillRunnerTests {
    /// Historical check-ins made before the catalogue existed: none has a reward.
    static func importedHistory(meetups: Int = 4, members: Int = 5) throws -> PipelineFixture {
        let fixture = try PipelineFixture(importCatalog: false)
        try fixture.history(meetups: meetups, members: members)
        try fixture.importCatalog()
        return fixture
    }

    @Test func awardsEveryMissingRewardAndRendersIt() throws {
        let fixture = try Self.importedHistory()
        #expect(try fixture.rewards().isEmpty)
        let progress = Mutex<[BackfillProgress]>([])

        let report = try fixture.backfillRunner().run(BackfillOptions(jobs: 2)) { update in progress.withLock { $0.append(update) } }

        #expect(report.awarded == 20)
        #expect(report.rendered + report.reused == 20)
        #expect(report.failed == 0 && report.stoppedEarly == nil && report.isComplete)
        let rewards = try fixture.rewards()
        #expect(try rewards.count == fixture.checkedInCount())
        #expect(rewards.allSatisfy { $0.renderStatus == .ready && fixture.fileExists($0.images?.stickerPath) && fixture.fileExists($0.images?.storyPath) })
        #expect(Set(rewards.map(\.attendanceID)).count == rewards.count, "one reward per attendance")
        let updates = progress.withLock { $0 }
        #expect(updates.contains { $0.phase == .awarding && $0.completed == 20 && $0.total == 20 })
        #expect(updates.last == BackfillProgress(phase: .rendering, completed: 20, total: 20, failed: 0))
        #expect(try fixture.domain.leases.current(BackfillRunner.leaseName) == nil, "the lease is released")
    }

    @Test func aSecondRunFindsNothingToDo() throws {
        let fixture = try Self.importedHistory()
        _ = try fixture.backfillRunner().run(BackfillOptions())
        let renders = fixture.counters.renders

        let again = try fixture.backfillRunner().run(BackfillOptions())
        #expect(again.awarded == 0 && again.rendered == 0 && again.reused == 0 && again.queued.total == 0)
        #expect(fixture.counters.renders == renders)
    }

    @Test func theAwardsAreTheOnesALiveCheckInWouldHaveGiven() throws {
        let live = try PipelineFixture()
        try live.history(meetups: 3, members: 3)
        let backfilled = try Self.importedHistory(meetups: 3, members: 3)
        _ = try backfilled.backfillRunner().run(BackfillOptions())
        let picks = { (fixture: PipelineFixture) in try fixture.rewards().map { "\($0.attendanceID):\($0.hold.id):\($0.background.id):\($0.milestone ?? 0)" } }
        #expect(try picks(live) == picks(backfilled))
    }

    @Test func anInterruptedRunIsFinishedByTheNextWithoutRedoingWork() throws {
        let fixture = try Self.importedHistory()
        // A limited run stands in for one killed half-way: part awarded, part rendered.
        let first = try fixture.backfillRunner().run(BackfillOptions(limit: 7))
        #expect(first.awarded == 7)
        #expect(first.rendered + first.reused == 7)
        // A claim left behind by a worker that died.
        let abandoned = try fixture.domain.rewards.awardMissingRewards(limit: 3).awarded
        _ = try fixture.domain.renderJobs.claim(owner: "gone-host:1:backfill-0", limit: 1)
        let rendersBefore = fixture.counters.renders
        fixture.clock.advance(by: 61)   // the dead worker's lease runs out

        let second = try fixture.backfillRunner().run(BackfillOptions())
        #expect(second.awarded == 10)
        #expect(second.rendered + second.reused == 13, "the 3 awarded outside the runs and the 10 new, nothing twice")
        let rewards = try fixture.rewards()
        #expect(rewards.count == 20 && rewards.allSatisfy { $0.renderStatus == .ready })
        #expect(abandoned.allSatisfy { id in rewards.contains { $0.id == id && $0.renderStatus == .ready } })
        #expect(fixture.counters.renders - rendersBefore <= 13)
        let counts = try fixture.domain.renderJobs.counts()
        #expect(counts.queued == 0 && counts.running == 0)
    }

    @Test func theScopeLimitsWhatIsAwardedAndRendered() throws {
        let fixture = try Self.importedHistory()
        let meetups = try fixture.meetups()
        let target = try #require(meetups.last)

        let report = try fixture.backfillRunner().run(BackfillOptions(scope: RewardScope(meetupID: target.id)))
        #expect(report.awarded == 5)
        let rewards = try fixture.rewards()
        #expect(rewards.count == 5 && rewards.allSatisfy { $0.meetupID == target.id && $0.renderStatus == .ready })

        let since = try fixture.backfillRunner().run(BackfillOptions(scope: RewardScope(checkedInSince: meetups[2].startsAt)))
        #expect(since.awarded == 5, "the third meetup's check-ins; the fourth's already have rewards")
    }

    @Test func aDryRunSaysWhatItWouldDoAndChangesNothing() throws {
        let fixture = try Self.importedHistory()
        let plan = try fixture.backfillRunner().plan(BackfillOptions())
        #expect(plan.rewardsToAward == 20)
        #expect(plan.rendersToQueue.total == 0, "renders follow the awards; none is owed yet")
        #expect(plan.templateVersion == 1)
        #expect(plan.leaseHolder == nil)
        #expect(try fixture.rewards().isEmpty)
        #expect(try fixture.domain.leases.current(BackfillRunner.leaseName) == nil)

        _ = try fixture.backfillRunner().run(BackfillOptions())
        fixture.counters.templateVersion = 2
        let rerender = try fixture.backfillRunner().plan(BackfillOptions())
        #expect(rerender.rewardsToAward == 0 && rerender.rendersToQueue.outdated == 20)
        #expect(try fixture.rewards().allSatisfy { $0.images?.templateVersion == 1 })
    }

    @Test func aNewTemplateVersionReRendersEveryReward() throws {
        let fixture = try Self.importedHistory()
        _ = try fixture.backfillRunner().run(BackfillOptions())
        let old = try fixture.rewards().compactMap(\.images?.stickerHash)
        fixture.counters.templateVersion = 2

        let report = try fixture.backfillRunner().run(BackfillOptions())
        #expect(report.queued.outdated == 20)
        #expect(report.rendered + report.reused == 20)
        let rewards = try fixture.rewards()
        #expect(rewards.allSatisfy { $0.images?.templateVersion == 2 && $0.renderStatus == .ready })
        #expect(Set(rewards.compactMap(\.images?.stickerHash)).isDisjoint(with: old))
    }

    @Test func rewardsWhoseFilesAreGoneAreRenderedAgain() throws {
        let fixture = try Self.importedHistory(meetups: 1, members: 3)
        _ = try fixture.backfillRunner().run(BackfillOptions())
        let victim = try #require(try fixture.rewards().first)
        let path = try #require(victim.images?.stickerPath)
        try FileManager.default.removeItem(atPath: fixture.directory.file("data/" + path))

        let report = try fixture.backfillRunner().run(BackfillOptions())
        #expect(report.queued.filesMissing >= 1)
        #expect(fixture.fileExists(path))
    }

    @Test func aCorruptArtworkFailsItsJobsAndEveryOtherCompletes() throws {
        let fixture = try Self.importedHistory()
        try fixture.corruptArtwork("jug-gold")   // every member's first check-in earns it

        let report = try fixture.backfillRunner().run(BackfillOptions(jobs: 2))
        #expect(report.failed == 5, "attempts are retried at once (base 0) until the limit of 3")
        #expect(report.failedWillRetry == 10)
        #expect(report.rendered + report.reused == 15)
        for reward in try fixture.rewards() {
            if reward.hold.id == "jug-gold" {
                #expect(reward.renderStatus == .failed)
                #expect(reward.failureReason?.contains("assets/holds/jug-gold.png") == true)
            } else {
                #expect(reward.renderStatus == .ready)
            }
        }
    }

    @Test func failedRewardsGetAnotherRoundOnlyAfterTheBackOffAndUpToTheLimit() throws {
        let fixture = try Self.importedHistory(meetups: 1, members: 2)
        try fixture.corruptArtwork("jug-gold")
        let retry = FailedRenderRetryPolicy(maxRounds: 2, baseDelaySeconds: 3_600)
        _ = try fixture.backfillRunner(retry: retry).run(BackfillOptions())

        #expect(try fixture.backfillRunner(retry: retry).run(BackfillOptions()).queued.failed == 0, "too soon")
        fixture.clock.advance(by: 3_600)
        try fixture.repairArtwork("jug-gold")
        let second = try fixture.backfillRunner(retry: retry).run(BackfillOptions())
        #expect(second.queued.failed == 2)
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .ready })

        let fresh = try Self.importedHistory(meetups: 1, members: 1)
        try fresh.corruptArtwork("jug-gold")
        for _ in 0..<2 {
            _ = try fresh.backfillRunner(retry: retry).run(BackfillOptions())
            fresh.clock.advance(by: 100_000)
        }
        let third = try fresh.backfillRunner(retry: retry).run(BackfillOptions())
        #expect(third.queued.failed == 0, "two rounds used: it stays failed")
        #expect(try fresh.rewards().first?.renderStatus == .failed)
    }

    @Test(.enabled(if: ReadOnlyDirectory.isAvailable, "needs a way to make a directory read-only"))
    func aReadOnlyDataDirectoryStopsTheRunWithAClearErrorAndTheNextRunCompletes() throws {
        let fixture = try Self.importedHistory(meetups: 2, members: 3)
        let readOnly = try ReadOnlyDirectory(fixture.directory.file("data/images"))
        try readOnly.makeReadOnly()

        let stopped = try fixture.backfillRunner().run(BackfillOptions(jobs: 2))
        #expect(stopped.awarded == 6)
        #expect(stopped.postponed >= 1 && stopped.rendered == 0)
        let reason = try #require(stopped.stoppedEarly)
        #expect(reason.contains("not writable") && reason.contains("Run it again"))
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .pending && $0.images == nil })

        try readOnly.makeWritable()
        fixture.clock.advance(by: 60)
        let resumed = try fixture.backfillRunner().run(BackfillOptions(jobs: 2))
        #expect(resumed.isComplete && resumed.awarded == 0)
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .ready && fixture.fileExists($0.images?.stickerPath) })
        #expect(try fixture.domain.renderJobs.counts().failed == 0, "postponing spent no attempts")
    }
}

@Suite struct BackfillLeaseTests {
    @Test func aSecondBackfillIsRefusedNamingTheHolder() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        let other = LeaseClaimant(host: "db-1", pid: 4242, purpose: "belay backfill --jobs 2")
        guard case .acquired = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: other, duration: 30) else {
            Issue.record("the lease was free"); return
        }
        #expect { try fixture.backfillRunner().run(BackfillOptions()) } throws: { error in
            let refusal = (error as? PipelineError)?.leaseHolder
            return refusal?.pid == 4242 && "\(error)".contains("pid 4242 on db-1 (belay backfill --jobs 2)")
        }
        #expect(try fixture.backfillRunner().plan(BackfillOptions()).leaseHolder?.contains("pid 4242") == true)
        #expect(try fixture.rewards().isEmpty, "the refused run changed nothing")
    }

    @Test func aLeaseThatRanOutIsTakenOver() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        let other = LeaseClaimant(host: "db-1", pid: 4242, purpose: "belay backfill")
        _ = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: other, duration: 30)
        fixture.clock.advance(by: 30)
        let report = try fixture.backfillRunner().run(BackfillOptions())
        #expect(report.awarded == 1)
        #expect(try fixture.domain.leases.renew(BackfillRunner.leaseName, holderID: other.holderID, duration: 30) == nil,
                "the old holder learns it lost the lease")
    }

    @Test func aHolderOnThisHostWhoseProcessIsGoneIsTakenOverAtOnce() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        let dead = try RenderWorkerPoolTests.pidOfAnExitedProcess()
        let crashed = LeaseClaimant(host: WorkerIdentity.current.host, pid: dead, purpose: "belay backfill")
        _ = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: crashed, duration: 3_600)
        #expect(try fixture.backfillRunner().run(BackfillOptions()).awarded == 1)
    }

    @Test func aHolderKeepsItsLeaseByRenewingIt() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        let holder = LeaseClaimant(host: "db-1", pid: 1, purpose: "belay backfill")
        _ = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: holder, duration: 30)
        fixture.clock.advance(by: 20)
        let renewed = try #require(try fixture.domain.leases.renew(BackfillRunner.leaseName, holderID: holder.holderID, duration: 30))
        #expect(renewed.expiresAt == fixture.clock.now().addingTimeInterval(30))
        fixture.clock.advance(by: 20)
        let intruder = LeaseClaimant(host: "db-2", pid: 2, purpose: "belay backfill")
        guard case let .heldByOther(lease) = try fixture.domain.leases.acquire(BackfillRunner.leaseName, as: intruder, duration: 30) else {
            Issue.record("a renewed lease must hold"); return
        }
        #expect(lease.holderID == holder.holderID)
        #expect(try fixture.domain.leases.release(BackfillRunner.leaseName, holderID: intruder.holderID) == false)
        #expect(try fixture.domain.leases.release(BackfillRunner.leaseName, holderID: holder.holderID))
    }
}

/// What a backfill worker does when its claim found nothing.
@Suite struct AfterEmptyClaimTests {
    let now = Date(timeIntervalSince1970: 1_795_914_000)

    /// A job that became due between the claim and the look after it (its back-off ran out,
    /// another worker's failed attempt came back) is claimed, not left for the next backfill:
    /// the worker that finished here left a failing reward pending under load.
    @Test func aJobDueSinceTheClaimIsClaimedAgainAtOnce() {
        #expect(AfterEmptyClaim(due: 1, nextRetryAt: nil, now: now) == .claimAgain(after: AfterEmptyClaim.shortestWait))
        #expect(AfterEmptyClaim(due: 2, nextRetryAt: now.addingTimeInterval(30), now: now) == .claimAgain(after: AfterEmptyClaim.shortestWait))
    }

    @Test func aBackOffIsWaitedOutAndAnEmptyQueueFinishes() {
        #expect(AfterEmptyClaim(due: 0, nextRetryAt: now.addingTimeInterval(2), now: now) == .claimAgain(after: 2))
        #expect(AfterEmptyClaim(due: 0, nextRetryAt: now.addingTimeInterval(-1), now: now) == .claimAgain(after: AfterEmptyClaim.shortestWait))
        #expect(AfterEmptyClaim(due: 0, nextRetryAt: nil, now: now) == .finish)
    }
}
