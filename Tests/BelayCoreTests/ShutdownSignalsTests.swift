import BelayCore
import Foundation
import Testing

@Suite("Shutdown signals")
struct ShutdownSignalsTests {
    @Test("ShutdownSignals.Waiter returns the signal that arrived; the process survives it")
    func signals() {
        let waiter = ShutdownSignals.Waiter(signals: [SIGUSR2])
        #expect(waiter.wait(timeout: .zero) == nil)
        // Process-directed, like `kill` from a service manager (test threads block signals).
        kill(getpid(), SIGUSR2)
        #expect(waiter.wait() == SIGUSR2)
    }
}
