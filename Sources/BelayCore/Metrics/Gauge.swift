import Synchronization

/// A value that goes up and down, updated without a lock. Made by `MetricsRegistry.gauge`.
public final class Gauge: Sendable {
    private let bits = Atomic<UInt64>(0.0.bitPattern)

    init() {}

    /// Sets the value.
    public func set(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }

    /// Adds `amount` (negative to subtract).
    public func add(_ amount: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let updated = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.compareExchange(expected: current, desired: updated, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// The value now.
    public var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}
