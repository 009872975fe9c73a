import BelayCore
import BelayDomain
import BelayPush
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// A notice the worker gives up on for good (its tries used up on errors of the way out, such
/// as a relay that resets every stream) is said at error level, once, with the last error:
/// before, it ended `failed` in the table and nothing told the operator.
@Suite struct PushGiveUpAlarmTests {
    /// Answers every notice as a transport error would: try again.
    struct ResettingGateway: PushGateway {
        func send(_ deliveries: [PushDelivery]) -> [PushOutcome] {
            deliveries.map { _ in .retry(after: 0, status: nil, error: "https://relay.example could not be reached: Error in the HTTP2 framing layer") }
        }
    }

    @Test func aNoticeGivenUpAfterItsLastTryIsSaidAtErrorLevel() throws {
        let club = try PushWorkerFixture()
        let warnings = Mutex<[String]>([])
        let alarms = Mutex<[String]>([])
        let worker = PushDeliveryWorker(service: club.domain.push, gateways: [.ios: ResettingGateway()], clock: SystemTimeSource(),
                                        owner: "test:1:push", metrics: PushMetrics(registry: MetricsRegistry()),
                                        log: { line in warnings.withLock { $0.append(line) } },
                                        alarm: { line in alarms.withLock { $0.append(line) } })
        let queued = try club.domain.push.queueTest(userID: club.member.id)
        let attempts = try worker.deliverDue()
        #expect(attempts.count == 8, "tried as often as push allows: \(attempts.count)")
        let said = alarms.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("notice \(queued.first ?? -1) was given up") == true, "\(said)")
        #expect(said.first?.contains("Error in the HTTP2 framing layer") == true && said.first?.contains("gave up after 8 attempts") == true,
                "\(said)")
        #expect(!warnings.withLock { $0 }.contains { $0.contains("given up") }, "said once, at error level")
    }
}
