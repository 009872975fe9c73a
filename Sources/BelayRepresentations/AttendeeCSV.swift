import BelayCore
import BelayDomain
import Foundation

/// A meetup's attendees as CSV (RFC 4180) for the door list and the club's records: a header
/// row, one row per attendee in join order, CRLF line ends, times in RFC 3339 with the
/// meetup's offset, each field written by `CSVWriter` (so a display name cannot become a
/// formula).
public enum AttendeeCSV {
    /// The column names.
    public static let header = ["handle", "display_name", "status", "waitlist_position", "joined_at", "checked_in_at", "check_in_method"]

    /// The whole file.
    public static func text(_ attendees: [Attendee], zone: TimeZone) -> String {
        var rows: [[String]] = []
        for attendee in attendees {
            let attendance = attendee.attendance
            func time(_ date: Date?) -> String {
                date.map { RFC3339.string(from: $0, utcOffsetSeconds: zone.secondsFromGMT(for: $0)) } ?? ""
            }
            rows.append([attendee.handle, attendee.displayName, attendance.status.rawValue,
                         attendance.waitlistPosition.map(String.init) ?? "", time(attendance.joinedAt),
                         time(attendance.checkedInAt), attendance.checkInMethod?.rawValue ?? ""])
        }
        return CSVWriter.text(header: header, rows: rows)
    }
}
