/// Where log entries go. Implementations are called from server threads and must be thread-safe.
public protocol LogSink: Sendable {
    func write(_ entry: LogEntry)
}
