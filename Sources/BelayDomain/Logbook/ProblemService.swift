import BelayCore
import BelayStorage
import Foundation

/// The problems on gyms' walls: added one by one or as a whole set from a CSV file, listed
/// as they are now or were on a day, and retired a wall at a time.
public final class ProblemService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    /// Rows one set file may have.
    public static let maximumSetRows = 2_000

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Adds one problem (the same one twice is added once).
    /// - Throws: `DomainError`: `gym_not_found`, `not_permitted` (its managers and admins), `invalid_input`.
    public func add(_ problem: NewProblem, gymID: Int64, by actor: Actor) throws -> Problem {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let gym = try GymService.require(gymID, in: db)
                try GymService.requireManaged(gymID, by: actor, in: db)
                let resolved = try ResolvedProblem(problem, gym: gym)
                let id = try ProblemRepository.insertIfNew(gymID: gymID, resolved, now: now, in: db)
                    ?? ProblemRepository.id(gymID: gymID, naturalKey: resolved.naturalKey, in: db)
                guard let id, let stored = try ProblemRepository.find(id: id, in: db) else {
                    throw DatabaseError.misuse("The problem just written could not be read back")
                }
                return stored
            }
        }
    }

    /// Reads a set file (`wall, colour, grade, set_on[, name, setter]`, with or without that
    /// header) and, unless `dryRun`, adds every problem in it in one transaction. The whole
    /// file is checked first; on any row error nothing is written and every error is
    /// reported with its line. Problems already there (the same file twice) are left alone.
    /// - Throws: `DomainError`: `gym_not_found`, `not_permitted`, `invalid_problem_set`
    ///   (see `ProblemSetError` for the rows), `invalid_input` (`expected_removal_on`).
    public func importSet(csv text: String, gymID: Int64, discipline: Discipline = .boulder, expectedRemovalOn: String? = nil,
                          dryRun: Bool = false, by actor: Actor) throws -> ProblemSetOutcome {
        let now = clock.now()
        return try domainCall {
            let body: @Sendable (Database) throws -> ProblemSetOutcome = { db in
                let gym = try GymService.require(gymID, in: db)
                try GymService.requireManaged(gymID, by: actor, in: db)
                let rows = try ProblemSetFile.read(text, gym: gym, discipline: discipline, expectedRemovalOn: expectedRemovalOn)
                var added = 0, unchanged = 0
                var preview: [ProblemSetRowPreview] = []
                for row in rows {
                    if dryRun {
                        let isNew = try ProblemRepository.id(gymID: gymID, naturalKey: row.problem.naturalKey, in: db) == nil
                        if isNew { added += 1 } else { unchanged += 1 }
                        let problem = row.problem
                        preview.append(ProblemSetRowPreview(line: row.line, wall: problem.wall, holdColour: problem.holdColour, grade: problem.grade,
                                                            setOn: problem.setOn, name: problem.name, setter: problem.setter, isNew: isNew))
                    } else if try ProblemRepository.insertIfNew(gymID: gymID, row.problem, now: now, in: db) != nil {
                        added += 1
                    } else {
                        unchanged += 1
                    }
                }
                var outcome = ProblemSetOutcome(rows: rows.count, added: added, unchanged: unchanged, dryRun: dryRun)
                outcome.preview = preview
                return outcome
            }
            return dryRun ? try pool.read(body) : try pool.write(body)
        }
    }

    /// Retires every current problem on the wall, as stripped on `day` (today in the gym's
    /// zone by default). Problems stay for the ticks that name them.
    /// - Returns: how many were retired.
    /// - Throws: `DomainError`: `gym_not_found`, `not_permitted`, `invalid_input` (`on`).
    public func retireWall(_ wall: String, gymID: Int64, on day: String? = nil, by actor: Actor) throws -> Int {
        if let day, CalendarDay(day) == nil {
            throw DomainError.invalid("on", "A day is YYYY-MM-DD, such as 2026-11-29 (got `\(day.prefix(20))`)")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let gym = try GymService.require(gymID, in: db)
                try GymService.requireManaged(gymID, by: actor, in: db)
                let today = CalendarDay(now, in: TimeZone(identifier: gym.timeZone) ?? .gmt).description
                return try ProblemRepository.retire(gymID: gymID, wall: wall, on: day ?? today, in: db)
            }
        }
    }

    /// One problem.
    /// - Throws: `DomainError.problemNotFound`.
    public func problem(id: Int64) throws -> Problem {
        try domainCall {
            try pool.read { db in
                guard let problem = try ProblemRepository.find(id: id, in: db) else {
                    throw DomainError(.problemNotFound, "No problem has id \(id); GET /v1/gyms/{id}/problems lists a gym's")
                }
                return problem
            }
        }
    }

    /// The gym's problems up now (or on `day`), optionally on one wall or overlapping one
    /// grade (of the gym's scale or circuit, or any scale), in the order they were added.
    /// - Throws: `DomainError`: `gym_not_found`, `invalid_input` (`on`, `grade`, `limit`), `invalid_cursor`.
    public func list(gymID: Int64, on day: String?, wall: String?, grade: String?, limit: Int, cursor: String?) throws -> Page<Problem> {
        let limit = try validatedLimit(limit, maximum: 200)
        if let day, CalendarDay(day) == nil {
            throw DomainError.invalid("on", "A day is YYYY-MM-DD, such as 2026-11-29 (got `\(day.prefix(20))`)")
        }
        let after = try cursor.map { try Cursor.decode($0, list: "problems").id } ?? 0
        let problems = try domainCall {
            try pool.read { db -> [Problem] in
                let gym = try GymService.require(gymID, in: db)
                let range = try grade.map { try Self.range(of: $0, at: gym) }
                var problems = try ProblemRepository.list(gymID: gymID, on: day, wall: wall, range: range, afterID: after, limit: limit + 1, in: db)
                let felt = try TickRepository.feltScores(problemIDs: problems.map(\.id), in: db)
                for index in problems.indices {
                    let votes = felt[problems[index].id] ?? [:]
                    problems[index].votes = votes.values.reduce(0, +)
                    problems[index].communityScore = Problem.communityScore(of: votes)
                }
                return problems
            }
        }
        let next = problems.count > limit ? Cursor(list: "problems", key: 0, id: problems[limit - 1].id).encoded : nil
        return Page(items: Array(problems.prefix(limit)), nextCursor: next)
    }

    /// A grade filter read against the gym (its boulder grading first), else against every scale.
    private static func range(of grade: String, at gym: Gym) throws -> GradeRange {
        for axis in GradeAxis.allCases {
            if let resolved = try? GymGrade.resolve(grade, axis: axis, at: gym, field: "grade") { return resolved.range }
        }
        for scale in GradeScale.allCases {
            if let range = GradeTable.range(of: grade, in: scale) { return range }
        }
        throw DomainError.invalid("grade", "`\(grade.prefix(20))` is no grade or level this gym uses, nor a grade of any scale")
    }
}

/// What importing a problem set did (or, on a dry run, would do).
public struct ProblemSetOutcome: Sendable, Hashable {
    public let rows: Int
    public let added: Int
    /// Rows naming a problem the gym already has.
    public let unchanged: Int
    public let dryRun: Bool

    /// On a dry run, each row as it would be added (in file order), and whether it is new.
    public var preview: [ProblemSetRowPreview] = []

    public init(rows: Int, added: Int, unchanged: Int, dryRun: Bool) {
        self.rows = rows
        self.added = added
        self.unchanged = unchanged
        self.dryRun = dryRun
    }
}

/// One row of a set file as a dry run read it.
public struct ProblemSetRowPreview: Sendable, Hashable {
    public let line: Int
    public let wall: String
    public let holdColour: String
    public let grade: String
    public let setOn: String
    public let name: String?
    public let setter: String?
    /// False when the gym has this problem already (it would be left alone).
    public let isNew: Bool
}
