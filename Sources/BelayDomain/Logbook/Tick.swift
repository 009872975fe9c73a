import Foundation

/// How a climb went.
public enum TickStyle: String, Sendable, CaseIterable, Codable {
    /// Topped on the first try.
    case flash
    /// Topped after tries.
    case send
    /// Topped again, having sent it before.
    case `repeat`
    /// Tried, not topped.
    case attempt

    /// True for the styles that topped the climb.
    public var topped: Bool { self != .attempt }
}

/// Who may see a tick: anyone (its public pages), the members of this server, or only its climber.
public enum TickVisibility: String, Sendable, CaseIterable, Codable {
    case `public`
    case members
    case `private`
}

/// What a tick names: a problem on a gym's list, a level of a gym that keeps no list, or a
/// climb outdoors.
public enum TickKind: String, Sendable, CaseIterable {
    case problem
    case level
    case outdoor
}

/// One logged climb, with a snapshot of the grade and colour as they were when it was climbed.
public struct Tick: Sendable, Hashable {
    public let id: Int64
    public let userID: Int64
    public let clientTickID: String
    public let kind: TickKind
    public let problemID: Int64?
    public let gymID: Int64?
    /// The meetup whose window it was climbed in, by a member checked in to it.
    public let meetupID: Int64?
    public let discipline: Discipline
    /// The grade's text as it was (`V5`, `5.10a`, or a level's name).
    public let grade: String
    /// The grade's scale; nil for a circuit level.
    public let gradeScale: GradeScale?
    public let levelPosition: Int?
    /// `#RRGGBB` of the level, or the hold colour's name, as it was.
    public let colour: String?
    public let range: GradeRange
    public let routeName: String?
    public let crag: String?
    public let style: TickStyle
    public let attempts: Int
    public let climbedAt: Date
    /// YYYY-MM-DD in the gym's zone (or the meetup's, or the club's).
    public let climbedOn: String
    public let note: String?
    public let stars: Int?
    public let feltGrade: String?
    public let feltScore: Int?
    public let visibility: TickVisibility
    public let createdAt: Date
    public let updatedAt: Date
}

/// A tick as the app sends it. Exactly one of: `problemID`; `gymID` with `level` (a colour
/// level's position or name); or `grade` with `gradeScale` outdoors (with `routeName`, `crag`).
public struct NewTick: Sendable, Hashable {
    public var clientTickID: String
    public var problemID: Int64?
    public var gymID: Int64?
    public var level: String?
    public var discipline: Discipline?
    public var grade: String?
    public var gradeScale: GradeScale?
    public var routeName: String?
    public var crag: String?
    public var style: TickStyle
    public var attempts: Int?
    /// Defaults to now.
    public var climbedAt: Date?
    public var note: String?
    public var stars: Int?
    public var feltGrade: String?
    /// Defaults to the member's default visibility.
    public var visibility: TickVisibility?

    public init(clientTickID: String, problemID: Int64? = nil, gymID: Int64? = nil, level: String? = nil,
                discipline: Discipline? = nil, grade: String? = nil, gradeScale: GradeScale? = nil, routeName: String? = nil,
                crag: String? = nil, style: TickStyle, attempts: Int? = nil, climbedAt: Date? = nil, note: String? = nil,
                stars: Int? = nil, feltGrade: String? = nil, visibility: TickVisibility? = nil) {
        self.clientTickID = clientTickID
        self.problemID = problemID
        self.gymID = gymID
        self.level = level
        self.discipline = discipline
        self.grade = grade
        self.gradeScale = gradeScale
        self.routeName = routeName
        self.crag = crag
        self.style = style
        self.attempts = attempts
        self.climbedAt = climbedAt
        self.note = note
        self.stars = stars
        self.feltGrade = feltGrade
        self.visibility = visibility
    }
}

/// The answer for one item of a batch of ticks.
public enum TickBatchOutcome: Sendable {
    /// Recorded now.
    case created(Tick)
    /// Recorded before with the same `client_tick_id`: the first record, unchanged.
    case duplicate(Tick)
    /// Refused, with the reason; nothing of it was written.
    case refused(DomainError)
}

/// A member's choice of scales and of who sees their new ticks.
public struct LogbookPreferences: Sendable, Hashable {
    public var boulderScale: GradeScale
    public var routeScale: GradeScale
    public var defaultVisibility: TickVisibility
    /// Whether the member is listed in gym rankings (off until they opt in).
    public var inRankings: Bool

    public init(boulderScale: GradeScale = .v, routeScale: GradeScale = .yds, defaultVisibility: TickVisibility = .members,
                inRankings: Bool = false) {
        self.boulderScale = boulderScale
        self.routeScale = routeScale
        self.defaultVisibility = defaultVisibility
        self.inRankings = inRankings
    }

    /// The scale grades of `axis` are shown in.
    public func scale(_ axis: GradeAxis) -> GradeScale { axis == .boulder ? boulderScale : routeScale }
}
