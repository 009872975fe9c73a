import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// The server's render workers: `workers` threads, each with its own renderer (and text
/// engine), claiming jobs from the queue with a lease and rendering them with
/// `RenderService`.
///
/// - Prompt: `notify()` (the store calls it when a commit queued a render job) wakes an idle worker at once;
///   idle workers also look every `pollInterval` seconds, for jobs queued by other
///   processes and retries coming due.
/// - Crash-safe: a claim is atomic and leased; jobs of a process that died are claimed
///   again once their lease runs out, and at `start()` at once when that process ran on
///   this host (its pid is gone).
/// - Graceful: `stop()` lets each worker finish the jobs in hand (at most `jobsPerClaim`),
///   then returns.
public final class RenderWorkerPool: Sendable {
    /// Counters and durations of the jobs this pool processed.
    public let metrics: RenderMetrics
    private let service: RenderService
    private let queue: RenderJobQueue
    private let rendererFactory: RewardImageRendererFactory
    private let workerCount: Int
    private let identity: WorkerIdentity
    private let log: @Sendable (String) -> Void
    private let warmUp: (@Sendable (RenderWorkerContext) -> Void)?
    private let signal = WakeSignal()
    private let state = Mutex(PoolState())

    private struct PoolState {
        var started = false
        var stopped = false
        var running = 0
    }

    private let finished = NSCondition()

    /// - Parameters:
    ///   - workers: threads; defaults to `service.settings.workers`. 0 starts none: an API
    ///     node on PostgreSQL with `render.workers` 0 leaves rendering to `belay worker` nodes.
    ///   - identity: names this process's leases (`host:pid:render-N`).
    ///   - log: one line per notable event (failures, postponements, reclaimed jobs).
    ///   - warmUp: run by each worker on its own thread before it claims anything (to draw a
    ///     throwaway image, so the first real one is as quick as the rest).
    public init(service: RenderService, queue: RenderJobQueue, rendererFactory: @escaping RewardImageRendererFactory,
                workers: Int? = nil, identity: WorkerIdentity = .current, metrics: RenderMetrics = RenderMetrics(),
                log: @escaping @Sendable (String) -> Void = { _ in }, warmUp: (@Sendable (RenderWorkerContext) -> Void)? = nil) {
        self.warmUp = warmUp
        self.service = service
        self.queue = queue
        self.rendererFactory = rendererFactory
        self.workerCount = max(0, workers ?? service.settings.workers)
        self.identity = identity
        self.metrics = metrics
        self.log = log
    }

    /// Makes one renderer per worker, takes back the jobs of dead processes on this host, and
    /// starts the threads.
    /// - Throws: `PipelineError` when a renderer cannot be made (a font is missing) or the
    ///   pool was started before; `DomainError` when the database fails.
    public func start() throws {
        try state.withLock { state in
            guard !state.started else { throw PipelineError(kind: .alreadyStarted) }
            state.started = true
        }
        // For the render buffers; a node of no workers keeps glibc's defaults.
        if workerCount > 0 { AllocatorTuning.apply() }
        var contexts: [RenderWorkerContext] = []
        for index in 0..<workerCount {
            do {
                contexts.append(RenderWorkerContext(renderer: try rendererFactory(), owner: identity.owner("render-\(index)")))
            } catch {
                throw PipelineError(kind: .rendererUnavailable(message: "\(error)"))
            }
        }
        let reclaimed = try Self.reclaimAbandonedJobs(queue: queue, identity: identity)
        if reclaimed > 0 { log("render: took back \(reclaimed) job(s) left running by a process on this host that is gone") }

        state.withLock { $0.running = contexts.count }
        for context in contexts {
            let box = WorkerBox(context)
            let thread = Thread { [self] in
                run(box.context)
                workerEnded()
            }
            thread.name = "belay-\(context.owner)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Wakes an idle worker now: call after committing a transaction that queued a job.
    /// Cheap; safe from any thread, before `start` and after `stop`.
    public func notify() { signal.notify() }

    /// Stops taking jobs, lets every worker finish the job in hand, and returns when all
    /// threads have ended. Safe to call more than once.
    public func stop() {
        let wasStarted = state.withLock { state -> Bool in
            state.stopped = true
            return state.started
        }
        signal.close()
        guard wasStarted else { return }
        finished.lock()
        while state.withLock({ $0.running }) > 0 { finished.wait() }
        finished.unlock()
    }

    /// True between `start` and the end of `stop`.
    public var isRunning: Bool { state.withLock { $0.started && $0.running > 0 } }

    /// How many jobs are in each state right now (queue depth for `/metrics`).
    /// - Throws: `DomainError` when the database fails.
    public func queueCounts() throws -> RenderQueueCounts { try queue.counts() }

    /// Ends the leases of running jobs whose owner is a process on this host that is gone.
    /// - Returns: how many jobs were given back to the queue.
    static func reclaimAbandonedJobs(queue: RenderJobQueue, identity: WorkerIdentity) throws -> Int {
        var count = 0
        for owner in try queue.runningOwners() {
            guard let other = WorkerIdentity.parse(owner: owner), identity.knowsIsGone(other) else { continue }
            count += try queue.expireLeases(owner: owner)
        }
        return count
    }

    private func run(_ context: RenderWorkerContext) {
        let pollInterval = service.settings.pollInterval
        let storageRefused = Mutex(false)
        let metrics = metrics, log = log, signal = signal
        let renderer = PipelinedRenderer(service: service, context: context, storyLater: true,
                                         commitsInFlight: Self.jobsPerClaim) { job, report in
            metrics.record(report)
            switch report.outcome {
            case let .completed(rewardID, _, _), let .stickerStored(rewardID, _, _):
                // The story went back to the queue: a worker waiting for work takes it.
                if case .stickerStored = report.outcome { signal.notify() }
                if !report.missingCharacters.isEmpty {
                    log("render: job \(job.id) (reward \(rewardID)) left out characters no font has: \(CodePoints.describe(report.missingCharacters))")
                }
            case let .failed(rewardID, reason, retryAt):
                log("render: job \(job.id) (reward \(rewardID)) failed\(retryAt == nil ? " for good" : ", will retry"): \(reason)")
            case let .postponed(rewardID, reason, _):
                log("render: job \(job.id) (reward \(rewardID)) postponed: \(reason)")
                storageRefused.withLock { $0 = true }
            case let .abandoned(rewardID, reason):
                log("render: job \(job.id) (reward \(rewardID)): \(reason)")
            }
        }
        defer { renderer.drain() }
        if !signal.isClosed { warmUp?(context) }
        while !signal.isClosed {
            if storageRefused.withLock({ refused in defer { refused = false }; return refused }) {
                // The data directory refuses writes: pause this worker instead of spinning
                // through the queue; stop() still ends the pause at once.
                renderer.drain()
                signal.wait(since: signal.mark, timeout: min(service.settings.storageRetryDelay, 10), ignoringNotify: true)
                continue
            }
            let mark = signal.mark
            let jobs: [RenderJob]
            do {
                jobs = try queue.claim(owner: context.owner, limit: Self.jobsPerClaim)
                guard !jobs.isEmpty else {
                    signal.wait(since: mark, timeout: pollInterval)
                    continue
                }
            } catch {
                log("render: \(context.owner) could not claim a job: \(error)")
                signal.wait(since: mark, timeout: pollInterval)
                continue
            }
            for job in jobs { renderer.handle(job) }
        }
    }

    /// Jobs one claim takes (and commits a worker runs at once): a burst of check-ins costs a
    /// claim per few stickers, while no worker holds more than a moment's work another could do.
    static let jobsPerClaim = 4

    private func workerEnded() {
        finished.lock()
        state.withLock { $0.running -= 1 }
        finished.broadcast()
        finished.unlock()
    }
}

/// Hands a worker's context to its thread; the context is used only by that thread.
private final class WorkerBox: @unchecked Sendable {
    let context: RenderWorkerContext
    init(_ context: RenderWorkerContext) { self.context = context }
}
