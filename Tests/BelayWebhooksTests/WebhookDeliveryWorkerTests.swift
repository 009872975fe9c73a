#if canImport(Glibc)
import Glibc
#endif
import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import BelayWebhooks
import Foundation
import Synchronization
import Testing

/// The delivery worker sends each endpoint's events in order, a batch at a time, and a
/// failure holds back the rest of the batch until its retry.
@Suite struct WebhookDeliveryWorkerTests {
    /// Answers from a script: the Nth request gets the Nth status (204 after the script ends).
    final class ScriptedTransport: WebhookTransport {
        let script: [Int]
        let received = Mutex<[String]>([])

        init(script: [Int]) { self.script = script }

        func post(url: String, headers: [(String, String)], body: [UInt8]) -> WebhookAttemptResult {
            let id = headers.first { $0.0 == "webhook-id" }?.1 ?? "?"
            let index = received.withLock { list in
                list.append(id)
                return list.count - 1
            }
            let status = index < script.count ? script[index] : 204
            return WebhookAttemptResult(statusCode: status, error: nil)
        }
    }

    @Test func eventsGoInOrderInBatchesAndAFailureHoldsBackTheRest() throws {
        let directory = try TemporaryDirectory()
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_795_914_000))
        let settings = BuiltInSettings.domain { $0.webhooks.batchSize = 4; $0.webhooks.allowPrivateAddresses = true }
        let domain = try DomainServices(pool: pool, clock: clock, settings: settings)
        let host = try domain.users.createUser(NewUser(handle: "host", displayName: "Host", role: .host))
        _ = try domain.webhooks.add(url: "https://hooks.example.com/", events: [.meetupCreated], by: .commandLine)
        for index in 0..<10 {
            let start = clock.now().addingTimeInterval(3_600 + Double(index) * 60)
            _ = try domain.meetups.create(
                NewMeetup(title: "Meetup \(index)", placeName: "Gym", startsAt: start, endsAt: start.addingTimeInterval(3_600),
                          timeZone: "Asia/Seoul", capacity: 5, hostID: host.id),
                by: .user(host.id, role: .host))
        }
        // The third request fails once.
        let transport = ScriptedTransport(script: [204, 204, 503])
        let worker = WebhookDeliveryWorker(service: domain.webhooks, transport: transport, clock: clock, threads: 1,
                                           ownerPrefix: "test:1", pollSeconds: 1, isGone: { _ in false }, log: { _ in })
        let first = try worker.deliverDue(owner: "test:1:w")
        // Batch of 4: two go, the third fails and the fourth is given back untried.
        #expect(first.map(\.2) == [.delivered, .delivered, .willRetry(at: clock.now().addingTimeInterval(10))])
        let log = try domain.webhooks.deliveries(endpointID: 1, limit: 20, by: .commandLine).items.sorted { $0.id < $1.id }
        #expect(log.map(\.attempts) == [1, 1, 1] + Array(repeating: 0, count: 7))
        clock.advance(by: 10)
        let rest = try worker.deliverDue(owner: "test:1:w")
        #expect(rest.count == 8 && rest.allSatisfy { $0.2 == .delivered })
        let sent = transport.received.withLock { $0 }
        let order = log.map(\.messageID)
        // What the receiver saw: the failed one again first, then the rest, never one out of order.
        #expect(sent == Array(order[0..<3]) + Array(order[2...]))
        #expect(try domain.webhooks.deliveries(endpointID: 1, limit: 20, by: .commandLine).items.allSatisfy { $0.status == .succeeded })
    }

    /// Records the nice value of the thread each request is sent from (under its condition).
    final class PriorityRecordingTransport: WebhookTransport, @unchecked Sendable {
        private let condition = NSCondition()
        private var priorities: [Int32] = []

        func post(url: String, headers: [(String, String)], body: [UInt8]) -> WebhookAttemptResult {
            let priority = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            condition.lock()
            priorities.append(priority)
            condition.broadcast()
            condition.unlock()
            return WebhookAttemptResult(statusCode: 204, error: nil)
        }

        func waitForFirst() -> Int32 {
            condition.lock()
            defer { condition.unlock() }
            while priorities.isEmpty { condition.wait() }
            return priorities[0]
        }
    }

    /// Counts requests, and lets a test wait for the first with a limit.
    final class ArrivalTransport: WebhookTransport, @unchecked Sendable {
        private let condition = NSCondition()
        private var count = 0

        func post(url: String, headers: [(String, String)], body: [UInt8]) -> WebhookAttemptResult {
            condition.lock()
            count += 1
            condition.broadcast()
            condition.unlock()
            return WebhookAttemptResult(statusCode: 204, error: nil)
        }

        /// True once a request arrived, false when none did within `seconds`.
        func waitForFirst(seconds: TimeInterval) -> Bool {
            let limit = Date().addingTimeInterval(seconds)
            condition.lock()
            defer { condition.unlock() }
            while count == 0 { if !condition.wait(until: limit) { return count > 0 } }
            return true
        }
    }

    /// The committed work is the wake signal: a service that queues a delivery and calls nothing
    /// else has it sent at once by a worker that would otherwise look again only in a minute,
    /// woken by the store after the commit through the one registration the composition root
    /// makes for the channel.
    @Test func aQueuedDeliveryWakesTheWorkerThroughTheStoreAlone() throws {
        let directory = try TemporaryDirectory()
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_795_914_000))
        let domain = try DomainServices(pool: pool, clock: clock, settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        let endpoint = try domain.webhooks.add(url: "https://hooks.example.com/", by: .commandLine)
        let transport = ArrivalTransport()
        let worker = WebhookDeliveryWorker(service: domain.webhooks, transport: transport, clock: clock, threads: 1,
                                           ownerPrefix: "test:1", pollSeconds: 60, isGone: { _ in false }, quietSeconds: 0,
                                           log: { _ in })
        pool.wakeAfterCommit(on: WorkNotification.webhookDeliveries.rawValue) { worker.notify() }
        worker.start()
        defer { worker.stop() }
        // Its first look found nothing: the next is a minute away unless something wakes it.
        let looked = Date().addingTimeInterval(10)
        while worker.looksForDueDeliveries == 0 && Date() < looked { usleep(1_000) }
        #expect(worker.looksForDueDeliveries >= 1)

        _ = try domain.webhooks.sendTest(id: endpoint.id, by: .commandLine)
        #expect(transport.waitForFirst(seconds: 10), "the delivery was not attempted after its commit")
    }

    /// A club with one webhook endpoint and its `webhook.test` event waiting to be sent.
    static func clubWithATestEventQueued(in directory: TemporaryDirectory) throws -> (DomainServices, ManualTimeSource) {
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_795_914_000))
        let domain = try DomainServices(pool: pool, clock: clock, settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        let endpoint = try domain.webhooks.add(url: "https://hooks.example.com/", by: .commandLine)
        _ = try domain.webhooks.sendTest(id: endpoint.id, by: .commandLine)
        return (domain, clock)
    }

    @Test func aLowPriorityWorkerSendsFromThreadsAtBackgroundPriorityOnly() throws {
        let directory = try TemporaryDirectory()
        let (domain, clock) = try Self.clubWithATestEventQueued(in: directory)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let callerPriority = getpriority(which, 0)
        let transport = PriorityRecordingTransport()
        let worker = WebhookDeliveryWorker(service: domain.webhooks, transport: transport, clock: clock, threads: 1,
                                           ownerPrefix: "test:1", pollSeconds: 60, isGone: { _ in false }, lowPriority: true,
                                           log: { _ in })
        worker.start()
        worker.notify()
        let priority = transport.waitForFirst()
        worker.stop()
        #expect(priority == BackgroundThreadPriority.niceness)
        #expect(getpriority(which, 0) == callerPriority)
    }

    /// With an endpoint down, every check-in's commit notifies the worker, and each look for due
    /// deliveries is a query: the notifications of the quiet time after an empty look are
    /// answered by one look, not one each.
    @Test func notificationsWhileNothingIsDueCostOneLookPerQuietTime() throws {
        let directory = try TemporaryDirectory()
        let (domain, clock) = try Self.clubWithATestEventQueued(in: directory)
        let down = ScriptedTransport(script: [503])
        func worker(quietSeconds: Double) -> WebhookDeliveryWorker {
            WebhookDeliveryWorker(service: domain.webhooks, transport: down, clock: clock, threads: 1, ownerPrefix: "test:1",
                                  pollSeconds: 60, isGone: { _ in false }, quietSeconds: quietSeconds, log: { _ in })
        }
        // The endpoint's one delivery failed: it waits for its retry, and nothing is due.
        #expect(try worker(quietSeconds: 0).deliverDue(owner: "test:1:w").map(\.2) == [.willRetry(at: clock.now().addingTimeInterval(10))])

        func looks(quietSeconds: Double) -> Int {
            let worker = worker(quietSeconds: quietSeconds)
            worker.start()
            let until = Date().addingTimeInterval(0.4)
            while Date() < until {
                worker.notify()
                usleep(1_000)
            }
            worker.stop()
            return worker.looksForDueDeliveries
        }
        let quiet = looks(quietSeconds: 0.2)
        // One look at the start, then at most one per 0.2 s of notifications (and one at the end).
        #expect(quiet >= 1 && quiet <= 4, "\(quiet) looks")
        #expect(down.received.withLock { $0.count } == 1, "nothing was sent while the delivery waited for its retry")
        let eager = looks(quietSeconds: 0)
        #expect(eager > 2 * quiet, "without a quiet time: \(eager) looks, with one: \(quiet)")
    }
}
