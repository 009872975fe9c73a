import Synchronization

/// Says once that something keeps failing and once that it works again, instead of a line
/// per retry: during a database outage the delivery threads retry four times a second.
public final class OutageLog: Sendable {
    private let failing = Mutex(false)
    private let subject: String
    private let log: @Sendable (String) -> Void

    /// - Parameter subject: what fails, for the lines (`webhook delivery`).
    public init(subject: String, log: @escaping @Sendable (String) -> Void) {
        self.subject = subject
        self.log = log
    }

    /// Records a failure; logs it when it starts an outage.
    public func failed(_ error: any Error, retryingEvery seconds: Double) {
        let starts = failing.withLock { failing -> Bool in
            defer { failing = true }
            return !failing
        }
        if starts { log("\(subject): \(error); retrying every \(seconds) s, and saying so once it works again") }
    }

    /// Records a success; logs the end of an outage.
    public func succeeded() {
        let ends = failing.withLock { failing -> Bool in
            defer { failing = false }
            return failing
        }
        if ends { log("\(subject): working again") }
    }
}
