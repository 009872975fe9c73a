import Synchronization
/// The level a meetup is for: a range of grades on one axis, as the host gave it (in a scale)
/// and as scores (`GradeTable`), so that a climber searching in another scale finds it.
public struct MeetupLevel: Sendable, Hashable {
    /// The scale the host wrote the grades in.
    public let scale: GradeScale
    /// The easiest and hardest grade, as written (`V3`, `V5`).
    public let lowestGrade: String
    public let highestGrade: String
    /// From the easiest grade's lowest score to the hardest grade's highest.
    public let range: GradeRange

    public init(scale: GradeScale, lowestGrade: String, highestGrade: String, range: GradeRange) {
        self.scale = scale
        self.lowestGrade = lowestGrade
        self.highestGrade = highestGrade
        self.range = range
    }

    /// Reads a level from grade text: `lowest` and `highest` in `scale`, or, without one, in
    /// the first of the scales of the discipline's axis (the reader's preferred one first) that
    /// reads both.
    /// - Throws: `DomainError.invalid` naming `field` when a grade is in no such scale, the
    ///   scale is of the other axis than the discipline's, or the lowest is above the highest.
    public static func parse(lowest: String, highest: String, scale: GradeScale?, discipline: MeetupDiscipline?,
                             preferences: LogbookPreferences, field: String) throws -> MeetupLevel {
        let candidates: [GradeScale]
        if let scale {
            if let axis = discipline?.axis, axis != scale.axis {
                throw DomainError.invalid(field, "The scale \(scale.rawValue) grades \(scale.axis.rawValue)s, and a \(discipline!.rawValue) meetup's level is on the \(axis.rawValue) axis; use one of \(GradeScale.allCases.filter { $0.axis == axis }.map(\.rawValue).joined(separator: ", "))")
            }
            candidates = [scale]
        } else {
            let axes = discipline?.axis.map { [$0] } ?? [.boulder, .route]
            candidates = axes.flatMap { axis in
                [preferences.scale(axis)] + GradeScale.allCases.filter { $0.axis == axis && $0 != preferences.scale(axis) }
            }
        }
        for candidate in candidates {
            if let low = GradeTable.range(of: lowest, in: candidate), let high = GradeTable.range(of: highest, in: candidate) {
                guard low.lowest <= high.highest else {
                    throw DomainError.invalid(field, "The level's lowest grade \(lowest) is above its highest \(highest); give them the other way round")
                }
                return MeetupLevel(scale: candidate, lowestGrade: lowest.trimmingCharacters(in: .whitespaces),
                                   highestGrade: highest.trimmingCharacters(in: .whitespaces),
                                   range: GradeRange(axis: candidate.axis, lowest: low.lowest, highest: high.highest))
            }
        }
        let names = candidates.map(\.rawValue).joined(separator: ", ")
        throw DomainError.invalid(field, "\"\(lowest)\"–\"\(highest)\" is not a grade range in \(names); write grades such as V3 and V5, 6a and 7a, or 5.10a and 5.11c (and level_scale to name the scale)")
    }

    /// The score ranges a searched-for grade (`level=V4`) may mean: one per scale of the axis
    /// that reads it, the reader's preferred scale first.
    /// - Throws: `DomainError.invalid("level")` when no scale reads it.
    public static func searchRanges(for grade: String, discipline: MeetupDiscipline?, preferences: LogbookPreferences) throws -> [GradeRange] {
        let key = SearchRangesKey(grade: grade, discipline: discipline, preferences: preferences)
        if let known = searchRangesRead.withLock({ $0[key] }) { return known }
        let ranges = try readSearchRanges(for: grade, discipline: discipline, preferences: preferences)
        searchRangesRead.withLock { read in
            if read.count >= 1_024 { read.removeAll(keepingCapacity: true) }
            read[key] = ranges
        }
        return ranges
    }

    /// The grades searches asked for, read: a search reads its `level` on every request, and
    /// trying it in every scale of both axes costs more than the rest of the search.
    private struct SearchRangesKey: Hashable {
        let grade: String
        let discipline: MeetupDiscipline?
        let preferences: LogbookPreferences
    }

    private static let searchRangesRead = Mutex<[SearchRangesKey: [GradeRange]]>([:])

    private static func readSearchRanges(for grade: String, discipline: MeetupDiscipline?, preferences: LogbookPreferences) throws -> [GradeRange] {
        let axes = discipline?.axis.map { [$0] } ?? [.boulder, .route]
        var ranges: [GradeRange] = []
        for axis in axes {
            let scales = [preferences.scale(axis)] + GradeScale.allCases.filter { $0.axis == axis && $0 != preferences.scale(axis) }
            // The first scale of an axis that reads it decides that axis (6a is Font on boulders, French on routes).
            if let range = scales.lazy.compactMap({ GradeTable.range(of: grade, in: $0) }).first { ranges.append(range) }
        }
        guard !ranges.isEmpty, grade.count <= 20 else {
            throw DomainError.invalid("level", "level is one grade, such as V4, 6b+ or 5.11a (got \"\(grade)\")")
        }
        return ranges
    }
}
