import BelayCore
import BelayDomain
import BelayPush
import BelayStorage
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Notices queued one after another (stickers stored one at a time in a burst of check-ins,
/// each waking the worker) go out in a few batches, not one claim and one record each: every
/// claim and every record is a write through the database's one writer, which check-ins wait for.
@Suite struct PushWorkerBatchingTests {
    /// Counts the batches it is handed and the notices in them.
    final class CountingGateway: PushGateway, @unchecked Sendable {
        private let condition = NSCondition()
        private(set) var batches: [Int] = []

        func send(_ deliveries: [PushDelivery]) -> [PushOutcome] {
            condition.lock()
            batches.append(deliveries.count)
            condition.broadcast()
            condition.unlock()
            return deliveries.map { _ in .sent(status: 200) }
        }

        /// Waits until `notices` were sent in all, at most `timeout` seconds; the batch sizes.
        func waitForNotices(_ notices: Int, timeout: TimeInterval) -> [Int] {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while batches.reduce(0, +) < notices && condition.wait(until: deadline) {}
            return batches
        }
    }

    @Test func noticesQueuedOneByOneGoOutTogether() throws {
        let club = try PushWorkerFixture()
        let (domain, member) = (club.domain, club.member)
        let gateway = CountingGateway()
        let worker = PushDeliveryWorker(service: domain.push, gateways: [.ios: gateway], clock: SystemTimeSource(), owner: "test:1:push",
                                        pollSeconds: 60, gatherSeconds: 0.5, metrics: PushMetrics(registry: MetricsRegistry()), log: { _ in })
        worker.start()
        defer { worker.stop() }
        // Twelve notices, one every 10 ms, each followed by a wake-up, as stored stickers do.
        for _ in 0..<12 {
            #expect(try domain.push.queueTest(userID: member.id).count == 1)
            worker.notify()
            usleep(10_000)
        }
        let batches = gateway.waitForNotices(12, timeout: 20)
        #expect(batches.reduce(0, +) == 12, "\(batches)")
        // Those queued while the last batch is gathered follow together. (How many the first
        // batch holds depends on when the worker's thread, at the lowest priority, gets a core.)
        #expect(batches.count <= 3, "\(batches)")
    }
}
