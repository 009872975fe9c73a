import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// The background threads that deliver webhooks: each claims the due deliveries at the head
/// of one endpoint's queue (up to the policy's batch size; each subject's in the order its
/// events happened, the subjects taking turns), signs and sends them in that order
/// through the transport, stopping at the first that fails (the rest wait behind it), and
/// records the results in one transaction; when nothing is due it waits `pollSeconds` (or
/// until `notify`, and then at least `quietSeconds` since its last look). Never runs on an
/// HTTP thread. With `lowPriority` the threads run at `BackgroundThreadPriority` (nice 19), so
/// that on a busy machine requests come first and deliveries take the CPU left over (their
/// database writes still go through the writer at its own priority).
///
/// Threading: `start` and `stop` come from one owner thread; `notify` from any thread.
/// Each worker thread has its own lease-owner name, `<ownerPrefix>:webhook-<n>`, so a
/// process that finds the leases of a dead process on the same host (`isGone`) ends them
/// and sends those deliveries again at once.
public final class WebhookDeliveryWorker: @unchecked Sendable {
    private let service: WebhookService
    private let transport: any WebhookTransport
    private let clock: any TimeSource
    private let threadCount: Int
    private let ownerPrefix: String
    private let pollSeconds: TimeInterval
    private let isGone: @Sendable (String) -> Bool
    private let log: @Sendable (String) -> Void
    /// One line when the queue cannot be read, one when it can again.
    private let outage: OutageLog
    private let lowPriority: Bool
    private let quietSeconds: TimeInterval
    private let looks = Atomic<Int>(0)
    private let condition = NSCondition()
    /// Counts `notify` calls; a thread takes it before looking for work and sleeps only while
    /// it is unchanged.
    private let generation = Atomic<UInt64>(0)
    /// Threads in (or about to enter) their wait, under `condition`.
    private let sleepers = Atomic<Int>(0)
    private var stopping = false
    private var running = 0

    /// - Parameters:
    ///   - ownerPrefix: unique to this process, e.g. `host:pid`.
    ///   - isGone: whether a lease owner name belongs to a process known to be dead.
    ///   - lowPriority: run the threads at `BackgroundThreadPriority` (nice 19).
    ///   - quietSeconds: after a look that found nothing due, how long a thread waits before it
    ///     looks again however often it is notified meanwhile: with an endpoint down, every
    ///     check-in's commit notifies, and each look is a query.
    public init(service: WebhookService, transport: any WebhookTransport, clock: any TimeSource, threads: Int,
                ownerPrefix: String, pollSeconds: TimeInterval, isGone: @escaping @Sendable (String) -> Bool,
                lowPriority: Bool = false, quietSeconds: TimeInterval = 0.05, log: @escaping @Sendable (String) -> Void) {
        self.service = service
        self.transport = transport
        self.clock = clock
        self.threadCount = max(1, threads)
        self.ownerPrefix = ownerPrefix
        self.pollSeconds = max(0.01, pollSeconds)
        self.isGone = isGone
        self.lowPriority = lowPriority
        self.quietSeconds = max(0, quietSeconds)
        self.log = log
        outage = OutageLog(subject: "webhook delivery", log: log)
    }

    /// Starts the threads, after taking over the deliveries of dead processes.
    public func start() {
        takeOverDeadOwners()
        condition.lock()
        stopping = false
        running = threadCount
        condition.unlock()
        for index in 0..<threadCount {
            let thread = Thread { [self] in loop(owner: "\(ownerPrefix):webhook-\(index)") }
            thread.name = "belay-webhook-\(index)"
            thread.start()
        }
    }

    /// Wakes idle threads to look for due deliveries now. Called after every check-in's
    /// commit: while no thread sleeps (they are busy with a backlog) it costs two atomic
    /// operations and takes no lock, so a burst of check-ins does not contend with the
    /// workers or wake them once per event.
    public func notify() {
        // Sequentially consistent on both sides: either this sees the sleeper, or the sleeper
        // sees the new generation before it waits (so no notify is lost).
        generation.add(1, ordering: .sequentiallyConsistent)
        guard sleepers.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// How many times the threads have looked for due deliveries since the worker was made.
    public var looksForDueDeliveries: Int { looks.load(ordering: .relaxed) }

    /// Stops the threads after the attempts in hand (each bounded by the transport's timeout).
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    /// Sends every delivery that is due, one after another on the calling thread, until none
    /// is (or `limit` attempts were made): `belay webhooks deliver`.
    /// - Returns: the attempts made, with their outcomes.
    /// - Throws: `DomainError.storageFailure`.
    public func deliverDue(owner: String, limit: Int = 10_000) throws -> [(WebhookAttempt, WebhookAttemptResult, WebhookAttemptOutcome?)] {
        takeOverDeadOwners()
        var done: [(WebhookAttempt, WebhookAttemptResult, WebhookAttemptOutcome?)] = []
        while done.count < limit {
            let batch = try service.claim(owner: owner, limit: min(service.batchSize, limit - done.count))
            guard !batch.isEmpty else { break }
            done += try deliverInOrder(batch)
        }
        return done
    }

    private func loop(owner: String) {
        if lowPriority { BackgroundThreadPriority.lowerThisThread() }
        var nextTakeOver = Deadline(after: 10)
        while true {
            condition.lock()
            if stopping {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            condition.unlock()
            let mark = generation.load(ordering: .sequentiallyConsistent)

            var worked = false
            do {
                looks.add(1, ordering: .relaxed)
                if try service.hasDueDelivery() {
                    let batch = try service.claim(owner: owner, limit: service.batchSize)
                    worked = !batch.isEmpty
                    for (attempt, result, outcome) in try deliverInOrder(batch) { report(attempt, result, outcome) }
                }
                outage.succeeded()
            } catch {
                outage.failed(error, retryingEvery: pollSeconds)
            }
            if worked { continue }
            if nextTakeOver.hasPassed {
                takeOverDeadOwners()
                nextTakeOver = Deadline(after: 10)
            }
            let quiet = Deadline(after: quietSeconds)
            let deadline = Deadline(after: pollSeconds)
            condition.lock()
            sleepers.add(1, ordering: .sequentiallyConsistent)
            while generation.load(ordering: .sequentiallyConsistent) == mark && !stopping {
                if !deadline.wait(on: condition) { break }
            }
            sleepers.subtract(1, ordering: .sequentiallyConsistent)
            // The notifications of the quiet time are answered by one look at its end.
            while !stopping && quiet.wait(on: condition) {}
            condition.unlock()
        }
    }

    /// Sends a claimed batch in order until one fails or the next could not end within its
    /// lease, records what was attempted in one transaction, and gives back the rest.
    private func deliverInOrder(_ batch: [WebhookAttempt]) throws -> [(WebhookAttempt, WebhookAttemptResult, WebhookAttemptOutcome?)] {
        var results: [(WebhookAttempt, WebhookAttemptResult)] = []
        for attempt in batch {
            guard results.isEmpty || clock.now() <= attempt.startBy else { break }
            let result = send(attempt)
            results.append((attempt, result))
            if !result.succeeded { break }
        }
        let outcomes = try service.report(results)
        try service.release(Array(batch.dropFirst(results.count)))
        return zip(results, outcomes).map { ($0.0, $0.1, $1) }
    }

    private func send(_ attempt: WebhookAttempt) -> WebhookAttemptResult {
        do {
            let headers = try WebhookSigner.headers(messageID: attempt.messageID,
                                                    timestamp: Int64(clock.now().timeIntervalSince1970.rounded(.down)),
                                                    body: attempt.body, secrets: attempt.secrets)
            return transport.post(url: attempt.url, headers: headers, body: attempt.body)
        } catch {
            return WebhookAttemptResult(statusCode: nil, error: "\(error)")
        }
    }

    private func report(_ attempt: WebhookAttempt, _ result: WebhookAttemptResult, _ outcome: WebhookAttemptOutcome?) {
        let what = "webhook \(attempt.endpointID) \(attempt.eventType) \(attempt.messageID) attempt \(attempt.attempt)"
        switch outcome {
        case .delivered?: break
        case let .willRetry(at)?: log("\(what) failed (\(result.error ?? "")); retrying at \(at)")
        case .gaveUp?: log("\(what) failed (\(result.error ?? "")); it was the last attempt, the delivery is given up")
        case let .endpointDisabled(reason)?: log("\(what) failed; webhook \(attempt.endpointID) is disabled: \(reason). Enable it with `belay webhooks enable \(attempt.endpointID)`")
        case nil: log("\(what): the lease ran out before the answer came; another attempt has it")
        }
    }

    private func takeOverDeadOwners() {
        do {
            for owner in try service.runningOwners() where isGone(owner) {
                let count = try service.expireLeases(owner: owner)
                if count > 0 { log("took over \(count) webhook deliveries of \(owner), whose process is gone") }
            }
        } catch {
            log("webhook delivery: could not look for deliveries of dead processes: \(error)")
        }
    }
}
