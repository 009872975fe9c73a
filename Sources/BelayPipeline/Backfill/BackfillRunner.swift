import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// The reward backfill: makes the data whole again after imports, template changes, failed
/// renders and crashes.
///
/// A run, in order:
/// 1. takes the `backfill` lease (one run at a time across every process; renewed while
///    running; a dead holder's lease runs out, and a holder on this host whose process is
///    gone is taken over at once);
/// 2. gives every checked-in attendance in scope that lacks one its reward (same policy
///    and determinism as a live check-in), queueing its render;
/// 3. queues renders for rewards whose images are missing, made with an older template
///    version, gone from disk, or failed and due for another round (`FailedRenderRetryPolicy`);
/// 4. renders every due job in scope with `jobs` workers (each its own renderer), failed
///    attempts being retried by the queue with back-off until its attempt limit.
///
/// Every step commits as it goes and skips what is done, so a run killed half-way is
/// finished by the next run without redoing work. Safe beside `belay serve`: both claim
/// jobs from the same queue with leases.
public final class BackfillRunner: Sendable {
    /// The lease's name in the `leases` table.
    public static let leaseName = "backfill"

    private let domain: DomainServices
    private let service: RenderService
    private let rendererFactory: RewardImageRendererFactory
    private let identity: WorkerIdentity
    private let leaseDuration: TimeInterval
    private let retryPolicy: FailedRenderRetryPolicy
    /// Counters of every job this runner processed (the server shows them in `/metrics`).
    public let metrics: RenderMetrics

    /// - Parameters:
    ///   - leaseDuration: seconds the backfill lease lasts without renewal (renewed every third of it).
    ///   - retryPolicy: when failed rewards get another round of render attempts.
    public init(domain: DomainServices, service: RenderService, rendererFactory: @escaping RewardImageRendererFactory,
                identity: WorkerIdentity = .current, leaseDuration: TimeInterval = 30,
                retryPolicy: FailedRenderRetryPolicy = FailedRenderRetryPolicy(), metrics: RenderMetrics = RenderMetrics()) {
        self.domain = domain
        self.service = service
        self.rendererFactory = rendererFactory
        self.identity = identity
        self.leaseDuration = max(leaseDuration, 3)
        self.retryPolicy = retryPolicy
        self.metrics = metrics
    }

    /// What a run with `options` would do now; changes nothing (no lease is taken).
    /// - Throws: `PipelineError` when no renderer can be made; `DomainError` when the database fails.
    public func plan(_ options: BackfillOptions) throws -> BackfillPlan {
        try options.validate()
        let renderer = try makeRenderer()
        let limit = options.limit ?? .max
        let toAward = min(try domain.backfill.missingRewardCount(scope: options.scope), limit)
        let needs = try domain.backfill.renderNeeds(templateVersion: renderer.templateVersion, scope: options.scope,
                                                    retry: retryPolicy, limit: limit, fileExists: service.rowFileExists)
        let state = try domain.backfill.queueState(scope: options.scope)
        let lease = try domain.leases.current(Self.leaseName).flatMap { lease in
            lease.expiresAt > domain.clock.now() && !identity.knowsIsGone(Self.holder(of: lease))
                ? lease.holderDescription : nil
        }
        return BackfillPlan(rewardsToAward: toAward, rendersToQueue: needs, jobsInFlight: state.inFlight,
                            templateVersion: renderer.templateVersion, leaseHolder: lease)
    }

    /// Runs the backfill (see the type's description).
    /// - Parameters:
    ///   - cancellation: stops the run after the jobs in hand when cancelled.
    ///   - progress: called after each step of work, from the calling thread or a worker thread.
    /// - Returns: what was done; `stoppedEarly` says why a run did not finish (the data
    ///   directory refused writes, the lease was lost, it was cancelled).
    /// - Throws: `PipelineError` when another backfill holds the lease (`leaseHolder` names
    ///   it) or no renderer can be made; `DomainError` when the database fails.
    public func run(_ options: BackfillOptions, cancellation: BackfillCancellation = BackfillCancellation(),
                    progress: @escaping @Sendable (BackfillProgress) -> Void = { _ in }) throws -> BackfillReport {
        try options.validate()
        AllocatorTuning.apply()
        let started = SystemTimeSource.monotonicNanoseconds()
        // One renderer per job; with jobs 0 one is still made, for its template version.
        let contexts = try (0..<max(options.jobs, 1)).map { index in
            RenderWorkerContext(renderer: try makeRenderer(), owner: identity.owner("backfill-\(index)"))
        }
        let claimant = LeaseClaimant(holderID: identity.owner("\(UInt32.random(in: 0 ... .max))"), host: identity.host,
                                     pid: identity.pid, purpose: options.purpose)
        switch try domain.leases.acquire(Self.leaseName, as: claimant, duration: leaseDuration, isGone: { lease in
            identity.knowsIsGone(Self.holder(of: lease))
        }) {
        case let .heldByOther(lease):
            throw PipelineError(kind: .backfillLeaseHeld(lease))
        case .acquired:
            break
        }
        let stop = RunStop(cancellation: cancellation)
        let renewer = LeaseRenewer(leases: domain.leases, holderID: claimant.holderID, duration: leaseDuration) {
            stop.request(PipelineError(kind: .backfillLeaseLost).description)
        }
        renewer.start()
        defer {
            renewer.stop()
            _ = try? domain.leases.release(Self.leaseName, holderID: claimant.holderID)
        }

        var report = BackfillReport()
        report.reclaimed = try RenderWorkerPool.reclaimAbandonedJobs(queue: domain.renderJobs, identity: identity)
        try award(options, report: &report, stop: stop, progress: progress)
        if !stop.isRequested {
            let remaining = options.limit.map { max($0 - report.awarded, 0) } ?? .max
            report.queued = try domain.backfill.enqueueNeededRenders(
                templateVersion: contexts[0].renderer.templateVersion, scope: options.scope, retry: retryPolicy,
                limit: remaining, fileExists: service.rowFileExists)
        }
        if !stop.isRequested, options.jobs > 0 {
            render(options, contexts: contexts, report: &report, stop: stop, progress: progress)
        }
        let state = try domain.backfill.queueState(scope: options.scope)
        report.waitingForRetry = state.waiting
        report.nextRetryAt = state.nextRetryAt
        report.runningElsewhere = state.running
        report.runningElsewhereUntil = state.runningLeaseEndsAt
        report.stoppedEarly = stop.reason
        report.durationSeconds = Double(SystemTimeSource.monotonicNanoseconds() - started) / 1e9
        return report
    }

    /// The process holding `lease`: from its holder id when that carries the start time.
    private static func holder(of lease: Lease) -> WorkerIdentity {
        WorkerIdentity.parse(owner: lease.holderID).flatMap { $0.host == lease.host && $0.pid == lease.pid ? $0 : nil }
            ?? WorkerIdentity(host: lease.host, pid: lease.pid)
    }

    private func makeRenderer() throws -> any RewardImageRenderer {
        do {
            return try rendererFactory()
        } catch {
            throw PipelineError(kind: .rendererUnavailable(message: "\(error)"))
        }
    }

    /// Step 2: rewards for checked-in attendances that lack one, in batches that commit.
    private func award(_ options: BackfillOptions, report: inout BackfillReport, stop: RunStop,
                       progress: @Sendable (BackfillProgress) -> Void) throws {
        var remaining = options.limit ?? .max
        let total = min(try domain.backfill.missingRewardCount(scope: options.scope), remaining)
        guard total > 0 else { return }
        progress(BackfillProgress(phase: .awarding, completed: 0, total: total, failed: 0))
        while remaining > 0, !stop.isRequested {
            let batch = try domain.rewards.awardMissingRewards(since: options.scope.checkedInSince, meetupID: options.scope.meetupID,
                                                               limit: min(500, remaining))
            report.awarded += batch.awarded.count
            report.skippedWithoutCatalog = max(report.skippedWithoutCatalog, batch.skippedWithoutCatalog)
            remaining -= batch.awarded.count
            progress(BackfillProgress(phase: .awarding, completed: report.awarded, total: total, failed: 0))
            if batch.awarded.isEmpty || !batch.hasMore { break }
        }
    }

    /// Step 4: `jobs` workers claim due jobs in scope until there are none (or the limit,
    /// or a stop).
    private func render(_ options: BackfillOptions, contexts: [RenderWorkerContext], report: inout BackfillReport,
                        stop: RunStop, progress: @escaping @Sendable (BackfillProgress) -> Void) {
        let initial = (try? domain.backfill.queueState(scope: options.scope).due) ?? 0
        let budget = Mutex(options.limit.map { max($0, 0) } ?? .max)
        let waitBudget = Mutex(max(options.maxRetryWait, 0))
        let tally = Mutex(Tally(total: min(initial, options.limit ?? .max)))
        if initial > 0 { progress(BackfillProgress(phase: .rendering, completed: 0, total: tally.withLock { $0.total }, failed: 0)) }

        let group = DispatchGroup()
        for context in contexts {
            group.enter()
            let box = ContextBox(context)
            let metrics = metrics
            let thread = Thread { [self] in
                defer { group.leave() }
                let renderer = PipelinedRenderer(service: service, context: box.context, storageRetryDelay: 0) { _, jobReport in
                    metrics.record(jobReport)
                    let update = tally.withLock { tally -> BackfillProgress in
                        tally.add(jobReport)
                        return BackfillProgress(phase: .rendering, completed: tally.finished, total: max(tally.total, tally.finished),
                                                failed: tally.failedWillRetry + tally.failed)
                    }
                    progress(update)
                    if case let .postponed(_, reason, _) = jobReport.outcome {
                        stop.request(reason + ". The backfill stopped; the remaining rewards stay pending. Run it again once the data directory is writable")
                    }
                }
                defer { renderer.drain() }
                while !stop.isRequested {
                    guard budget.withLock({ remaining -> Bool in
                        guard remaining > 0 else { return false }
                        remaining -= 1
                        return true
                    }) else { return }
                    let job: RenderJob
                    do {
                        if let claimed = try domain.renderJobs.claim(owner: box.context.owner, limit: 1, scope: options.scope).first {
                            job = claimed
                        } else {
                            // A failed attempt may still be on its way back to the queue, or
                            // waiting out a short back-off: look again after the commit in
                            // hand, and after the back-off while the wait budget lasts.
                            renderer.drain()
                            guard let retried = try claimAfterBackOff(owner: box.context.owner, options: options,
                                                                      waitBudget: waitBudget, stop: stop) else { return }
                            job = retried
                        }
                    } catch {
                        stop.request("the database failed while claiming a render job: \(error)")
                        return
                    }
                    renderer.handle(job)
                }
            }
            thread.name = "belay-\(context.owner)"
            thread.stackSize = 4 << 20
            thread.start()
        }
        group.wait()
        let final = tally.withLock { $0 }
        report.rendered = final.rendered
        report.reused = final.reused
        report.imagesRendered = final.imagesRendered
        report.failedWillRetry = final.failedWillRetry
        report.failed = final.failed
        report.postponed = final.postponed
        report.abandoned = final.abandoned
        report.renderSeconds = final.renderSeconds
        report.renderCPUSeconds = final.renderCPUSeconds
    }
}

extension BackfillRunner {
    /// Claims a job in scope, waiting for the earliest back-off to pass when it does so
    /// within the run's remaining wait budget (shared by the workers), and claiming again when
    /// a job became due since the claim looked (`AfterEmptyClaim`).
    /// - Returns: the job, or nil when none is due within the budget (or the run stops).
    fileprivate func claimAfterBackOff(owner: String, options: BackfillOptions, waitBudget: borrowing Mutex<TimeInterval>,
                                       stop: RunStop) throws -> RenderJob? {
        while !stop.isRequested {
            if let job = try domain.renderJobs.claim(owner: owner, limit: 1, scope: options.scope).first { return job }
            let state = try domain.backfill.queueState(scope: options.scope)
            guard case let .claimAgain(delay) = AfterEmptyClaim(due: state.due, nextRetryAt: state.nextRetryAt,
                                                                  now: domain.clock.now()) else { return nil }
            let granted = waitBudget.withLock { remaining -> Bool in
                guard delay <= remaining else { return false }
                remaining -= delay
                return true
            }
            guard granted else { return nil }
            stop.sleep(delay)
        }
        return nil
    }
}

/// Counts of the rendering step.
private struct Tally {
    var total: Int
    var rendered = 0
    var reused = 0
    var imagesRendered = 0
    var failedWillRetry = 0
    var failed = 0
    var postponed = 0
    var abandoned = 0
    var renderSeconds = 0.0
    var renderCPUSeconds = 0.0

    var finished: Int { rendered + reused + failedWillRetry + failed + postponed + abandoned }

    mutating func add(_ report: RenderJobReport) {
        renderSeconds += report.renderSeconds
        renderCPUSeconds += report.renderCPUSeconds
        switch report.outcome {
        case let .completed(_, rendered, _):
            if rendered > 0 { self.rendered += 1 } else { reused += 1 }
            imagesRendered += rendered
        case let .stickerStored(_, rendered, _):
            // Not made by the backfill, which renders both images at once.
            imagesRendered += rendered
        case let .failed(_, _, retryAt):
            if retryAt == nil { failed += 1 } else {
                failedWillRetry += 1
                total += 1  // the retry, when due within this run, is another job to finish
            }
        case .postponed: postponed += 1
        case .abandoned: abandoned += 1
        }
    }
}

/// Why a run stops early; the first reason wins.
private final class RunStop: Sendable {
    private let state = Mutex<String?>(nil)
    private let cancellation: BackfillCancellation

    init(cancellation: BackfillCancellation) { self.cancellation = cancellation }

    func request(_ reason: String) {
        state.withLock { if $0 == nil { $0 = reason } }
    }

    var isRequested: Bool { reason != nil }

    /// Sleeps `seconds`, or less when the run is cancelled.
    func sleep(_ seconds: TimeInterval) {
        let deadline = Deadline(after: seconds)
        while !isRequested, !deadline.hasPassed {
            cancellation.waitForCancel(timeout: min(deadline.secondsLeft, 0.25))
        }
    }

    var reason: String? {
        if let reason = state.withLock({ $0 }) { return reason }
        return cancellation.isCancelled ? "cancelled; run it again to finish (finished work is not redone)" : nil
    }
}

/// Hands a worker's context to its thread.
private final class ContextBox: @unchecked Sendable {
    let context: RenderWorkerContext
    init(_ context: RenderWorkerContext) { self.context = context }
}
