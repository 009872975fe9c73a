import Dispatch
import Foundation

/// The stop handshake of a background thread that sleeps on a condition: its loop checks
/// `isStopping` while holding `condition` and calls `ended()` as its last act; `stop()` asks
/// it to end and waits until it has.
final class ThreadStop: @unchecked Sendable {
    /// Guards `isStopping`, and whatever state of its own the thread's owner keeps with it.
    let condition = NSCondition()
    /// Read and written only while holding `condition`.
    private(set) var isStopping = false
    private let done = DispatchSemaphore(value: 0)

    /// Asks the thread to end and waits until it has (unless `waiting` is false: the thread
    /// itself cannot wait for its own end).
    func stop(waiting: Bool = true) {
        condition.lock()
        isStopping = true
        condition.broadcast()
        condition.unlock()
        if waiting { done.wait() }
    }

    /// Called by the thread as its last act.
    func ended() {
        done.signal()
    }
}
