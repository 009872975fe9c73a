#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Where Belay reads the time: the wall clock for instants that are recorded or shown, and a
/// monotonic clock for deadlines, timeouts and durations (it never jumps when the wall clock
/// is set). Injected, so that tests never depend on the machine's clock or wait in real time.
/// (The name avoids Swift's own `Clock` protocol, which only measures durations.)
public protocol TimeSource: Sendable {
    /// The current instant.
    func now() -> Date

    /// Nanoseconds on a monotonic clock with an arbitrary origin; only differences mean anything.
    func monotonicNanoseconds() -> UInt64
}

/// The machine's clocks: `Date()` and `CLOCK_MONOTONIC`.
public struct SystemTimeSource: TimeSource {
    public init() {}

    public func now() -> Date { Date() }

    public func monotonicNanoseconds() -> UInt64 { Self.monotonicNanoseconds() }

    /// `CLOCK_MONOTONIC` in nanoseconds: one `clock_gettime` and no allocation, for the hot
    /// paths (request timing, header deadlines) that do not take an injected clock.
    @inlinable
    public static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

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
