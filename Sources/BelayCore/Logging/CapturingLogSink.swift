import Synchronization

/// Keeps entries in memory; for tests and for tools that show the log themselves.
public final class CapturingLogSink: LogSink {
    private let storage = Mutex<[LogEntry]>([])

    public init() {}

    public func write(_ entry: LogEntry) {
        storage.withLock { $0.append(entry) }
    }

    /// Every entry written so far, oldest first.
    public var entries: [LogEntry] { storage.withLock { $0 } }
}
