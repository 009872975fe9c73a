import Foundation

/// One named thread that runs a pass again and again until stopped: after each pass it waits
/// as long as the pass asks (0: the next pass at once), or until `wake`.
///
/// Threading: `start` and `stop` come from one owner thread; `wake` from any thread.
public final class BackgroundLoop: @unchecked Sendable {
    private let name: String
    private let condition = NSCondition()
    private var stopping = false
    private var running = false
    private var woken = false

    /// - Parameter name: the thread's name, as tools show it (`belay-push`).
    public init(name: String) {
        self.name = name
    }

    /// Starts the thread. `pass` runs at once, then again after the seconds it returns.
    public func start(_ pass: @escaping @Sendable () -> TimeInterval) {
        condition.lock()
        stopping = false
        running = true
        condition.unlock()
        let thread = Thread { [self] in
            while true {
                condition.lock()
                if stopping {
                    running = false
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                woken = false
                condition.unlock()
                let wait = pass()
                guard wait > 0 else { continue }
                let deadline = Deadline(after: wait)
                condition.lock()
                while !woken && !stopping {
                    if !deadline.wait(on: condition) { break }
                }
                condition.unlock()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Ends the wait after the current pass, so the next pass runs now.
    public func wake() {
        condition.lock()
        woken = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread after the pass in hand and waits for it; nothing when it never started.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }
}
