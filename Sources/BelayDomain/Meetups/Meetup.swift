import Foundation

/// Where a meetup stands.
public enum MeetupStatus: String, Sendable, CaseIterable, Codable {
    case scheduled
    case cancelled
    case completed
}

/// A meetup as members and hosts see it (the check-in secret is never part of it).
public struct Meetup: Sendable, Hashable {
    public let id: Int64
    public let title: String
    public let description: String
    public let placeName: String
    public let address: String?
    public let startsAt: Date
    public let endsAt: Date
    /// IANA time-zone identifier the meetup is shown in, e.g. `Asia/Seoul`.
    public let timeZone: String
    public let capacity: Int
    public let hostID: Int64
    public let status: MeetupStatus
    /// Members holding a place: `going` plus `checked_in`.
    public let goingCount: Int
    public let waitlistCount: Int
    public let checkedInCount: Int
    public let createdAt: Date
    public let updatedAt: Date
    /// The series a recurring meetup belongs to (the id of its first meetup); nil for a one-off.
    public var seriesID: Int64? = nil
    /// The gym it is at, whose name, address and zone it took; nil for a place of its own.
    public var gymID: Int64? = nil
    /// Where it is: its gym's point, or one given; nil when neither.
    public var location: GeoPoint? = nil
    public var discipline: MeetupDiscipline? = nil
    /// The level it is for; nil when open to every level.
    public var level: MeetupLevel? = nil
    public var tags: [MeetupTag] = []
    public var visibility: MeetupVisibility = .public
    /// Its public page (`/m/{slug}`), once its host published one; nil before.
    public var page: MeetupPage? = nil
    /// When the club's moderators (or enough reports) hid it; nil while it is shown. A hidden
    /// meetup is in no list, search or feed, its public page answers 410, and only those who
    /// manage it, moderators and members with an attendance still see it.
    public var hiddenAt: Date? = nil

    /// Places left before joiners are waitlisted (0 when full or over capacity).
    public var placesLeft: Int { max(0, capacity - goingCount) }

    /// Once the meetup is completed, the members who held a place (`going`) and never checked
    /// in; nil before (until then they may still come).
    public var noShows: Int? { status == .completed ? max(0, goingCount - checkedInCount) : nil }
}

/// The fields of a new meetup.
public struct NewMeetup: Sendable, Hashable {
    /// 1–200 characters.
    public var title: String
    /// Up to 5,000 characters.
    public var description: String
    /// 1–200 characters; shown on the sticker.
    public var placeName: String
    /// Up to 500 characters.
    public var address: String?
    public var startsAt: Date
    /// After `startsAt`, at most 14 days later.
    public var endsAt: Date
    /// An IANA identifier such as `Asia/Seoul`.
    public var timeZone: String
    /// 1–10,000.
    public var capacity: Int
    /// A user with the role `host` or `admin`.
    public var hostID: Int64
    /// A gym: the meetup then takes the gym's address and zone, and its name unless
    /// `placeName` is given (empty `placeName` and `timeZone` mean "the gym's").
    public var gymID: Int64?
    /// Where it is; taken from the gym when it has one and this is nil.
    public var location: GeoPoint? = nil
    public var discipline: MeetupDiscipline? = nil
    public var level: MeetupLevel? = nil
    /// At most `MeetupTag.maximumPerMeetup`, each once.
    public var tags: [MeetupTag] = []
    public var visibility: MeetupVisibility = .public

    public init(title: String, description: String = "", placeName: String, address: String? = nil,
                startsAt: Date, endsAt: Date, timeZone: String, capacity: Int, hostID: Int64, gymID: Int64? = nil) {
        self.gymID = gymID
        self.title = title
        self.description = description
        self.placeName = placeName
        self.address = address
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.capacity = capacity
        self.hostID = hostID
    }
}

/// Changes to a meetup; nil fields stay as they are.
public struct MeetupChanges: Sendable, Hashable {
    public var title: String?
    public var description: String?
    public var placeName: String?
    /// `.some(nil)` removes the address.
    public var address: String??
    public var startsAt: Date?
    public var endsAt: Date?
    public var timeZone: String?
    /// Lowering it never removes anyone; raising it promotes waitlisted members in order.
    public var capacity: Int?
    public var hostID: Int64?
    /// `.some(id)` moves the meetup to a gym (taking its address and zone), `.some(nil)` makes
    /// its place its own again.
    public var gymID: Int64??
    /// `.some(nil)` removes a location given by hand (a meetup at a gym keeps the gym's).
    public var location: GeoPoint?? = nil
    public var discipline: MeetupDiscipline?? = nil
    public var level: MeetupLevel?? = nil
    public var tags: [MeetupTag]? = nil
    public var visibility: MeetupVisibility? = nil

    public init(title: String? = nil, description: String? = nil, placeName: String? = nil, address: String?? = nil,
                startsAt: Date? = nil, endsAt: Date? = nil, timeZone: String? = nil, capacity: Int? = nil,
                hostID: Int64? = nil, gymID: Int64?? = nil) {
        self.gymID = gymID
        self.title = title
        self.description = description
        self.placeName = placeName
        self.address = address
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.timeZone = timeZone
        self.capacity = capacity
        self.hostID = hostID
    }
}

/// Which meetups to list.
public struct MeetupQuery: Sendable, Hashable {
    public enum Scope: String, Sendable, CaseIterable {
        /// Not yet ended, soonest first.
        case upcoming
        /// Ended, most recent first.
        case past
        /// All, by start time ascending.
        case all
    }

    public var scope: Scope
    /// Only meetups at this exact place name.
    public var placeName: String?
    /// Only meetups of this host.
    public var hostID: Int64?
    /// Only meetups this member hosts or co-hosts (the console's list of a host's meetups).
    public var managerID: Int64? = nil
    /// Also list cancelled meetups (default true, so clients can show them struck through).
    public var includeCancelled: Bool
    public var limit: Int
    /// From a previous page's `nextCursor`.
    public var cursor: String?
    /// The member the list is for: meetups hosted by someone they blocked, or who blocked
    /// them, are left out. Nil lists every meetup (the command line, a viewer without blocks).
    public var viewerID: Int64? = nil
    /// Lists private meetups too: the command line, and a host listing their own (`hostID`
    /// is the caller). Every other list leaves them out.
    public var includePrivate = false
    /// The discovery filters; all nil lists as before.
    public var search = MeetupSearch()

    public init(scope: Scope = .upcoming, placeName: String? = nil, hostID: Int64? = nil,
                includeCancelled: Bool = true, limit: Int = 20, cursor: String? = nil) {
        self.scope = scope
        self.placeName = placeName
        self.hostID = hostID
        self.includeCancelled = includeCancelled
        self.limit = limit
        self.cursor = cursor
    }
}

/// The code a host shows for check-in, and how long it stays current.
public struct CheckInCode: Sendable, Hashable {
    /// Six digits.
    public let code: String
    /// When this code became current.
    public let validFrom: Date
    /// When the next code replaces it (the previous code is still accepted for one more step).
    public let expiresAt: Date
    public let stepSeconds: Int
    /// The meetup's IANA zone: the code belongs to the meetup, so its times are written with
    /// that zone's offset, as the meetup's own are.
    public let timeZone: String

    /// A code with less than this left is not shown: the next one is, and is accepted already.
    public static let showAheadSeconds: TimeInterval = 5

    /// True when this code is the next one, shown before it is current (`validFrom` after `now`).
    public func isAhead(of now: Date) -> Bool { validFrom > now }
}
