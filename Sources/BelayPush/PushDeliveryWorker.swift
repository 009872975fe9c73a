import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// The background thread that delivers push notices: it claims due notices (the highest
/// priority first, up to a window of `batchSize` under way), drops those past their use, starts
/// the rest on APNs or FCM as HTTP/2 streams beside those already under way, and records each
/// answer as it comes (those that come within a few milliseconds of each other in one
/// transaction): a stream that stalls holds only its own notice until its timeout, never the
/// others' outcomes, their retries or the next claims. Every few seconds it also queues what
/// time made due (reminders, check-in open, offers running out) and, hourly, deletes old
/// finished notices. When nothing is due or under way it waits until the next notice is, at
/// most `pollSeconds`, or until `notify`.
///
/// A notice claimed by a process that dies is due again when its lease runs out: nothing is
/// lost, and a repeat carries the same collapse id, so the phone shows it once.
///
/// Threading: `start` and `stop` from one owner thread; `notify` from any thread.
public final class PushDeliveryWorker: @unchecked Sendable {
    /// Answers that come within this long of the first one waited for are recorded with it, in
    /// one transaction: a batch's streams are mostly answered within a few milliseconds of each
    /// other, and each transaction is a write check-ins wait behind.
    static let answerGatherSeconds = 0.02

    private let service: PushService
    private let gateways: [DevicePlatform: any StreamingPushGateway]
    private let clock: any TimeSource
    private let owner: String
    private let pollSeconds: Double
    private let batchSize: Int
    private let gatherSeconds: Double
    private let metrics: PushMetrics
    private let log: @Sendable (String) -> Void
    private let alarm: @Sendable (String) -> Void
    private let outage: OutageLog
    private let thread = BackgroundLoop(name: "belay-push")
    /// The worker thread's own schedule of queueing due notices and pruning old ones.
    private var nextSchedule = Deadline(after: 0)
    private var nextPrune = Deadline(after: 60)
    /// When the next claim may be made: `gatherSeconds` after a claim that was not full.
    private var nextClaim = Deadline(after: 0)
    /// `gatherSeconds` after the last claim: until then, with notices under way, the next claim
    /// waits for half the window to be free, so that answers coming one by one are not each
    /// followed by a claim (a write) of one.
    private var windowRefill = Deadline(after: 0)

    /// - Parameters:
    ///   - gateways: the push service of each platform configured; notices to a platform
    ///     without one fail with a reason naming the setting. A gateway that is not a
    ///     `StreamingPushGateway` is sent whole batches and waited for.
    ///   - owner: unique to this process, e.g. `host:pid:push`.
    ///   - batchSize: the most notices claimed at once, and under way at once.
    ///   - gatherSeconds: after a claim that was not full, how long the next claim waits for
    ///     more. Stickers stored one after another each wake the worker; claimed one at a time,
    ///     each notice cost the database's one writer two writes (its claim and its outcome)
    ///     while check-ins queued behind them. Gathered, a burst's notices go out together, at
    ///     most this much later.
    ///   - alarm: told of each notice given up for good (at error level); `log` when nil.
    public init(service: PushService, gateways: [DevicePlatform: any PushGateway], clock: any TimeSource, owner: String,
                pollSeconds: Double = 0.2, batchSize: Int = 200, gatherSeconds: Double = 0.1, metrics: PushMetrics,
                log: @escaping @Sendable (String) -> Void, alarm: (@Sendable (String) -> Void)? = nil) {
        self.alarm = alarm ?? log
        self.service = service
        self.gateways = gateways.mapValues { $0 as? any StreamingPushGateway ?? WholeBatchGateway($0) }
        self.clock = clock
        self.owner = owner
        self.pollSeconds = max(0.01, pollSeconds)
        self.batchSize = max(1, batchSize)
        self.gatherSeconds = max(0, gatherSeconds)
        self.metrics = metrics
        self.log = log
        outage = OutageLog(subject: "push delivery", log: log)
    }

    public func start() {
        thread.start { [self] in pass() }
    }

    /// Wakes the thread to look for due notices now (after a change that queued some), also
    /// while it waits for answers.
    public func notify() {
        thread.wake()
        for gateway in gateways.values { gateway.interrupt() }
    }

    /// Stops the thread, then waits for the answers of the notices still under way (each
    /// stream bounded by its service's timeout) and records them.
    public func stop() {
        for gateway in gateways.values { gateway.interrupt() }
        thread.stop()
        do {
            while unanswered > 0 { try record(collect(waitingAtMost: pollSeconds)) }
        } catch {
            // Unrecorded, the notices are due again when their lease runs out.
            log("push: the answers of notices under way at shutdown could not be recorded: \(error)")
        }
    }

    /// Queues what is due and sends every due notice on the calling thread, until none is
    /// due or `limit` were attempted (`belay push test`, `belay push deliver`). Not while the
    /// thread runs.
    /// - Returns: each attempted notice and its outcome.
    /// - Throws: `DomainError.storageFailure`.
    public func deliverDue(limit: Int = 10_000) throws -> [(PushDelivery, PushOutcome)] {
        try service.queueScheduled()
        var done: [(PushDelivery, PushOutcome)] = []
        while done.count < limit {
            let batch = try service.claim(owner: owner, limit: min(batchSize, limit - done.count), skipped: log)
            guard !batch.isEmpty else { break }
            done += try deliver(batch)
        }
        return done
    }

    /// Queues a test notice to each of the member's devices, held by this worker from the
    /// start, and sends them now on the calling thread (`belay push test`). Not while the
    /// thread runs.
    /// - Returns: each notice sent and its outcome.
    /// - Throws: `DomainError.storageFailure`.
    public func sendTest(userID: Int64) throws -> [(PushDelivery, PushOutcome)] {
        let batch = try service.queueTest(userID: userID, heldBy: owner)
        return batch.isEmpty ? [] : try deliver(batch)
    }

    /// Notices started on the gateways whose outcome is not recorded yet.
    private var unanswered: Int { gateways.values.reduce(0) { $0 + $1.unanswered } }

    /// One pass of the thread: what time made due; the answers that came, recorded; a claim
    /// when notices are due and the window has room; then, with notices under way, a wait for
    /// their answers (the pass returns 0), else how long the thread may sleep.
    private func pass() -> TimeInterval {
        // Background work, as renders and webhooks are: with check-ins keeping the cores busy
        // they are answered first and the notices follow; with spare CPU nothing changes.
        BackgroundThreadPriority.lowerThisThread()
        var wait = pollSeconds
        do {
            if nextSchedule.hasPassed {
                try service.queueScheduled()
                nextSchedule = Deadline(after: 5)
            }
            if nextPrune.hasPassed {
                try service.prune()
                nextPrune = Deadline(after: 3_600)
            }
            try record(collect(waitingAtMost: 0))
            let gathering = nextClaim.secondsLeft
            if gathering > 0 && unanswered == 0 { return gathering }
            // A read first: an idle server claims (writes) nothing.
            var due = try service.nextDue()
            var claimWait = gathering
            if let first = due, first <= clock.now() {
                let underWay = unanswered
                let room = batchSize - underWay
                let windowReady = underWay == 0 || room * 2 >= batchSize || windowRefill.hasPassed
                if room > 0 && gathering == 0 && windowReady {
                    let batch = try service.claim(owner: owner, limit: room, skipped: log)
                    windowRefill = Deadline(after: gatherSeconds)
                    nextClaim = Deadline(after: batch.count == room ? 0 : gatherSeconds)
                    try start(batch)
                    if batch.count == room && unanswered == 0 {
                        // Answered already (a gateway of whole batches): more are waiting.
                        outage.succeeded()
                        return 0
                    }
                    due = try service.nextDue()
                } else if room > 0 {
                    claimWait = max(gathering, windowReady ? 0 : windowRefill.secondsLeft)
                } else {
                    claimWait = pollSeconds
                }
            }
            // At least 10 ms: a notice another node is claiming at this moment still reads as due.
            if let due { wait = min(pollSeconds, max(0.01, due.timeIntervalSince(clock.now()), claimWait)) }
            if unanswered > 0 {
                // Wait for answers rather than on the loop: until one comes, a notice falls due
                // (a retry after its Retry-After) or a claim may be made; `notify` cuts it short.
                try record(collect(waitingAtMost: wait))
                outage.succeeded()
                return 0
            }
            outage.succeeded()
        } catch {
            outage.failed(error, retryingEvery: pollSeconds)
        }
        return wait
    }

    /// Starts a claimed batch on the gateways; the notices that need no service (past their
    /// use, or of a platform none is configured for) are recorded at once.
    private func start(_ batch: [PushDelivery]) throws {
        let (decided, byPlatform) = sort(batch)
        for (platform, deliveries) in byPlatform { gateways[platform]?.start(deliveries) }
        try record(decided)
    }

    /// The notices of `batch` decided without a service (past their use, or of a platform none
    /// is configured for), and the rest by platform.
    private func sort(_ batch: [PushDelivery]) -> (decided: [(PushDelivery, PushOutcome)], byPlatform: [DevicePlatform: [PushDelivery]]) {
        var decided: [(PushDelivery, PushOutcome)] = []
        var byPlatform: [DevicePlatform: [PushDelivery]] = [:]
        let now = clock.now()
        for delivery in batch {
            if delivery.expiresAt <= now {
                decided.append((delivery, .dropped))
            } else if gateways[delivery.platform] == nil {
                let setting = delivery.platform == .ios ? "push.apns.key_file" : "push.fcm.service_account_file"
                decided.append((delivery, .failed(status: nil, error: "no push service is configured for \(delivery.platform.rawValue) devices (\(setting))")))
            } else {
                byPlatform[delivery.platform, default: []].append(delivery)
            }
        }
        return (decided, byPlatform)
    }

    /// The answers that came on every gateway. When none has, waits for the first at most
    /// `seconds`; once one came, those that come within `answerGatherSeconds` join it.
    private func collect(waitingAtMost seconds: Double) -> [(PushDelivery, PushOutcome)] {
        var answered: [(PushDelivery, PushOutcome)] = []
        let deadline = Deadline(after: seconds)
        var gathering: Deadline?
        repeat {
            let busy = gateways.values.filter { $0.unanswered > 0 }
            guard !busy.isEmpty else { break }
            let left = gathering?.secondsLeft ?? deadline.secondsLeft
            // One gateway busy: wait on it. Several: take turns in short waits, each gateway
            // having its own connections to wait on.
            let slice = busy.count == 1 ? left : min(left, Self.answerGatherSeconds / 2)
            for (index, gateway) in busy.enumerated() {
                answered += gateway.collect(waitingAtMost: index == busy.count - 1 ? slice : 0)
            }
            if !answered.isEmpty && gathering == nil { gathering = Deadline(after: Self.answerGatherSeconds) }
        } while !(gathering ?? deadline).hasPassed
        return answered
    }

    /// Sends one claimed batch on the calling thread, waits for every answer and records them.
    /// - Returns: each notice of `batch`, in order, with its outcome.
    private func deliver(_ batch: [PushDelivery]) throws -> [(PushDelivery, PushOutcome)] {
        var (results, byPlatform) = sort(batch)
        for (platform, deliveries) in byPlatform {
            guard let gateway = gateways[platform] else { continue }
            results += zip(deliveries, gateway.send(deliveries)).map { ($0, $1) }
        }
        let position = Dictionary(batch.enumerated().map { ($1.noticeID, $0) }, uniquingKeysWith: { first, _ in first })
        results.sort { (position[$0.0.noticeID] ?? 0) < (position[$1.0.noticeID] ?? 0) }
        try record(results)
        return results
    }

    /// Records what became of notices, in one transaction, and says what must be said.
    private func record(_ results: [(PushDelivery, PushOutcome)]) throws {
        guard !results.isEmpty else { return }
        let summary = try service.record(results)
        metrics.record(results, summary: summary, now: clock.now())
        for (noticeID, reason) in summary.givenUp {
            // A notice lost for good, often to an error of the way out (a relay, the network):
            // said at error level so that an operator's alert on the log sees it.
            alarm("push: notice \(noticeID) was given up and will not be sent: \(reason)")
        }
        for (delivery, outcome) in results {
            switch outcome {
            case let .removeDevice(_, reason, _): log("push: device \(delivery.deviceID) removed: \(reason)")
            case let .failed(_, error): log("push: notice \(delivery.noticeID) (\(delivery.kind.rawValue)) to device \(delivery.deviceID) failed: \(error)")
            default: break
            }
        }
    }
}
