import BelayCore
import BelayDomain
import Foundation

/// A meetup as the API shows it. Its times are written in the meetup's own zone; the
/// check-in window is included so the app can show when the code will be accepted.
public struct MeetupBody: JSONRepresentable {
    public let meetup: Meetup
    public let window: CheckInWindow
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        let zone = presentation.zones.zone(meetup.timeZone)
        json.object { json in
            json.member("id", meetup.id)
            json.member("title", meetup.title)
            json.member("description", meetup.description)
            json.member("place_name", meetup.placeName)
            json.member("address", meetup.address)
            json.member("starts_at", meetup.startsAt, offset: zone)
            json.member("ends_at", meetup.endsAt, offset: zone)
            json.member("time_zone", meetup.timeZone)
            json.member("capacity", meetup.capacity)
            json.member("host_id", meetup.hostID)
            json.member("status", meetup.status.rawValue)
            json.member("going_count", meetup.goingCount)
            json.member("waitlist_count", meetup.waitlistCount)
            json.member("checked_in_count", meetup.checkedInCount)
            json.member("no_shows", meetup.noShows)
            json.member("places_left", meetup.placesLeft)
            json.member("check_in_opens_at", window.opensAt, offset: zone)
            json.member("check_in_closes_at", window.closesAt, offset: zone)
            json.member("created_at", meetup.createdAt, offset: presentation.clubZone)
            json.member("updated_at", meetup.updatedAt, offset: presentation.clubZone)
            json.member("series_id", meetup.seriesID)
            json.member("gym_id", meetup.gymID)
        }
    }

    public init(meetup: Meetup, window: CheckInWindow, presentation: Presentation) {
        self.meetup = meetup
        self.window = window
        self.presentation = presentation
    }
}

/// The code a host shows for check-in.
/// `GET /v1/meetups/{id}/check-in-code` and `belay meetups code --json`: the code, with
/// `valid_from` and `expires_at` written with the meetup's offset (its `time_zone`), as the
/// meetup's own times are.
public struct CheckInCodeBody: JSONRepresentable {
    public let meetupID: Int64
    public let code: CheckInCode
    public let zone: TimeZoneOffsets.Zone

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("meetup_id", meetupID)
            json.member("code", code.code)
            json.member("valid_from", code.validFrom, offset: zone)
            json.member("expires_at", code.expiresAt, offset: zone)
            json.member("step_seconds", code.stepSeconds)
        }
    }

    /// - Parameter zones: where the meetup's zone (`code.timeZone`) is looked up.
    public init(meetupID: Int64, code: CheckInCode, zones: TimeZoneOffsets) {
        self.meetupID = meetupID
        self.code = code
        self.zone = zones.zone(code.timeZone)
    }
}
