import BelayCore
import BelayDomain
import Foundation

/// A meetup's attendees as CSV (RFC 4180) for the door list and the club's records: a header
/// row, one row per attendee in join order, CRLF line ends, times in RFC 3339 with the
/// meetup's offset. A field is quoted when it holds a comma, a quote or a line break, and one
/// that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) is prefixed with `'`, so a display name cannot become a formula.
public enum AttendeeCSV {
    /// The column names.
    public static let header = ["handle", "display_name", "status", "waitlist_position", "joined_at", "checked_in_at", "check_in_method"]

    /// The whole file.
    public static func text(_ attendees: [Attendee], zone: TimeZone) -> String {
        var rows = [header.joined(separator: ",")]
        for attendee in attendees {
            let attendance = attendee.attendance
            func time(_ date: Date?) -> String {
                date.map { RFC3339.string(from: $0, utcOffsetSeconds: zone.secondsFromGMT(for: $0)) } ?? ""
            }
            rows.append([attendee.handle, attendee.displayName, attendance.status.rawValue,
                         attendance.waitlistPosition.map(String.init) ?? "", time(attendance.joinedAt),
                         time(attendance.checkedInAt), attendance.checkInMethod?.rawValue ?? ""].map(field).joined(separator: ","))
        }
        return rows.map { $0 + "\r\n" }.joined()
    }

    /// One field, quoted and neutralised as needed.
    public static func field(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
