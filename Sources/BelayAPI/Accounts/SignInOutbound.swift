import Dispatch
import Synchronization

/// Where sign-in work that calls outside Belay runs (fetching a provider's keys, exchanging
/// Apple's authorization code): threads of its own, never the HTTP threads, so that a provider
/// that answers slowly holds only the sign-ins that need it. At most `capacity` such sign-ins
/// wait at once; beyond that one is refused (503 `busy`) rather than queued without bound.
///
/// Threading: safe from any thread.
public final class SignInOutbound: Sendable {
    private let queue = DispatchQueue(label: "belay.sign-in-outbound", qos: .userInitiated, attributes: .concurrent)
    private let waiting = Mutex(0)
    /// Sign-ins that may wait on a provider at once.
    public let capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// Runs `work` on the outbound threads; false (and `work` not run) when `capacity` sign-ins
    /// are waiting already.
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        let admitted = waiting.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { return false }
        queue.async { [self] in
            defer { waiting.withLock { $0 -= 1 } }
            work()
        }
        return true
    }
}
