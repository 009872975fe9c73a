/// Writes each entry as one line to standard error, prefixed with a UTC RFC 3339 timestamp.
public struct StandardErrorLogSink: LogSink {
    public init() {}

    public func write(_ entry: LogEntry) {
        // One write(2) per line so lines from concurrent threads never interleave.
        entry.timestampedLine().withUnsafeBytes { writeAll(2, $0) }
    }
}
