import BelayDomain
@testable import BelayPipeline
import BelayRender
import BelayTestSupport
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

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
        // A job whose story was not stored yet recorded its sticker first, then its story.
        #expect(metrics.stickersFirst > 0)
        #expect(metrics.jobDuration.count == 12 + metrics.stickersFirst)
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

    /// `render.workers` 0 (an API node on PostgreSQL beside `belay worker` nodes) renders
    /// nothing: it used to start one worker anyway, which took cores from the node's requests.
    @Test func aPoolOfNoWorkersMakesNoRendererAndLeavesTheQueueAlone() throws {
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 2)
        let renderersMade = Atomic(0)
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: {
            renderersMade.add(1, ordering: .relaxed)
            return try fixture.rendererFactory()
        }, workers: 0)
        try pool.start()
        pool.notify()
        // A worker would have claimed a job by now (they take milliseconds here).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(renderersMade.load(ordering: .relaxed) == 0)
        #expect(!pool.isRunning)
        let counts = try pool.queueCounts()
        #expect(counts.queued == 2 && counts.running == 0 && counts.done == 0)
        pool.stop()
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .pending })
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
        // Two claims each (the dead worker's, this pool's), and one more for a story that
        // followed its sticker.
        let attempts = try claimed.map { try fixture.domain.renderJobs.job(id: $0.id).attempts }
        #expect(attempts.reduce(0, +) == 2 * 2 + pool.metrics.snapshot().stickersFirst,
                "the dead worker's claim counts as an attempt, as an expired lease does: \(attempts)")
    }

    @Test func jobsOfAnEarlierProcessWithThisPidAreTakenBackAtStart() throws {
        // A server restarted in a container is pid 1 again: only its start time differs.
        let fixture = try PipelineFixture()
        try fixture.history(meetups: 1, members: 2)
        let earlier = WorkerIdentity(host: "node-1", pid: 1, startTime: 1_000)
        let restarted = WorkerIdentity(host: "node-1", pid: 1, startTime: 2_000)
        #expect(restarted.knowsIsGone(earlier))
        #expect(!restarted.knowsIsGone(restarted), "a process is never gone to itself")
        #expect(!restarted.knowsIsGone(WorkerIdentity(host: "node-1", pid: 1)), "without a start time it may be this process")
        #expect(!restarted.knowsIsGone(WorkerIdentity(host: "node-2", pid: 1, startTime: 1_000)), "another host's process")
        let claimed = try fixture.domain.renderJobs.claim(owner: earlier.owner("render-0"), limit: 2)
        #expect(claimed.count == 2)

        let log = LogLines()
        let pool = RenderWorkerPool(service: fixture.service, queue: fixture.domain.renderJobs, rendererFactory: fixture.rendererFactory,
                                    workers: 1, identity: restarted, log: { log.append($0) })
        try pool.start()
        defer { pool.stop() }
        pool.notify()
        #expect(pool.metrics.waitForFinishedJobs(atLeast: 2, timeout: 30), "the jobs did not wait out their 60 s lease")
        #expect(try fixture.rewards().allSatisfy { $0.renderStatus == .ready })
        #expect(log.all.contains("render: took back 2 job(s) left running by a process on this host that is gone"))
    }

    @Test func aKilledProcessNotYetReapedOrAReusedPidIsGone() throws {
        let zombie = try UnreapedProcess()
        #expect(zombie.isZombie)
        #expect(kill(zombie.pid, 0) == 0, "signals still reach a zombie")
        let here = WorkerIdentity.current
        #expect(here.knowsIsGone(WorkerIdentity(host: here.host, pid: zombie.pid)))
        // Owners written by an older version (`host:pid:name`) are still understood.
        let old = try #require(WorkerIdentity.parse(owner: "\(here.host):\(zombie.pid):render-0"))
        #expect(old.startTime == nil && here.knowsIsGone(old))
        // A live child (`cat` waiting for its input) with its real start time, and with another.
        let live = Process()
        live.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Pipe()
        live.standardInput = input
        try live.run()
        defer {
            try? input.fileHandleForWriting.close()
            live.waitUntilExit()
        }
        let started = try #require(WorkerIdentity.parse(owner: WorkerIdentity(host: here.host, pid: live.processIdentifier,
            startTime: ProcessStatus.read(pid: live.processIdentifier)?.startTime).owner("x")))
        #expect(started.startTime != nil)
        #expect(!here.knowsIsGone(started), "a live process with its own start time")
        #expect(here.knowsIsGone(WorkerIdentity(host: here.host, pid: live.processIdentifier, startTime: UInt64.max)),
                "the pid now belongs to a process that started at another time")
        zombie.reap()
        #expect(here.knowsIsGone(WorkerIdentity(host: here.host, pid: zombie.pid)))
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
        let renderer = try BelayRewardRenderer(settings: BuiltInSettings.render())
        let request = PipelineFixture.assetsRequest(hold: "crimp-silver", background: "alpine-ridges", place: "صالة 渋谷 \u{13000} 🧗")
        #expect(try renderer.contentKeys(for: request).missingCharacters == ["\u{13000}"])
        var covered = request
        covered.placeName = "صالة 渋谷 🧗"
        #expect(try renderer.contentKeys(for: covered).missingCharacters.isEmpty)
    }
}
