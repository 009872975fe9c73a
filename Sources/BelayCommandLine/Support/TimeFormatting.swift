import BelayCore
import Foundation
import BelayArguments

/// Reads the times admins type, and writes local times for tables (RFC 3339 itself is
/// `RFC3339`'s).
///
/// Accepted input: RFC 3339 (`2026-12-05T19:00:00+09:00`, `2026-12-05T10:00:00Z`, fractions
/// of a second allowed), or a local time in a given zone: `2026-12-05 19:00`,
/// `2026-12-05T19:00`, `2026-12-05 19:00:30`.
public enum TimeFormatting {
    /// Parses `text` as RFC 3339 or as a local time in `zone`.
    /// - Throws: `CommandLineError.usage` naming `option` and showing both accepted forms; a
    ///   local time that does not exist in `zone` (skipped by a clock change) is refused too.
    /// - Parameter allowDay: also accept a day alone (`2026-12-01`), meaning its midnight.
    public static func parse(_ text: String, in zone: TimeZone, option: String, allowDay: Bool = false) throws -> Date {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        if allowDay, trimmed.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil { trimmed += " 00:00" }
        if let parsed = RFC3339.parse(trimmed) { return parsed.date }
        if let components = localComponents(trimmed) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let date = calendar.date(from: components) else {
                throw CommandLineError.usage("\(option): '\(text)' is not a valid date")
            }
            let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            guard back.year == components.year, back.month == components.month, back.day == components.day,
                  back.hour == components.hour, back.minute == components.minute else {
                throw CommandLineError.usage("\(option): '\(text)' does not exist in \(zone.identifier) (the clocks skip it, or the date is invalid); give another time or an RFC 3339 time with an offset")
            }
            return date
        }
        throw CommandLineError.usage("\(option): '\(text)' is not a time; write it as '2026-12-05 19:00' (local time in \(zone.identifier))\(allowDay ? ", '2026-12-05' (midnight)" : "") or RFC 3339 such as '2026-12-05T19:00:00+09:00'")
    }

    private static func localComponents(_ text: String) -> DateComponents? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        var components = DateComponents()
        components.year = Int(match.1)
        components.month = Int(match.2)
        components.day = Int(match.3)
        components.hour = Int(match.4)
        components.minute = Int(match.5)
        components.second = match.6.flatMap { Int($0) } ?? 0
        guard let month = components.month, (1...12).contains(month), let day = components.day, (1...31).contains(day),
              let hour = components.hour, (0...23).contains(hour), let minute = components.minute, (0...59).contains(minute),
              let second = components.second, (0...59).contains(second) else { return nil }
        return components
    }

    /// `2026-12-05 19:00 +09:00`: local time in `zone` with its UTC offset at that instant, for
    /// tables and messages (a reader whose own clock is elsewhere sees which time is meant).
    public static func local(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        return String(format: "%04d-%02d-%02d %02d:%02d %@%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
                      sign, abs(offset) / 3600, abs(offset) % 3600 / 60)
    }
}
