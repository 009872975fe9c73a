import Foundation
import Synchronization

/// Clocks that only move when told to, for tests and simulations. `advance(by:)` moves both
/// the wall and the monotonic clock; `set(_:)` moves the wall clock alone, as setting a real
/// machine's clock would.
public final class ManualTimeSource: TimeSource {
    private struct Reading {
        var instant: Date
        var monotonic: UInt64
    }

    private let current: Mutex<Reading>

    /// Clocks that read `start` (and a monotonic 0) until changed.
    public init(_ start: Date) { current = Mutex(Reading(instant: start, monotonic: 0)) }

    public func now() -> Date { current.withLock { $0.instant } }

    public func monotonicNanoseconds() -> UInt64 { current.withLock { $0.monotonic } }

    /// Sets the current instant; the monotonic clock does not move.
    public func set(_ instant: Date) { current.withLock { $0.instant = instant } }

    /// Moves the wall clock forward (or back, for a negative interval) by `seconds`, and the
    /// monotonic clock forward by as much (never back).
    public func advance(by seconds: TimeInterval) {
        current.withLock {
            $0.instant = $0.instant.addingTimeInterval(seconds)
            if seconds > 0 { $0.monotonic &+= UInt64(seconds * 1e9) }
        }
    }
}
