import BelayCore
import BelayDomain
import Foundation

/// A meetup as the API shows it. Its times are written in the meetup's own zone; the
/// check-in window is included so the app can show when the code will be accepted.
struct MeetupBody: JSONRepresentable {
    let meetup: Meetup
    let window: CheckInWindow
    let presentation: Presentation

    func write(to json: inout JSONOutput) {
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
            json.member("places_left", meetup.placesLeft)
            json.member("check_in_opens_at", window.opensAt, offset: zone)
            json.member("check_in_closes_at", window.closesAt, offset: zone)
            json.member("created_at", meetup.createdAt, offset: presentation.clubZone)
            json.member("updated_at", meetup.updatedAt, offset: presentation.clubZone)
            json.member("series_id", meetup.seriesID)
        }
    }
}

/// The code a host shows for check-in.
struct CheckInCodeBody: JSONRepresentable {
    let meetupID: Int64
    let code: CheckInCode
    let zone: TimeZoneOffsets.Zone

    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("meetup_id", meetupID)
            json.member("code", code.code)
            json.member("valid_from", code.validFrom, offset: zone)
            json.member("expires_at", code.expiresAt, offset: zone)
            json.member("step_seconds", code.stepSeconds)
        }
    }
}
