#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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
