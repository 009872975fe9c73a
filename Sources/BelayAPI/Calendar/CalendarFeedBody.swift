import BelayDomain
import Foundation

/// A calendar (RFC 5545 `VCALENDAR`) of meetups: one `VEVENT` each, with `DTSTART`/`DTEND`
/// in the meetup's own zone (`TZID` and a `VTIMEZONE` for every zone used), a `UID` stable
/// for the meetup's life, `SEQUENCE` bumped by every change, `STATUS:CANCELLED` for a
/// cancelled meetup (`TENTATIVE` while the member is on the waitlist), and a `VALARM`
/// reminder. The text depends only on the meetups, so its digest is a stable `ETag`.
struct CalendarFeedBody {
    let name: String
    let entries: [CalendarEntry]
    let settings: CalendarSettings

    /// The `.ics` bytes.
    var bytes: [UInt8] {
        var lines = ICalendarLines()
        lines.property("BEGIN", "VCALENDAR")
        lines.property("VERSION", "2.0")
        lines.text("PRODID", "-//Belay//Club calendar//EN")
        lines.property("CALSCALE", "GREGORIAN")
        lines.property("METHOD", "PUBLISH")
        lines.text("X-WR-CALNAME", name)
        let zones = Dictionary(grouping: entries) { $0.meetup.timeZone }
        for identifier in zones.keys.sorted() {
            guard let zone = TimeZone(identifier: identifier), let group = zones[identifier] else { continue }
            let first = group.map(\.meetup.startsAt).min() ?? Date(timeIntervalSince1970: 0)
            let last = group.map(\.meetup.endsAt).max() ?? first
            VTimeZoneWriter.write(zone, from: first, to: last, into: &lines)
        }
        for entry in entries { event(entry, into: &lines) }
        lines.property("END", "VCALENDAR")
        return lines.bytes
    }

    private func event(_ entry: CalendarEntry, into lines: inout ICalendarLines) {
        let meetup = entry.meetup
        let zone = TimeZone(identifier: meetup.timeZone) ?? .gmt
        lines.property("BEGIN", "VEVENT")
        lines.text("UID", "meetup-\(meetup.id)@\(settings.uidDomain)")
        lines.property("DTSTAMP", ICalendarTime.utc(meetup.updatedAt))
        lines.property("CREATED", ICalendarTime.utc(meetup.createdAt))
        lines.property("LAST-MODIFIED", ICalendarTime.utc(meetup.updatedAt))
        lines.property("SEQUENCE", String(entry.sequence))
        lines.property("DTSTART;TZID=\(meetup.timeZone)", ICalendarTime.local(meetup.startsAt, in: zone))
        lines.property("DTEND;TZID=\(meetup.timeZone)", ICalendarTime.local(meetup.endsAt, in: zone))
        lines.text("SUMMARY", meetup.title)
        var description = meetup.description
        if entry.attendanceStatus == .waitlisted {
            description = "You are on the waitlist." + (description.isEmpty ? "" : "\n\n" + description)
        }
        if !description.isEmpty { lines.text("DESCRIPTION", description) }
        lines.text("LOCATION", [meetup.placeName, meetup.address].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "))
        let status: String
        switch (meetup.status, entry.attendanceStatus) {
        case (.cancelled, _): status = "CANCELLED"
        case (_, .waitlisted?): status = "TENTATIVE"
        default: status = "CONFIRMED"
        }
        lines.property("STATUS", status)
        lines.property("TRANSP", "OPAQUE")
        if let url = settings.meetupURL?(meetup.id) { lines.property("URL", url) }
        if settings.alarmMinutesBefore > 0, meetup.status != .cancelled {
            lines.property("BEGIN", "VALARM")
            lines.property("ACTION", "DISPLAY")
            lines.text("DESCRIPTION", meetup.title)
            lines.property("TRIGGER", "-PT\(settings.alarmMinutesBefore)M")
            lines.property("END", "VALARM")
        }
        lines.property("END", "VEVENT")
    }
}
