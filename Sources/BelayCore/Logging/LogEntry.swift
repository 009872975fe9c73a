#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One log entry: a message plus `key=value` metadata in the order given.
public struct LogEntry: Sendable {
    public var level: LogLevel
    public var label: String
    public var message: String
    public var metadata: [(key: String, value: String)]

    /// An entry as a sink receives it; `Logger` makes them, the access log writes its own.
    public init(level: LogLevel, label: String, message: String, metadata: [(key: String, value: String)]) {
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
    }

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

    /// `value` as a log field: unchanged when it has no space, quote or control byte, otherwise
    /// quoted with those escaped (the access log writes unmatched paths this way).
    public static func quotedIfNeeded(_ value: String) -> String {
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
