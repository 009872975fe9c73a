import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// Runs the backfill inside `belay serve` on a `BackfillSchedule`, on its own thread.
///
/// Each run goes through the same lease as `belay backfill`, so a scheduled run while a
/// cron run is going is skipped (and logged), never doubled. `stop()` cancels a run in
/// progress after the jobs in hand and waits for the thread.
public final class BackfillScheduler: Sendable {
    /// The schedule it follows.
    public let schedule: BackfillSchedule
    private let runner: BackfillRunner
    private let options: BackfillOptions
    private let clock: any TimeSource
    private let log: @Sendable (String) -> Void
    private let afterRun: @Sendable () -> Void
    private let checkInterval: TimeInterval
    private let signal = WakeSignal()
    private let cancellation = BackfillCancellation()
    private let state = Mutex(SchedulerState())
    private let done = DispatchSemaphore(value: 0)

    private struct SchedulerState {
        var started = false
        var lastReport: BackfillReport?
        var runs = 0
    }

    /// - Parameters:
    ///   - options: of every run (purpose `belay serve (scheduled backfill)` by default).
    ///   - clock: tells the time for the schedule (inject one in tests).
    ///   - checkInterval: the longest the thread sleeps before looking at the clock again,
    ///     so a clock that jumps (or a machine that slept) is noticed.
    ///   - log: one line when a run starts, ends, is skipped or fails.
    ///   - afterRun: called after each run that was not refused, e.g. to wake the server's
    ///     render workers for the jobs it queued (with `options.jobs` 0).
    public init(schedule: BackfillSchedule, runner: BackfillRunner,
                options: BackfillOptions = BackfillOptions(jobs: 1, purpose: "belay serve (scheduled backfill)"),
                clock: any TimeSource = SystemTimeSource(), checkInterval: TimeInterval = 30,
                log: @escaping @Sendable (String) -> Void = { _ in }, afterRun: @escaping @Sendable () -> Void = {}) {
        self.schedule = schedule
        self.runner = runner
        self.options = options
        self.clock = clock
        self.checkInterval = max(checkInterval, 0.01)
        self.log = log
        self.afterRun = afterRun
    }

    /// Starts the scheduling thread; does nothing when the schedule is `off` or it already started.
    public func start() {
        guard schedule != .off else {
            log("backfill: no schedule (set backfill.daily_at or backfill.every_minutes to run it from the server)")
            return
        }
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        log("backfill: scheduled \(schedule.summary)")
        let startedAt = clock.now()
        let thread = Thread { [self] in
            defer { done.signal() }
            var last = startedAt
            while !signal.isClosed {
                guard let next = schedule.nextRun(after: last) else { return }
                // Wait in steps so that a changed clock (or a machine that slept) is noticed.
                while !signal.isClosed, clock.now() < next {
                    signal.wait(since: signal.mark, timeout: min(max(next.timeIntervalSince(clock.now()), 0.01), checkInterval),
                                ignoringNotify: true)
                }
                if signal.isClosed { return }
                last = clock.now()
                runOnce()
            }
        }
        thread.name = "belay-backfill-scheduler"
        thread.start()
    }

    /// Runs one backfill now on the calling thread (also what the schedule does).
    /// - Returns: its report, or nil when another backfill held the lease or it failed (logged).
    @discardableResult
    public func runOnce() -> BackfillReport? {
        log("backfill: scheduled run starting")
        do {
            let report = try runner.run(options, cancellation: cancellation)
            state.withLock {
                $0.lastReport = report
                $0.runs += 1
            }
            afterRun()
            log("backfill: awarded \(report.awarded), queued \(Plural.counted(report.queued.total, "render")), rendered \(report.rendered), "
                + "skipped \(report.skipped), failed \(report.failed), in \(String(format: "%.1f", report.durationSeconds)) s"
                + (report.reclaimed > 0 ? "; took back \(report.reclaimed) job(s) of a dead process" : "")
                + (report.runningElsewhere > 0 ? "; \(report.runningElsewhere) job(s) running in another worker" : "")
                + (report.stoppedEarly.map { "; stopped early: \($0)" } ?? ""))
            return report
        } catch let error as PipelineError where error.leaseHolder != nil {
            log("backfill: skipped this run: \(error)")
        } catch {
            log("backfill: the scheduled run failed: \(error)")
        }
        return nil
    }

    /// The report of the last scheduled run that completed, if any.
    public var lastReport: BackfillReport? { state.withLock { $0.lastReport } }

    /// Cancels a run in progress (after the jobs in hand) and ends the thread.
    public func stop() {
        cancellation.cancel()
        signal.close()
        let started = state.withLock { $0.started }
        if started { done.wait() }
    }
}
