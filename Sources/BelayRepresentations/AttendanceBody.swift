import BelayCore
import BelayDomain
import Foundation

/// A member's attendance of a meetup.
public struct AttendanceBody: JSONRepresentable {
    public let attendance: Attendance
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in writeMembers(to: &json) }
    }

    public func writeMembers(to json: inout JSONOutput) {
        let zone = presentation.clubZone
        json.member("id", attendance.id)
        json.member("meetup_id", attendance.meetupID)
        json.member("user_id", attendance.memberID)
        json.member("status", attendance.status.rawValue)
        json.member("waitlist_position", attendance.waitlistPosition)
        json.member("joined_at", attendance.joinedAt, offset: zone)
        json.member("updated_at", attendance.updatedAt, offset: zone)
        json.member("checked_in_at", attendance.checkedInAt, offset: zone)
        json.member("check_in_method", attendance.checkInMethod?.rawValue)
        json.member("checked_in_by", attendance.checkedInBy)
        json.member("offer_expires_at", attendance.offerExpiresAt, offset: zone)
    }

    public init(attendance: Attendance, presentation: Presentation) {
        self.attendance = attendance
        self.presentation = presentation
    }
}

/// An attendee in a host's list: the attendance plus the member's names.
public struct AttendeeBody: JSONRepresentable {
    public let attendee: Attendee
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in
            AttendanceBody(attendance: attendee.attendance, presentation: presentation).writeMembers(to: &json)
            json.member("handle", attendee.handle)
            json.member("display_name", attendee.displayName)
            json.member("blocked_by_host", attendee.blockedByHost)
        }
    }

    public init(attendee: Attendee, presentation: Presentation) {
        self.attendee = attendee
        self.presentation = presentation
    }
}

/// What leaving did: the attendance, now cancelled, and how many waitlisted members moved up.
public struct LeaveBody: JSONRepresentable {
    public let result: LeaveResult
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("attendance")
            AttendanceBody(attendance: result.attendance, presentation: presentation).write(to: &json)
            json.member("promoted_count", result.promoted.count)
        }
    }

    public init(result: LeaveResult, presentation: Presentation) {
        self.result = result
        self.presentation = presentation
    }
}

/// The caller.
public struct UserBody: JSONRepresentable {
    public let user: AuthenticatedUser
    /// The member's private calendar feed (`/v1/calendar/{token}.ics`).
    public var calendarURL: String?
    /// The member's collection progress and streak (`/v1/me`).
    public var progress: MemberProgress?

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", user.userID)
            json.member("handle", user.handle)
            json.member("display_name", user.displayName)
            json.member("role", user.role.rawValue)
            if let calendarURL { json.member("calendar_url", calendarURL) }
            if let progress {
                json.key("progress")
                ProgressBody(progress: progress).write(to: &json)
            }
        }
    }

    public init(user: AuthenticatedUser, calendarURL: String? = nil, progress: MemberProgress? = nil) {
        self.user = user
        self.calendarURL = calendarURL
        self.progress = progress
    }
}
