import Foundation

/// An instant on the monotonic clock by which something must be done: setting the wall clock
/// does not move it.
public struct Deadline: Sendable {
    private let nanoseconds: UInt64
    private let clock: any TimeSource

    /// The deadline `seconds` from now on `clock`'s monotonic clock (now, for 0 or less).
    public init(after seconds: Double, clock: any TimeSource = SystemTimeSource()) {
        self.clock = clock
        nanoseconds = clock.monotonicNanoseconds() &+ UInt64(max(0, seconds) * 1e9)
    }

    /// Seconds left; 0 once the deadline has passed.
    public var secondsLeft: Double {
        let now = clock.monotonicNanoseconds()
        return now >= nanoseconds ? 0 : Double(nanoseconds - now) / 1e9
    }

    /// True once the deadline has passed.
    public var hasPassed: Bool { clock.monotonicNanoseconds() >= nanoseconds }

    /// Waits on `condition`, which the caller has locked, until it is signalled or the deadline
    /// passes (measured on the monotonic clock, whatever the wall clock does meanwhile).
    /// - Returns: false when the deadline passed without a signal.
    public func wait(on condition: NSCondition) -> Bool {
        let left = secondsLeft
        guard left > 0 else { return false }
        return condition.wait(until: Date(timeIntervalSinceNow: left))
    }
}
