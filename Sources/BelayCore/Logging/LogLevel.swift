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
