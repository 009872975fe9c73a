import Dispatch
import Synchronization

/// Work handed off the HTTP threads with a bound: at most `capacity` items wait or run at
/// once, and beyond that `submit` refuses rather than queueing without end. Sign-ins that call
/// a provider (keys to fetch, Apple's code to exchange) run on a concurrent one; sign-in mail
/// goes out one message at a time on a serial one.
///
/// Threading: safe from any thread.
public final class BoundedWorkQueue: Sendable {
    private let queue: DispatchQueue
    private let waiting = Mutex(0)
    /// Items that may wait or run at once.
    public let capacity: Int

    public init(label: String, concurrent: Bool, qos: DispatchQoS = .userInitiated, capacity: Int) {
        queue = DispatchQueue(label: label, qos: qos, attributes: concurrent ? .concurrent : [])
        self.capacity = capacity
    }

    /// Runs `work` on the queue; false (and `work` not run) when `capacity` items are waiting
    /// or running already.
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

    /// Waits until everything submitted so far has run (on a serial queue; tests, shutdown).
    public func drain() {
        queue.sync(flags: .barrier) {}
    }
}
