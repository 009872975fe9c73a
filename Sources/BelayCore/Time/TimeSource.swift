import Foundation

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
