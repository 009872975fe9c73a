/// What climbing a meetup is for.
public enum MeetupDiscipline: String, Sendable, CaseIterable, Codable {
    case bouldering
    case lead
    case topRope = "top_rope"
    /// Rock outside: boulders or routes, the level's scale says which.
    case outdoor

    /// The grade axis its level is on; nil for outdoor, whose level may be on either.
    public var axis: GradeAxis? {
        switch self {
        case .bouldering: return .boulder
        case .lead, .topRope: return .route
        case .outdoor: return nil
        }
    }
}
