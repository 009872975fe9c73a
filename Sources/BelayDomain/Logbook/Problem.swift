import Foundation

/// What a problem or route is climbed as.
public enum Discipline: String, Sendable, CaseIterable, Codable {
    case boulder
    case lead
    case topRope = "top_rope"
    case autoBelay = "auto_belay"

    /// Boulders on the boulder axis, everything roped on the route axis.
    public var axis: GradeAxis { self == .boulder ? .boulder : .route }
}

/// A problem or route set on a gym's wall. Retired problems stay, for the ticks that name them.
public struct Problem: Sendable, Hashable {
    public let id: Int64
    public let gymID: Int64
    public let wall: String
    public let discipline: Discipline
    /// The colour of the holds, which may differ from the level's tape colour.
    public let holdColour: String
    /// The grade as the gym gives it: a grade of its scale, or a circuit level's name.
    public let grade: String
    /// The circuit level, when the gym grades this axis by colour.
    public let levelPosition: Int?
    public let range: GradeRange
    public let name: String?
    public let setter: String?
    /// YYYY-MM-DD in the gym's zone.
    public let setOn: String
    public let expectedRemovalOn: String?
    /// Set when the problem was stripped.
    public let removedOn: String?
    public let createdAt: Date
    /// The grade its climbers felt, once at least `communityMinimumVotes` voted: the most
    /// voted felt grade's score, a tie going to the lower.
    public var communityScore: Int? = nil
    /// Members who gave the grade they felt (private ticks left out).
    public var votes = 0

    /// Votes a community grade needs.
    public static let communityMinimumVotes = 3

    /// The most voted score of `votes` (score → count), a tie going to the lower; nil under
    /// `communityMinimumVotes` votes in all.
    static func communityScore(of votes: [Int: Int]) -> Int? {
        guard votes.values.reduce(0, +) >= communityMinimumVotes else { return nil }
        return votes.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
    }
}

/// The fields of a new problem.
public struct NewProblem: Sendable, Hashable {
    public var wall: String
    public var discipline: Discipline
    public var holdColour: String
    /// A grade of the gym's scale for the discipline's axis, or a circuit level's name or position.
    public var grade: String
    public var name: String?
    public var setter: String?
    public var setOn: String
    public var expectedRemovalOn: String?

    public init(wall: String, discipline: Discipline = .boulder, holdColour: String, grade: String, name: String? = nil,
                setter: String? = nil, setOn: String, expectedRemovalOn: String? = nil) {
        self.wall = wall
        self.discipline = discipline
        self.holdColour = holdColour
        self.grade = grade
        self.name = name
        self.setter = setter
        self.setOn = setOn
        self.expectedRemovalOn = expectedRemovalOn
    }
}
