import BelayCore
import Foundation

/// Wakes idle workers: `notify` ends every current `wait` at once; a `wait` also ends at its
/// timeout (the polling fallback) or when the signal is closed for shutdown. A notify that
/// comes while no one waits is remembered, so a job queued just before a worker goes idle
/// is not missed.
final class WakeSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var generation: UInt64 = 0
    private var closed = false

    /// Wakes every waiting worker.
    func notify() {
        condition.lock()
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes everyone for good: `isClosed` becomes true and `wait` returns at once.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// The current generation, taken before looking at the queue.
    var mark: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Waits until a `notify` after `mark` (unless `ignoringNotify`), `close`, or `timeout` seconds.
    func wait(since mark: UInt64, timeout: TimeInterval, ignoringNotify: Bool = false) {
        let deadline = Deadline(after: timeout)
        condition.lock()
        defer { condition.unlock() }
        while (ignoringNotify || generation == mark) && !closed {
            if !deadline.wait(on: condition) { return }
        }
    }
}
