/// A labelled handle on a log sink with a minimum level. Cheap to copy; safe from any thread.
public struct Logger: Sendable {
    public var label: String
    public var minimumLevel: LogLevel
    public var sink: any LogSink
    /// Appended to every entry after the entry's own metadata (e.g. the request id).
    public var metadata: [(key: String, value: String)]

    public init(label: String, minimumLevel: LogLevel = .info, sink: any LogSink = StandardErrorLogSink(),
                metadata: [(key: String, value: String)] = []) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink
        self.metadata = metadata
    }

    /// Drops everything; for benchmarks and tests that do not look at the log.
    public static func disabled(label: String = "disabled") -> Logger {
        Logger(label: label, minimumLevel: .error, sink: DiscardingLogSink())
    }

    /// Whether an entry at `level` would be written; check it before building costly messages.
    @inlinable
    public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String,
                    metadata: @autoclosure () -> [(key: String, value: String)] = []) {
        guard isEnabled(level) else { return }
        var entryMetadata = metadata()
        entryMetadata.append(contentsOf: self.metadata)
        sink.write(LogEntry(level: level, label: label, message: message(), metadata: entryMetadata))
    }

    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [(key: String, value: String)] = []) {
        log(.debug, message(), metadata: metadata())
    }

    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [(key: String, value: String)] = []) {
        log(.info, message(), metadata: metadata())
    }

    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [(key: String, value: String)] = []) {
        log(.warning, message(), metadata: metadata())
    }

    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [(key: String, value: String)] = []) {
        log(.error, message(), metadata: metadata())
    }
}
