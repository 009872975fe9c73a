import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// Prunes old check-in bookkeeping (`CheckInRetention`), finished webhook deliveries
/// (`WebhookRetention`) and old share events (`ShareEventRetention`, counted first) inside
/// `belay serve`, on its own thread: once at start, then every `interval` seconds by `clock`.
/// Each prunes in small batches, each its own short write.
///
/// Runs whatever the backfill schedule says (it has none by default). A failed run is
/// logged and tried again at the next interval. `stop()` ends the thread after the batch
/// in hand.
public final class RetentionScheduler: Sendable {
    private let retention: CheckInRetention
    private let webhooks: WebhookRetention?
    private let shares: ShareEventRetention?
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
        var lastWebhookReport: WebhookPruneReport?
        var lastShareReport: ShareEventPruneReport?
    }

    /// - Parameters:
    ///   - webhooks: pruning of the webhook outbox, when it is done here.
    ///   - shares: pruning of share events, when it is done here.
    ///   - interval: seconds between runs by `clock` (an hour by default).
    ///   - clock: tells the time (inject one in tests).
    ///   - checkInterval: the longest the thread sleeps before looking at the clock again,
    ///     so a clock that jumps (or a machine that slept) is noticed.
    ///   - log: one line per run that deleted something, and per failure.
    public init(retention: CheckInRetention, webhooks: WebhookRetention? = nil, shares: ShareEventRetention? = nil,
                interval: TimeInterval = 3_600, clock: any TimeSource = SystemTimeSource(),
                checkInterval: TimeInterval = 60, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.retention = retention
        self.webhooks = webhooks
        self.shares = shares
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

    /// Prunes once now on the calling thread (also what the schedule does): check-in records,
    /// then the webhook outbox, then share events; one failing does not stop the others.
    /// - Returns: what was deleted of check-in records, or nil when the database failed (logged).
    @discardableResult
    public func runOnce() -> CheckInPruneReport? {
        defer { pruneWebhooksAndShares() }
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

    private func pruneWebhooksAndShares() {
        if let webhooks {
            do {
                let report = try webhooks.prune()
                state.withLock { $0.lastWebhookReport = report }
                if report.total > 0 {
                    log("retention: pruned \(report.deliveries) finished webhook delivery row(s) and \(report.events) webhook event(s) older than \(webhooks.retentionDays) day(s)")
                }
            } catch {
                log("retention: pruning webhook deliveries older than \(webhooks.retentionDays) day(s) failed, will try again in \(Int(interval)) s: \(error)")
            }
        }
        if let shares {
            do {
                let report = try shares.prune()
                state.withLock { $0.lastShareReport = report }
                if report.events > 0 {
                    log("retention: counted \(report.events) share event(s) older than \(shares.retentionDays) day(s) into \(report.days) daily total(s) and pruned them")
                }
            } catch {
                log("retention: pruning share events older than \(shares.retentionDays) day(s) failed, will try again in \(Int(interval)) s: \(error)")
            }
        }
    }

    /// What the last completed run deleted of the webhook outbox.
    public var lastWebhookReport: WebhookPruneReport? { state.withLock { $0.lastWebhookReport } }

    /// What the last completed run pruned of share events.
    public var lastShareReport: ShareEventPruneReport? { state.withLock { $0.lastShareReport } }

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
