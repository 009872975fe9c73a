import BelayDomain
@testable import BelayPipeline
import BelayRender
import BelayTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct RenderWorkerPoolTests {
    @Test func workersRenderEveryQueuedJobAndStopCleanly() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 3, members: 4)
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 2)
        try pool.start()
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 12, timeout: 30))
        pool.stop()
        #expect(!pool.isRunning)

        let rewards = try fixture.rewards()
        #expect(rewards.count == 12)
        #expect(rewards.allSatisfy { $0.renderStatus == .ready && fixture.fileExists($0.images?.stickerPath) && fixture.fileExists($0.images?.storyPath) })
        let metrics = pool.metrics.snapshot()
        #expect(metrics.completed == 12)
        #expect(metrics.imagesRendered + metrics.imagesReused == 24)
        #expect(metrics.jobDuration.count == 12)
        #expect(metrics.renderDuration.count == fixture.counters.renders)
        let counts = try pool.queueCounts()
        #expect(counts.queued == 0 && counts.running == 0 && counts.done == 12)
    }

    @Test func aCheckInAfterStartIsRenderedWhenNotified() throws {
        let fixture = try PipelineFixture()
        // Polling every 10 minutes: only notify() can make this prompt.
        var settings = fixture.settings
        settings.pollInterval = 600
        let service = try RenderService(queue: fixture.domain.renderJobs, clock: fixture.clock, settings: settings)
        let pool = RenderWorkerPool(service: service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 1)
        try pool.start()
        defer { pool.stop() }
        try fixture.history(meetups: 1, members: 1)
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 1, timeout: 30))
        #expect(try fixture.rewards().first?.renderStatus == .ready)
    }

    @Test func jobsLeftRunningByADeadProcessOnThisHostAreTakenBackAtStart() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 2)
        let deadPID = try Self.pidOfAnExitedProcess()
        let deadOwner = WorkerIdentity(host: WorkerIdentity.current.host, pid: deadPID).owner("render-0")
        let claimed = try fixture.domain.renderJobs.claim(owner: deadOwner, limit: 2)
        #expect(claimed.count == 2)
        // A live process elsewhere keeps its claims until the lease runs out.
        let elsewhere = WorkerIdentity(host: "another-host", pid: deadPID)
        #expect(!WorkerIdentity.current.knowsIsGone(elsewhere))
        #expect(WorkerIdentity.current.knowsIsGone(WorkerIdentity(host: WorkerIdentity.current.host, pid: deadPID)))

        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 1)
        try pool.start()
        defer { pool.stop() }
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 2, timeout: 30))
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .ready })
        #expect(try fixture.domain.renderJobs.jobs(rewardID: claimed[0].rewardID).last?.attempts == 2,
                "the dead worker's claim counts as an attempt, as an expired lease does")
    }

    @Test func startRefusesWhenARendererCannotBeMade() throws {
        let fixture = try PipelineFixture()
        struct MissingFont: Error, CustomStringConvertible { var description: String { "the bold font '/nope.ttf' cannot be used" } }
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: { throw MissingFont() },
                                    workers: 1)
        #expect { try pool.start() } throws: { "\($0)".contains("/nope.ttf") }
        pool.stop()
    }

    @Test func theDurationHistogramIsCumulative() {
        let metrics = RenderMetrics()
        for seconds in [0.005, 0.03, 0.2, 20] {
            metrics.record(RenderJobReport(jobID: 1, outcome: .completed(rewardID: 1, renderedImages: 2, reusedImages: 0),
                                           renderSeconds: seconds, totalSeconds: seconds))
        }
        let histogram = metrics.snapshot().renderDuration
        #expect(histogram.count == 4)
        #expect(histogram.cumulativeCounts[0] == 1)                       // ≤ 0.01
        #expect(histogram.cumulativeCounts[2] == 2)                       // ≤ 0.05
        #expect(histogram.cumulativeCounts[4] == 3)                       // ≤ 0.25
        #expect(histogram.cumulativeCounts.last == 3, "20 s lies beyond the last bucket (+Inf is the count)")
        #expect(abs(histogram.sum - 20.235) < 1e-9)
    }

    /// The pid of a child that has exited and been reaped.
    static func pidOfAnExitedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}

/// A place name with a character no font has is never drawn silently.
@Suite struct MissingCharacterReportTests {
    @Test func eachRenderLogsTheRewardAndCountsTheMissingCharacters() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 2, place: { _ in "강남 \u{13000}" })
        let lines = Mutex<[String]>([])
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 1, log: { line in lines.withLock { $0.append(line) } })
        try pool.start()
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 2, timeout: 30))
        pool.stop()
        let metrics = pool.metrics.snapshot()
        #expect(metrics.completed == 2)
        #expect(metrics.rendersMissingCharacters == 2 && metrics.missingCharacters == 2)
        let logged = lines.withLock { $0 }.filter { $0.contains("no font has") }
        #expect(logged.count == 2, "one line per render: \(logged)")
        for reward in try fixture.rewards() {
            #expect(logged.contains { $0.contains("(reward \(reward.id))") && $0.contains("U+13000") })
        }
    }

    @Test func theRealRendererKnowsWhatIsMissingWithoutDrawing() throws {
        let assets = BelayProcess.packageRoot.appendingPathComponent("Assets")
        let renderer = try BelayRewardRenderer(settings: RewardRendererSettings(
            boldFont: FontSettings.debian.bold, regularFont: FontSettings.debian.regular,
            emojiFont: FontSettings.debian.emoji, lastResortFont: FontSettings.debian.lastResort))
        let request = RewardImageRequest(
            holdArtworkPath: assets.appendingPathComponent("holds/crimp-silver.png").path,
            backgroundPath: assets.appendingPathComponent("backgrounds/alpine-ridges.png").path,
            topColor: "#1E3C72", bottomColor: "#2A5298", placeName: "صالة 渋谷 \u{13000} 🧗", dateText: "2026.11.29 (일)")
        #expect(try renderer.contentKeys(for: request).missingCharacters == ["\u{13000}"])
        var covered = request
        covered.placeName = "صالة 渋谷 🧗"
        #expect(try renderer.contentKeys(for: covered).missingCharacters.isEmpty)
    }
}
