#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// RFC 3339 timestamps in UTC (`2026-12-01T09:30:00Z`, or with milliseconds
/// `2026-12-01T09:30:00.250Z`), written without a formatter object: what webhook payloads
/// and badges carry.
public enum UTCTimestamp {
    /// `instant` in UTC, to the second or (with `milliseconds`) to the millisecond.
    public static func string(_ instant: Date, milliseconds: Bool = false) -> String {
        let total = instant.millisecondsSince1970
        var seconds = time_t(total >= 0 ? total / 1000 : (total - 999) / 1000)
        let fraction = Int(total - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let base = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        guard milliseconds else { return base + "Z" }
        return base + "." + (fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)") + "Z"
    }
}
