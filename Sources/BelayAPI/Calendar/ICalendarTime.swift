import Foundation

/// Date-times as iCalendar writes them: local `20261201T190000` in a zone (with
/// `TZID`), or `20261201T100000Z` in UTC, and UTC offsets as `+0900`.
enum ICalendarTime {
    /// The wall-clock time of `date` in `zone`, without an offset.
    static func local(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return digits(c.year ?? 1970, 4) + digits(c.month ?? 1, 2) + digits(c.day ?? 1, 2) + "T"
            + digits(c.hour ?? 0, 2) + digits(c.minute ?? 0, 2) + digits(c.second ?? 0, 2)
    }

    /// `date` in UTC with the `Z` suffix.
    static func utc(_ date: Date) -> String {
        local(date, in: TimeZone(secondsFromGMT: 0) ?? .gmt) + "Z"
    }

    /// `+HHMM` (or `+HHMMSS` when the offset has seconds).
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        var text = sign + digits(magnitude / 3600, 2) + digits(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += digits(magnitude % 60, 2) }
        return text
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
