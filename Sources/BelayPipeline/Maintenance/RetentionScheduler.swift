import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// Prunes old check-in bookkeeping (`CheckInRetention`) inside `belay serve`, on its own
/// thread: once at start, then every `interval` seconds by `clock`.
///
/// Runs whatever the backfill schedule says (it has none by default). A failed run is
/// logged and tried again at the next interval. `stop()` ends the thread after the batch
/// in hand.
public final class RetentionScheduler: Sendable {
    private let retention: CheckInRetention
    private let interval: TimeInterval
    private let clock: any TimeSource
    private let checkInterval: TimeInterval
    private let log: @Sendable (String) -> Void
    private let signal = WakeSignal()
    private let state = Mutex(SchedulerState())
    private let done = DispatchSemaphore(value: 0)

    private struct SchedulerState {
        var started = false
        /// The thread ran and `stop` has not waited for it yet.
        var threadToJoin = false
        var runs = 0
        var lastReport: CheckInPruneReport?
    }

    /// - Parameters:
    ///   - interval: seconds between runs by `clock` (an hour by default).
    ///   - clock: tells the time (inject one in tests).
    ///   - checkInterval: the longest the thread sleeps before looking at the clock again,
    ///     so a clock that jumps (or a machine that slept) is noticed.
    ///   - log: one line per run that deleted something, and per failure.
    public init(retention: CheckInRetention, interval: TimeInterval = 3_600, clock: any TimeSource = SystemTimeSource(),
                checkInterval: TimeInterval = 60, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.retention = retention
        self.interval = max(interval, 1)
        self.clock = clock
        self.checkInterval = max(checkInterval, 0.01)
        self.log = log
    }

    /// Starts the thread (the first run happens at once); does nothing the second time.
    public func start() {
        let first = state.withLock { state -> Bool in
            guard !state.started else { return false }
            state.started = true
            state.threadToJoin = true
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in
            defer { done.signal() }
            while !signal.isClosed {
                runOnce()
                let next = clock.now().addingTimeInterval(interval)
                while !signal.isClosed, clock.now() < next {
                    signal.wait(since: signal.mark, timeout: min(max(next.timeIntervalSince(clock.now()), 0.01), checkInterval),
                                ignoringNotify: true)
                }
            }
        }
        thread.name = "belay-retention"
        thread.start()
    }

    /// Prunes once now on the calling thread (also what the schedule does).
    /// - Returns: what was deleted, or nil when the database failed (logged).
    @discardableResult
    public func runOnce() -> CheckInPruneReport? {
        do {
            let report = try retention.prune()
            state.withLock {
                $0.runs += 1
                $0.lastReport = report
            }
            if report.total > 0 {
                log("retention: pruned \(report.idempotencyKeys) check-in idempotency key(s) and \(report.attempts) wrong-code counter(s) older than \(retention.retentionDays) day(s)")
            }
            return report
        } catch {
            log("retention: pruning check-in records older than \(retention.retentionDays) day(s) failed, will try again in \(Int(interval)) s: \(error)")
            return nil
        }
    }

    /// How many runs completed.
    public var runs: Int { state.withLock { $0.runs } }

    /// What the last completed run deleted.
    public var lastReport: CheckInPruneReport? { state.withLock { $0.lastReport } }

    /// Ends the thread; safe to call more than once and before `start`.
    public func stop() {
        signal.close()
        let join = state.withLock { state -> Bool in
            state.started = true   // a later start() does nothing
            defer { state.threadToJoin = false }
            return state.threadToJoin
        }
        if join { done.wait() }
    }
}
