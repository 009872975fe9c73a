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

/// Push delivery is background work, as renders and webhooks are: it sends from a thread at
/// the lowest priority, so check-ins keeping the cores busy are answered first.
@Suite struct PushWorkerPriorityTests {
    /// Records the nice value of the thread each batch is sent from.
    final class PriorityRecordingGateway: PushGateway, @unchecked Sendable {
        private let condition = NSCondition()
        private var priorities: [Int32] = []

        func send(_ deliveries: [PushDelivery]) -> [PushOutcome] {
            let priority = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            condition.lock()
            priorities.append(priority)
            condition.broadcast()
            condition.unlock()
            return deliveries.map { _ in .sent(status: 200) }
        }

        func waitForFirst() -> Int32 {
            condition.lock()
            defer { condition.unlock() }
            while priorities.isEmpty { condition.wait() }
            return priorities[0]
        }
    }

    @Test func theWorkerSendsFromAThreadAtBackgroundPriorityOnly() throws {
        let club = try PushWorkerFixture()
        let (domain, member) = (club.domain, club.member)
        #expect(try domain.push.queueTest(userID: member.id).count == 1)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let callerPriority = getpriority(which, 0)
        let gateway = PriorityRecordingGateway()
        let worker = PushDeliveryWorker(service: domain.push, gateways: [.ios: gateway], clock: SystemTimeSource(), owner: "test:1:push",
                                        pollSeconds: 60, metrics: PushMetrics(registry: MetricsRegistry()), log: { _ in })
        worker.start()
        worker.notify()
        let priority = gateway.waitForFirst()
        worker.stop()
        #expect(priority == BackgroundThreadPriority.niceness)
        #expect(getpriority(which, 0) == callerPriority, "only the worker's thread is lowered")
    }
}
