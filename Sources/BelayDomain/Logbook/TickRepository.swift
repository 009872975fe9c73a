import BelayStorage
import Foundation

/// SQL for ticks and members' logbook preferences.
enum TickRepository {
    static let columns = """
        id, user_id, client_tick_id, kind, problem_id, gym_id, meetup_id, discipline, grade, grade_scale, level_position, colour,
        score_min, score_max, route_name, crag, style, attempts, climbed_at, climbed_on, note, stars, felt_grade, felt_score,
        visibility, created_at, updated_at
        """

    /// `columns` of the table aliased `t`, for a SELECT that joins another.
    static let columnsOfT = columns.split(separator: ",").map { "t." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    static func decode(_ row: Row) throws -> Tick {
        let discipline = try row.get("discipline", as: Discipline.self)
        return Tick(id: try row.get("id"), userID: try row.get("user_id"), clientTickID: try row.get("client_tick_id"),
                    kind: try row.get("kind"), problemID: try row.get("problem_id"), gymID: try row.get("gym_id"),
                    meetupID: try row.get("meetup_id"), discipline: discipline, grade: try row.get("grade"),
                    gradeScale: try row.get("grade_scale", as: GradeScale?.self), levelPosition: try row.get("level_position"),
                    colour: try row.get("colour"),
                    range: GradeRange(axis: discipline.axis, lowest: try row.get("score_min"), highest: try row.get("score_max")),
                    routeName: try row.get("route_name"), crag: try row.get("crag"), style: try row.get("style"),
                    attempts: try row.get("attempts"), climbedAt: try row.get("climbed_at"), climbedOn: try row.get("climbed_on"),
                    note: try row.get("note"), stars: try row.get("stars"), feltGrade: try row.get("felt_grade"),
                    feltScore: try row.get("felt_score"), visibility: try row.get("visibility"),
                    createdAt: try row.get("created_at"), updatedAt: try row.get("updated_at"))
    }

    static func find(id: Int64, in db: Database) throws -> Tick? {
        try db.queryOne("SELECT \(columns) FROM ticks WHERE id = ?", [id], decode)
    }

    static func find(userID: Int64, clientTickID: String, in db: Database) throws -> Tick? {
        try db.queryOne("SELECT \(columns) FROM ticks WHERE user_id = ? AND client_tick_id = ?", [userID, clientTickID], decode)
    }

    /// Inserts the tick unless the member has one with its `client_tick_id`.
    /// - Returns: the new id, or nil when it was recorded before.
    static func insertIfNew(_ tick: ResolvedTick, userID: Int64, now: Date, in db: Database) throws -> Int64? {
        try db.insertedID("""
            INSERT INTO ticks (user_id, client_tick_id, kind, problem_id, gym_id, meetup_id, discipline, axis, grade, grade_scale,
                               level_position, colour, score_min, score_max, route_name, crag, style, attempts, climbed_at, climbed_on,
                               note, stars, felt_grade, felt_score, visibility, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, client_tick_id) DO NOTHING
            """, [userID, tick.clientTickID, tick.kind.rawValue, tick.problemID, tick.gymID, tick.meetupID, tick.discipline.rawValue,
                  tick.discipline.axis.rawValue, tick.grade, tick.gradeScale?.rawValue, tick.levelPosition, tick.colour,
                  tick.range.lowest, tick.range.highest, tick.routeName, tick.crag, tick.style.rawValue, tick.attempts,
                  tick.climbedAt, tick.climbedOn, tick.note, tick.stars, tick.feltGrade, tick.feltScore,
                  tick.visibility.rawValue, now, now])
    }

    static func update(id: Int64, style: TickStyle, attempts: Int, note: String?, stars: Int?, feltGrade: String?, feltScore: Int?,
                       visibility: TickVisibility, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE ticks SET style = ?, attempts = ?, note = ?, stars = ?, felt_grade = ?, felt_score = ?, visibility = ?, updated_at = ?
            WHERE id = ?
            """, [style.rawValue, attempts, note, stars, feltGrade, feltScore, visibility.rawValue, now, id])
    }

    static func delete(id: Int64, in db: Database) throws {
        try db.execute("DELETE FROM ticks WHERE id = ?", [id])
    }

    /// The member's ticks matching `filter` that `visibilities` allow, newest day first, after the cursor position.
    static func list(userID: Int64, visibilities: [TickVisibility], filter: TickFilter, after: (day: String, id: Int64)?, limit: Int,
                     in db: Database) throws -> [Tick] {
        var sql = "SELECT \(columns) FROM ticks WHERE user_id = ? AND visibility IN (\(visibilities.map { "'\($0.rawValue)'" }.joined(separator: ", ")))"
        var arguments: [any DatabaseValueConvertible] = [userID]
        filter.append(to: &sql, &arguments)
        if let after {
            sql += " AND (climbed_on < ? OR (climbed_on = ? AND id < ?))"
            arguments += [after.day, after.day, after.id]
        }
        sql += " ORDER BY climbed_on DESC, id DESC LIMIT ?"
        arguments.append(limit)
        return try db.query(sql, arguments, decode)
    }

    /// What a summary needs of the member's ticks that `visibilities` allow, up to the day `to`.
    static func facts(userID: Int64, visibilities: [TickVisibility], to day: String, in db: Database) throws -> [TickFacts] {
        try db.query("""
            SELECT id, climbed_on, climbed_at, style, axis, score_min, score_max, gym_id, crag, meetup_id, level_position, colour
            FROM ticks WHERE user_id = ? AND climbed_on <= ? AND visibility IN (\(visibilities.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
            """, [userID, day]) { row in
            TickFacts(id: try row.get(0), climbedOn: try row.get(1), climbedAt: try row.get(2),
                      style: try row.get(3, as: TickStyle.self),
                      range: GradeRange(axis: try row.get(4, as: GradeAxis.self), lowest: try row.get(5), highest: try row.get(6)),
                      gymID: try row.get(7), crag: try row.get(8), meetupID: try row.get(9), levelPosition: try row.get(10), colour: try row.get(11))
        }
    }

    /// The ticks of a meetup's attendees that `visibilities` allow, by member and time.
    static func list(meetupID: Int64, visibilities: [TickVisibility], in db: Database) throws -> [Tick] {
        try db.query("""
            SELECT \(columns) FROM ticks WHERE meetup_id = ? AND visibility IN (\(visibilities.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
            ORDER BY user_id, climbed_at, id
            """, [meetupID], decode)
    }

    /// The meetups the member was checked in to whose check-in windows meet `earliest`…`latest`,
    /// with their windows: what a batch's ticks are matched against, read once for the batch.
    static func meetupsCheckedIn(memberID: Int64, from earliest: Date, to latest: Date, opensBefore: TimeInterval, closesAfter: TimeInterval,
                                 in db: Database) throws -> [CheckedInMeetup] {
        try db.query("""
            SELECT m.id, m.time_zone, m.starts_at, m.ends_at FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.member_id = ? AND a.status = 'checked_in' AND m.starts_at <= ? AND m.ends_at >= ?
            ORDER BY m.starts_at DESC
            """, [memberID, latest.addingTimeInterval(opensBefore), earliest.addingTimeInterval(-closesAfter)]) {
            CheckedInMeetup(id: try $0.get("id"), timeZone: try $0.get("time_zone"),
                            opensAt: try $0.get("starts_at", as: Date.self).addingTimeInterval(-opensBefore),
                            closesAt: try $0.get("ends_at", as: Date.self).addingTimeInterval(closesAfter))
        }
    }

    /// The meetup the member was checked in to whose check-in window holds `instant`, if any.
    static func meetupCheckedIn(memberID: Int64, at instant: Date, opensBefore: TimeInterval, closesAfter: TimeInterval,
                                in db: Database) throws -> (id: Int64, timeZone: String)? {
        try db.queryOne("""
            SELECT m.id, m.time_zone FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.member_id = ? AND a.status = 'checked_in' AND m.starts_at <= ? AND m.ends_at >= ?
            ORDER BY m.starts_at DESC LIMIT 1
            """, [memberID, instant.addingTimeInterval(opensBefore), instant.addingTimeInterval(-closesAfter)]) {
            (try $0.get("id", as: Int64.self), try $0.get("time_zone", as: String.self))
        }
    }

    /// The topped ticks at a gym on or after `from` of the members who opted in to rankings,
    /// ticks kept private left out.
    static func rankedSends(gymID: Int64, from day: String, in db: Database) throws -> [Tick] {
        try db.query("""
            SELECT \(columnsOfT)
            FROM ticks t JOIN logbook_preferences p ON p.user_id = t.user_id
            WHERE t.gym_id = ? AND t.climbed_on >= ? AND t.style <> 'attempt' AND t.visibility <> 'private' AND p.in_rankings = 1
            """, [gymID, day], decode)
    }

    /// How members felt the grades of `problemIDs`: per problem, each felt score and its votes
    /// (private ticks left out).
    static func feltScores(problemIDs: [Int64], in db: Database) throws -> [Int64: [Int: Int]] {
        guard !problemIDs.isEmpty else { return [:] }
        var votes: [Int64: [Int: Int]] = [:]
        _ = try db.query("""
            SELECT problem_id, felt_score, count(*) AS votes FROM ticks
            WHERE problem_id IN (\(problemIDs.map(String.init).joined(separator: ", "))) AND felt_score IS NOT NULL AND visibility <> 'private'
            GROUP BY problem_id, felt_score
            """, []) { row in
            votes[try row.get("problem_id", as: Int64.self), default: [:]][try row.get("felt_score", as: Int.self)] = try row.get("votes", as: Int.self)
        }
        return votes
    }

    /// The felt scores of the topped ticks at each of a gym's levels (private ticks left out).
    static func feltScoresByLevel(gymID: Int64, axis: GradeAxis, in db: Database) throws -> [Int: [Int]] {
        var scores: [Int: [Int]] = [:]
        _ = try db.query("""
            SELECT level_position, felt_score FROM ticks
            WHERE gym_id = ? AND axis = ? AND level_position IS NOT NULL AND felt_score IS NOT NULL AND style <> 'attempt'
              AND visibility <> 'private'
            """, [gymID, axis.rawValue]) { row in
            scores[try row.get("level_position", as: Int.self), default: []].append(try row.get("felt_score", as: Int.self))
        }
        return scores
    }

    /// Removes everything of a leaving member's logbook: ticks, preferences, gym manager roles.
    static func erase(userID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM ticks WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM logbook_preferences WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM gym_managers WHERE user_id = ?", [userID])
    }

    // MARK: Preferences

    static func preferences(userID: Int64, in db: Database) throws -> LogbookPreferences? {
        try db.queryOne("SELECT boulder_scale, route_scale, default_visibility, in_rankings FROM logbook_preferences WHERE user_id = ?", [userID]) {
            LogbookPreferences(boulderScale: try $0.get("boulder_scale"), routeScale: try $0.get("route_scale"),
                               defaultVisibility: try $0.get("default_visibility"), inRankings: try $0.get("in_rankings"))
        }
    }

    static func savePreferences(_ preferences: LogbookPreferences, userID: Int64, now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO logbook_preferences (user_id, boulder_scale, route_scale, default_visibility, in_rankings, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET boulder_scale = excluded.boulder_scale, route_scale = excluded.route_scale,
                default_visibility = excluded.default_visibility, in_rankings = excluded.in_rankings, updated_at = excluded.updated_at
            """, [userID, preferences.boulderScale.rawValue, preferences.routeScale.rawValue, preferences.defaultVisibility.rawValue,
                  preferences.inRankings, now])
    }
}

/// What a logbook list may be narrowed to.
public struct TickFilter: Sendable, Hashable {
    public var gymID: Int64?
    public var meetupID: Int64?
    public var discipline: Discipline?
    public var style: TickStyle?
    /// Ticks whose grade overlaps this range.
    public var grades: GradeRange?
    /// Days, inclusive (YYYY-MM-DD).
    public var from: String?
    public var to: String?

    public init(gymID: Int64? = nil, meetupID: Int64? = nil, discipline: Discipline? = nil, style: TickStyle? = nil,
                grades: GradeRange? = nil, from: String? = nil, to: String? = nil) {
        self.gymID = gymID
        self.meetupID = meetupID
        self.discipline = discipline
        self.style = style
        self.grades = grades
        self.from = from
        self.to = to
    }

    func append(to sql: inout String, _ arguments: inout [any DatabaseValueConvertible]) {
        if let gymID { sql += " AND gym_id = ?"; arguments.append(gymID) }
        if let meetupID { sql += " AND meetup_id = ?"; arguments.append(meetupID) }
        if let discipline { sql += " AND discipline = ?"; arguments.append(discipline.rawValue) }
        if let style { sql += " AND style = ?"; arguments.append(style.rawValue) }
        if let grades {
            sql += " AND axis = ? AND score_min <= ? AND score_max >= ?"
            arguments += [grades.axis.rawValue, grades.highest, grades.lowest]
        }
        if let from { sql += " AND climbed_on >= ?"; arguments.append(from) }
        if let to { sql += " AND climbed_on <= ?"; arguments.append(to) }
    }
}
