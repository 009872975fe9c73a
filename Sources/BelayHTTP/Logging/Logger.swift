#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BelayCore
import Synchronization

/// write(2) until everything is written or the descriptor fails; named apart from the sinks'
/// own `write` methods.
func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { break }
        offset += written
    }
}

/// How serious a log entry is; entries below a logger's `minimumLevel` are dropped.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case debug, info, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// One log entry: a message plus `key=value` metadata in the order given.
public struct LogEntry: Sendable {
    public var level: LogLevel
    public var label: String
    public var message: String
    public var metadata: [(key: String, value: String)]

    /// The entry as one line, without a timestamp: `info http: GET /v1 200 request_id=…`.
    public var formattedLine: String {
        var line: [UInt8] = []
        appendLine(to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends `formattedLine`'s bytes without building intermediate strings (the access log
    /// writes one entry per request).
    func appendLine(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: level.description.utf8)
        bytes.append(UInt8(ascii: " "))
        Self.appendEscapingControls(label, to: &bytes)
        bytes.append(contentsOf: ": ".utf8)
        // A message may quote request text (a method, a path): a control byte in it must not
        // end the line or forge another entry.
        Self.appendEscapingControls(message, to: &bytes)
        for (key, value) in metadata {
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "="))
            if Self.needsQuoting(value) {
                bytes.append(contentsOf: Self.quotedIfNeeded(value).utf8)
            } else {
                bytes.append(contentsOf: value.utf8)
            }
        }
    }

    /// One log line: the UTC timestamp, the entry, a newline.
    func timestampedLine() -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(160)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        RFC3339.append(millisecondsSinceEpoch: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec / 1_000_000),
                       utcOffsetSeconds: 0, fraction: .milliseconds, to: &line)
        line.append(UInt8(ascii: " "))
        appendLine(to: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Appends `text`, writing each C0 control byte and DEL as an escape (`\\n`, `\\u{1b}`).
    private static func appendEscapingControls(_ text: String, to bytes: inout [UInt8]) {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            bytes.append(contentsOf: text.utf8)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F: bytes.append(contentsOf: "\\u{\(String(byte, radix: 16))}".utf8)
            default: bytes.append(byte)
            }
        }
    }

    private static func needsQuoting(_ value: String) -> Bool {
        value.isEmpty || value.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "\"") || $0 == 0x7F })
    }

    static func quotedIfNeeded(_ value: String) -> String {
        if !needsQuoting(value) { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

/// Where log entries go. Implementations are called from server threads and must be thread-safe.
public protocol LogSink: Sendable {
    func write(_ entry: LogEntry)
}

/// Writes each entry as one line to standard error, prefixed with a UTC RFC 3339 timestamp.
public struct StandardErrorLogSink: LogSink {
    public init() {}

    public func write(_ entry: LogEntry) {
        // One write(2) per line so lines from concurrent threads never interleave.
        entry.timestampedLine().withUnsafeBytes { writeAll(2, $0) }
    }
}

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

/// A sink that drops every entry.
public struct DiscardingLogSink: LogSink {
    public init() {}
    public func write(_ entry: LogEntry) {}
}
