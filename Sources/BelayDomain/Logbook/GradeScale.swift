/// The two difficulty axes of the logbook. Boulders and routes are graded on different axes
/// and never converted into each other.
public enum GradeAxis: String, Sendable, CaseIterable, Codable {
    case boulder
    case route
}

/// A published grading scale. Every grade of a scale is a range of scores on its axis
/// (`GradeTable`), so ticks in mixed scales sort, compare and sum.
public enum GradeScale: String, Sendable, CaseIterable, Codable {
    /// The V (Hueco) scale for boulders: `VB`, `V0`, …, `V17`.
    case v
    /// Fontainebleau for boulders: `6a`, `7b+`.
    case font
    /// The Yosemite Decimal System for routes: `5.10a`, `5.12c`.
    case yds
    /// The French sport scale for routes: `6a+`, `7c`.
    case french
    /// UIAA for routes: `7+`, `8-`.
    case uiaa
    /// Ewbank (Australia, New Zealand, South Africa) for routes: `24`.
    case ewbank

    /// The axis this scale grades.
    public var axis: GradeAxis {
        switch self {
        case .v, .font: return .boulder
        case .yds, .french, .uiaa, .ewbank: return .route
        }
    }

    /// The scales a member may choose to see grades in, per axis.
    public static func displayScales(for axis: GradeAxis) -> [GradeScale] {
        switch axis {
        case .boulder: return [.v, .font]
        case .route: return [.yds, .french]
        }
    }
}

/// A closed range of scores on one axis: one grade (`V5` is 68…70), a colour level that
/// spans grades (`V4–V5` is 63…70), or a slash grade (`V3/4`).
public struct GradeRange: Sendable, Hashable, Codable {
    public let axis: GradeAxis
    public let lowest: Int
    public let highest: Int

    public init(axis: GradeAxis, lowest: Int, highest: Int) {
        self.axis = axis
        self.lowest = min(lowest, highest)
        self.highest = max(lowest, highest)
    }

    /// The range covering both.
    public func union(_ other: GradeRange) -> GradeRange {
        GradeRange(axis: axis, lowest: min(lowest, other.lowest), highest: max(highest, other.highest))
    }

    /// True when `score` lies in the range.
    public func contains(_ score: Int) -> Bool { (lowest...highest).contains(score) }
}
