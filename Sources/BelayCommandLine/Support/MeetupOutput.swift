import Foundation
import BelayDomain

/// A meetup as `--json` output shows it; times are RFC 3339 UTC, `time_zone` says how to
/// show them locally.
struct MeetupOutput: Encodable {
    var id: Int64
    var title: String
    var description: String
    var placeName: String
    var address: String?
    var startsAt: Date
    var endsAt: Date
    var timeZone: String
    var capacity: Int
    var hostId: Int64
    var host: String?
    var status: String
    var goingCount: Int
    var waitlistCount: Int
    var checkedInCount: Int
    var placesLeft: Int
    var checkInOpensAt: Date?
    var checkInClosesAt: Date?
    var seriesId: Int64?

    init(_ meetup: Meetup, host: String? = nil, window: CheckInWindow? = nil) {
        id = meetup.id
        title = meetup.title
        description = meetup.description
        placeName = meetup.placeName
        seriesId = meetup.seriesID
        address = meetup.address
        startsAt = meetup.startsAt
        endsAt = meetup.endsAt
        timeZone = meetup.timeZone
        capacity = meetup.capacity
        hostId = meetup.hostID
        self.host = host
        status = meetup.status.rawValue
        goingCount = meetup.goingCount
        waitlistCount = meetup.waitlistCount
        checkedInCount = meetup.checkedInCount
        placesLeft = meetup.placesLeft
        checkInOpensAt = window?.opensAt
        checkInClosesAt = window?.closesAt
    }
}

extension Meetup {
    /// The meetup's own time zone (validated by the domain when it was created).
    var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)! }
}
