import Foundation

/// One meetup as a calendar shows it: the meetup, its `SEQUENCE` (bumped by every change a
/// calendar shows), and the member's attendance status (nil for a meetup feed of its own).
public struct CalendarEntry: Sendable, Hashable {
    public let meetup: Meetup
    public let sequence: Int
    public let attendanceStatus: AttendanceStatus?

    public init(meetup: Meetup, sequence: Int, attendanceStatus: AttendanceStatus?) {
        self.meetup = meetup
        self.sequence = sequence
        self.attendanceStatus = attendanceStatus
    }
}
