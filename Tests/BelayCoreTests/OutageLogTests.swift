import BelayCore
import Synchronization
import Testing

/// An outage is logged once when it starts and once when it ends, not once per retry.
@Suite struct OutageLogTests {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "the database cannot be reached" }
    }

    @Test func aFailureIsLoggedOnceUntilItWorksAgain() {
        let lines = Mutex<[String]>([])
        let outage = OutageLog(subject: "webhook delivery") { line in lines.withLock { $0.append(line) } }
        outage.succeeded()
        for _ in 0..<40 { outage.failed(Unreachable(), retryingEvery: 0.25) }
        outage.succeeded()
        outage.succeeded()
        outage.failed(Unreachable(), retryingEvery: 0.25)
        let logged = lines.withLock { $0 }
        #expect(logged == [
            "webhook delivery: the database cannot be reached; retrying every 0.25 s, and saying so once it works again",
            "webhook delivery: working again",
            "webhook delivery: the database cannot be reached; retrying every 0.25 s, and saying so once it works again",
        ])
    }
}
