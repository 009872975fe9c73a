import Synchronization

/// A value that only goes up, updated without a lock. Made by `MetricsRegistry.counter`.
public final class Counter: Sendable {
    @usableFromInline let storage = Atomic<Int>(0)

    init() {}

    /// Adds `amount` (0 or more).
    @inlinable
    public func increment(by amount: Int = 1) {
        precondition(amount >= 0, "a counter only goes up")
        storage.add(amount, ordering: .relaxed)
    }

    /// The count so far.
    public var value: Int { storage.load(ordering: .relaxed) }
}
