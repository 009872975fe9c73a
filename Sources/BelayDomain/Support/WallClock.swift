import Foundation
import Synchronization

/// Where the domain reads the current time. Injected so that tests never depend on the
/// machine's clock (the name avoids Swift's own `Clock` protocol, which measures durations).
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The machine's clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to, for tests and simulations.
public final class ManualWallClock: WallClock {
    private let current: Mutex<Date>

    /// A clock that reads `start` until changed.
    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    /// Sets the current instant.
    public func set(_ instant: Date) { current.withLock { $0 = instant } }

    /// Moves the clock forward (or back, for a negative interval) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
