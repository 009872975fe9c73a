import BelayCore
import BelayDomain
import Foundation

/// A meetup as the API shows it. Its times are written in the meetup's own zone; the
/// check-in window is included so the app can show when the code will be accepted.
public struct MeetupBody: JSONRepresentable {
    public let meetup: Meetup
    public let window: CheckInWindow
    public let presentation: Presentation
    /// The reader's scales: the level is shown in them too.
    public var preferences = LogbookPreferences()
    /// Kilometres from the point searched near, when the list was searched near one.
    public var distanceKilometres: Double? = nil

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
            if let location = meetup.location {
                json.member("location", object: { json in
                        json.member("latitude", location.latitude)
                        json.member("longitude", location.longitude)
                })
            } else {
                json.member("location", nil as String?)
            }
            json.member("discipline", meetup.discipline?.rawValue)
            if let level = meetup.level {
                let shownIn = preferences.scale(level.range.axis)
                json.member("level", object: { json in
                        json.member("axis", level.range.axis.rawValue)
                        json.member("scale", level.scale.rawValue)
                        json.member("min", level.lowestGrade)
                        json.member("max", level.highestGrade)
                        json.member("display_scale", shownIn.rawValue)
                        json.member("display_min", GradeTable.name(of: level.range.lowest, in: shownIn))
                        json.member("display_max", GradeTable.name(of: level.range.highest, in: shownIn))
                        json.member("score_min", level.range.lowest)
                        json.member("score_max", level.range.highest)
                })
            } else {
                json.member("level", nil as String?)
            }
            json.key("tags")
            json.array(meetup.tags) { json, tag in json.string(tag.rawValue) }
            json.member("visibility", meetup.visibility.rawValue)
            if let page = meetup.page, let published = page.publishedAt {
                json.member("public_page", object: { json in
                        json.member("url", presentation.absoluteURL("/m/\(page.slug)"))
                        json.member("published_at", published, offset: presentation.clubZone)
                        json.member("shows_host", page.showsHost)
                })
            } else {
                json.member("public_page", nil as String?)
            }
            if let distanceKilometres { Self.writeDistance(distanceKilometres, to: &json) }
            // Only those who may still see a hidden meetup read it (its managers, moderators, its members).
            if meetup.hiddenAt != nil { json.member("hidden", true) }
        }
    }

    /// Writes a search's item: `body`, a meetup's body as `write(to:)` wrote it for one meetup
    /// (a cached `GET /v1/meetups/{id}`), with its distance from the search's point, as
    /// `distanceKilometres` adds it.
    public static func write(cached body: [UInt8], distanceKilometres: Double?, to json: inout JSONOutput) {
        json.embed(object: body) { json in
            if let distanceKilometres { writeDistance(distanceKilometres, to: &json) }
        }
    }

    private static func writeDistance(_ kilometres: Double, to json: inout JSONOutput) {
        json.member("distance_km", (kilometres * 100).rounded() / 100)
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
