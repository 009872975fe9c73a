import Foundation

/// A day of the Gregorian calendar with no time and no zone (`2026-11-29`), as a climber's
/// logbook and a gym's set dates name days.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The day `text` names in the form `YYYY-MM-DD`; nil for any other text or a day the
    /// calendar does not have (`2026-02-30`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2)),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }),
              (1...9999).contains(year), (1...12).contains(month), (1...RFC3339.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        let seconds = Int64(floor(date.timeIntervalSince1970)) + Int64(zone.secondsFromGMT(for: date))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let civil = RFC3339.civilDate(fromDaysSinceEpoch: days)
        year = civil.year
        month = civil.month
        day = civil.day
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int { RFC3339.daysSinceEpoch(year: year, month: month, day: day) }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDay {
        let civil = RFC3339.civilDate(fromDaysSinceEpoch: Int64(daysSinceEpoch + count))
        return CalendarDay(uncheckedYear: civil.year, month: civil.month, day: civil.day)
    }

    /// Monday 1, …, Sunday 7 (ISO 8601).
    public var isoWeekday: Int { ((daysSinceEpoch % 7 + 7) % 7 + 3) % 7 + 1 }

    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
