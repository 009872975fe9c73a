import BelayCore

/// What a climber looks for: near a point, at a gym, on days, by words, at a level, in a
/// discipline, with a tag, with places left; and the order. Every filter is optional and they
/// combine (all must hold).
public struct MeetupSearch: Sendable, Hashable {
    public enum Sort: String, Sendable, CaseIterable {
        /// By start time (the scope's direction), title matches first when `text` is given.
        case startsAt = "starts_at"
        /// Nearest first; needs `near`.
        case distance
    }

    /// The largest radius a search may ask for, in kilometres.
    public static let maximumRadiusKilometres = 100.0
    /// The radius when `near` is given alone.
    public static let defaultRadiusKilometres = 25.0

    public var near: GeoPoint?
    public var radiusKilometres: Double?
    public var gymID: Int64?
    /// Days in each meetup's own zone, inclusive.
    public var from: CalendarDay?
    public var to: CalendarDay?
    /// Words to find in the title, description, place, address and gym names.
    public var text: String?
    /// A grade (`V4`): meetups whose level contains it. Meetups without a level are left out.
    public var level: String?
    public var discipline: MeetupDiscipline?
    public var tag: MeetupTag?
    /// Only meetups with places left (going below capacity).
    public var hasSpots = false
    public var sort: Sort = .startsAt

    public init() {}

    /// True when no filter is set and the order is the plain one.
    public var isEmpty: Bool { self == MeetupSearch() }

    /// One line that is the same for the same search: what list caches and cursors key on.
    public var key: String {
        [near.map { "\($0.latitudeE6),\($0.longitudeE6)" } ?? "", radiusKilometres.map { "\($0)" } ?? "", gymID.map(String.init) ?? "",
         from?.description ?? "", to?.description ?? "", text ?? "", level ?? "", discipline?.rawValue ?? "", tag?.rawValue ?? "",
         hasSpots ? "1" : "", sort.rawValue].joined(separator: "|")
    }
}
