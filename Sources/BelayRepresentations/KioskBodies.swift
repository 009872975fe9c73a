import BelayCore
import BelayDomain
import Foundation

/// A new front-desk kiosk link: the URL to open on the tablet (shown this once; only its
/// token's SHA-256 is kept) and until when it works.
public struct KioskLinkBody: JSONRepresentable {
    public let link: KioskLink
    public let presentation: Presentation

    /// `https://<public_base_url>/k/{token}`.
    public var url: String { presentation.absoluteURL("/k/" + link.token) }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("meetup_id", link.meetupID)
            json.member("url", url)
            json.member("valid_until", link.validUntil, offset: presentation.clubZone)
        }
    }

    public init(link: KioskLink, presentation: Presentation) {
        self.link = link
        self.presentation = presentation
    }
}

/// What revoking a meetup's kiosk links did.
public struct KioskRevocationBody: JSONRepresentable {
    public let meetupID: Int64
    public let revoked: Int

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("meetup_id", meetupID)
            json.member("revoked", revoked)
        }
    }

    public init(meetupID: Int64, revoked: Int) {
        self.meetupID = meetupID
        self.revoked = revoked
    }
}

/// What a host's removing a member did: the member's attendance, now cancelled, and those
/// promoted from the waitlist, each in the attendee's one shape (the API and `belay attendees
/// remove --json` alike).
public struct AttendeeRemovalBody: JSONRepresentable {
    public let removed: AttendeeBody
    public let promoted: [AttendeeBody]

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("removed")
            removed.write(to: &json)
            json.key("promoted")
            json.array(promoted) { json, attendee in attendee.write(to: &json) }
        }
    }

    public init(removed: AttendeeBody, promoted: [AttendeeBody]) {
        self.removed = removed
        self.promoted = promoted
    }
}

/// A member's attendance record across the club, for the hosts who may see them.
public struct AttendanceRecordBody: JSONRepresentable {
    public let record: AttendanceRecord

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("user_id", record.member.id)
            json.member("handle", record.member.handle)
            json.member("display_name", record.member.displayName)
            json.member("joined", record.joined)
            json.member("checked_in", record.checkedIn)
            json.member("no_shows", record.noShows)
        }
    }

    public init(record: AttendanceRecord) {
        self.record = record
    }
}
