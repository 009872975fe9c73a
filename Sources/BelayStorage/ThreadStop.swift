import Dispatch
import Foundation

/// The stop handshake of a background thread that sleeps on a condition: its loop checks
/// `isStopping` while holding `condition` and calls `ended()` as its last act; `stop()` asks
/// it to end and waits until it has.
public final class ThreadStop: @unchecked Sendable {
    /// Guards `isStopping`, and whatever state of its own the thread's owner keeps with it.
    public let condition = NSCondition()
    /// Read and written only while holding `condition`.
    public private(set) var isStopping = false
    private let done = DispatchSemaphore(value: 0)

    public init() {}

    /// Asks the thread to end and waits until it has (unless `waiting` is false: the thread
    /// itself cannot wait for its own end).
    public func stop(waiting: Bool = true) {
        condition.lock()
        isStopping = true
        condition.broadcast()
        condition.unlock()
        if waiting { done.wait() }
    }

    /// Called by the thread as its last act.
    public func ended() {
        done.signal()
    }
}
