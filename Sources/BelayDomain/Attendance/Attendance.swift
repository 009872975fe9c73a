import Foundation

/// A member's standing at a meetup.
public enum AttendanceStatus: String, Sendable, CaseIterable, Codable {
    /// Holds a place.
    case going
    /// Waiting, first come first served, for a place to free up.
    case waitlisted
    /// Left, or the meetup was cancelled.
    case cancelled
    /// Came and checked in (still holds the place).
    case checkedIn = "checked_in"
}

/// How a check-in was made.
public enum CheckInMethod: String, Sendable, CaseIterable, Codable {
    /// The member entered the rotating code.
    case code
    /// A host or admin checked the member in, now.
    case host
    /// A host or admin recorded an earlier check-in made without a connection.
    case offline
}

/// One member's attendance of one meetup.
public struct Attendance: Sendable, Hashable {
    public let id: Int64
    public let meetupID: Int64
    public let memberID: Int64
    public let status: AttendanceStatus
    /// 1 for the first in line, when `status` is `waitlisted`; nil otherwise.
    public let waitlistPosition: Int?
    /// When the member (last) joined.
    public let joinedAt: Date
    public let updatedAt: Date
    public let checkedInAt: Date?
    public let checkInMethod: CheckInMethod?
    /// The host or admin who checked the member in (nil for a code check-in or the command line).
    public let checkedInBy: Int64?
    /// While `waitlisted`: when the offer of a freed place runs out (claim it before); nil
    /// without an offer.
    public var offerExpiresAt: Date? = nil
}

/// An attendance with the member's names, for attendee lists.
public struct Attendee: Sendable, Hashable {
    public let attendance: Attendance
    public let handle: String
    public let displayName: String
    /// The meetup's current host or one of its co-hosts has blocked this member (who stays on
    /// the list: a block made after joining, or a host changed or a co-host added since, removes
    /// nobody). Only the hosts' side of a block shows, never the member's.
    public var blockedByHost: Bool

    public init(attendance: Attendance, handle: String, displayName: String, blockedByHost: Bool = false) {
        self.attendance = attendance
        self.handle = handle
        self.displayName = displayName
        self.blockedByHost = blockedByHost
    }
}

/// What `join` did.
public struct JoinResult: Sendable, Hashable {
    /// The attendance, `going` or `waitlisted` (or `checked_in` if already so).
    public let attendance: Attendance
    /// False when the member was already attending and nothing changed.
    public let changed: Bool
}

/// What `leave` did.
public struct LeaveResult: Sendable, Hashable {
    /// The attendance, now `cancelled`.
    public let attendance: Attendance
    /// Members moved from the waitlist to `going` in the same transaction.
    public let promoted: [Attendance]
}

/// A member's attendance record, for the hosts who may see them.
public struct AttendanceRecord: Sendable, Hashable {
    public let member: User
    /// Meetups joined and not left: going, waitlisted or checked in.
    public let joined: Int
    /// Meetups checked in to.
    public let checkedIn: Int
    /// Completed meetups where the member held a place and never checked in.
    public let noShows: Int
}
