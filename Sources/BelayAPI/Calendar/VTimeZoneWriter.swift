import Foundation

/// Writes a `VTIMEZONE` for an IANA zone from the system's zone data: the offset in force
/// at the start of the covered range, then every transition (standard ↔ daylight) inside it,
/// each as its own `STANDARD` or `DAYLIGHT` part, so a calendar needs no zone data of its own.
enum VTimeZoneWriter {
    /// - Parameters:
    ///   - from, to: the range the feed's events fall in; a year is added on either side.
    static func write(_ zone: TimeZone, from: Date, to: Date, into lines: inout ICalendarLines) {
        let start = from.addingTimeInterval(-366 * 86_400)
        let end = to.addingTimeInterval(366 * 86_400)
        lines.property("BEGIN", "VTIMEZONE")
        lines.text("TZID", zone.identifier)
        let initial = zone.secondsFromGMT(for: start)
        part(daylight: zone.isDaylightSavingTime(for: start), startsAt: start, from: initial, to: initial,
             name: zone.abbreviation(for: start), zone: zone, into: &lines)
        var cursor = start
        var count = 0
        while let transition = zone.nextDaylightSavingTimeTransition(after: cursor), transition < end, count < 100 {
            let before = zone.secondsFromGMT(for: transition.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: transition)
            part(daylight: zone.isDaylightSavingTime(for: transition), startsAt: transition, from: before, to: after,
                 name: zone.abbreviation(for: transition), zone: zone, into: &lines)
            cursor = transition
            count += 1
        }
        lines.property("END", "VTIMEZONE")
    }

    /// One observance; its `DTSTART` is the local time just before it begins (in the old offset).
    private static func part(daylight: Bool, startsAt instant: Date, from: Int, to: Int, name: String?, zone: TimeZone,
                             into lines: inout ICalendarLines) {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        lines.property("BEGIN", kind)
        lines.property("DTSTART", ICalendarTime.local(instant, in: TimeZone(secondsFromGMT: from) ?? zone))
        lines.property("TZOFFSETFROM", ICalendarTime.offset(from))
        lines.property("TZOFFSETTO", ICalendarTime.offset(to))
        if let name, !name.isEmpty { lines.text("TZNAME", name) }
        lines.property("END", kind)
    }
}
