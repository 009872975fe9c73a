import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// The background thread that delivers push notices: it claims due notices (up to a batch),
/// drops those past their use, sends the rest to APNs or FCM (each service's share of the
/// batch at once, as HTTP/2 streams), and records the outcomes in one transaction; every few
/// seconds it also queues what time made due (reminders, check-in open, offers running out)
/// and, hourly, deletes old finished notices. When nothing is due it waits until the next
/// notice is, at most `pollSeconds`, or until `notify`.
///
/// A notice claimed by a process that dies is due again when its lease runs out: nothing is
/// lost, and a repeat carries the same collapse id, so the phone shows it once.
///
/// Threading: `start` and `stop` from one owner thread; `notify` from any thread.
public final class PushDeliveryWorker: @unchecked Sendable {
    private let service: PushService
    private let gateways: [DevicePlatform: any PushGateway]
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
    /// When the next claim may be made: `gatherSeconds` after a batch that was not full.
    private var nextClaim = Deadline(after: 0)

    /// - Parameters:
    ///   - gateways: the push service of each platform configured; notices to a platform
    ///     without one fail with a reason naming the setting.
    ///   - owner: unique to this process, e.g. `host:pid:push`.
    ///   - gatherSeconds: after a batch that was not full, how long the next claim waits for
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
        self.gateways = gateways
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

    /// Wakes the thread to look for due notices now (after a change that queued some).
    public func notify() {
        thread.wake()
    }

    /// Stops the thread after the batch in hand (bounded by the services' timeouts).
    public func stop() {
        thread.stop()
    }

    /// Queues what is due and sends every due notice on the calling thread, until none is
    /// due or `limit` were attempted (`belay push test`, `belay push deliver`).
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
    /// start, and sends them now on the calling thread (`belay push test`).
    /// - Returns: each notice sent and its outcome.
    /// - Throws: `DomainError.storageFailure`.
    public func sendTest(userID: Int64) throws -> [(PushDelivery, PushOutcome)] {
        let batch = try service.queueTest(userID: userID, heldBy: owner)
        return batch.isEmpty ? [] : try deliver(batch)
    }

    /// One pass of the thread: what time made due, a batch sent; returns how long to wait
    /// (0 when the batch was full: more is waiting).
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
            let gathering = nextClaim.secondsLeft
            if gathering > 0 { return gathering }
            // A read first: an idle server claims (writes) nothing.
            var due = try service.nextDue()
            if let first = due, first <= clock.now() {
                let batch = try service.claim(owner: owner, limit: batchSize, skipped: log)
                if !batch.isEmpty { _ = try deliver(batch) }
                if batch.count == batchSize {
                    outage.succeeded()
                    return 0
                }
                nextClaim = Deadline(after: gatherSeconds)
                due = try service.nextDue()
            }
            // At least 10 ms: a notice another node is claiming at this moment still reads as due.
            if let due { wait = min(pollSeconds, max(0.01, due.timeIntervalSince(clock.now()))) }
            outage.succeeded()
        } catch {
            outage.failed(error, retryingEvery: pollSeconds)
        }
        return wait
    }

    /// Sends one claimed batch and records what became of each notice.
    private func deliver(_ batch: [PushDelivery]) throws -> [(PushDelivery, PushOutcome)] {
        let now = clock.now()
        var outcomes = [PushOutcome?](repeating: nil, count: batch.count)
        var byPlatform: [DevicePlatform: [Int]] = [:]
        for (index, delivery) in batch.enumerated() {
            if delivery.expiresAt <= now {
                outcomes[index] = .dropped
            } else if gateways[delivery.platform] == nil {
                let setting = delivery.platform == .ios ? "push.apns.key_file" : "push.fcm.service_account_file"
                outcomes[index] = .failed(status: nil, error: "no push service is configured for \(delivery.platform.rawValue) devices (\(setting))")
            } else {
                byPlatform[delivery.platform, default: []].append(index)
            }
        }
        for (platform, indices) in byPlatform {
            guard let gateway = gateways[platform] else { continue }
            for (index, outcome) in zip(indices, gateway.send(indices.map { batch[$0] })) { outcomes[index] = outcome }
        }
        let results = zip(batch, outcomes).map { ($0, $1 ?? .retry(after: nil, status: nil, error: "not sent")) }
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
        return results
    }
}
