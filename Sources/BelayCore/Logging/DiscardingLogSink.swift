/// A sink that drops every entry.
public struct DiscardingLogSink: LogSink {
    public init() {}
    public func write(_ entry: LogEntry) {}
}
