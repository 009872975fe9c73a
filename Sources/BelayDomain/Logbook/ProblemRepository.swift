import BelayStorage
import Foundation

/// SQL for the problems on gyms' walls.
enum ProblemRepository {
    static let columns = """
        id, gym_id, wall, discipline, hold_colour, grade, level_position, score_min, score_max, name, setter,
        set_on, expected_removal_on, removed_on, created_at
        """

    static func decode(_ row: Row) throws -> Problem {
        let discipline = try row.get("discipline", as: Discipline.self)
        return Problem(id: try row.get("id"), gymID: try row.get("gym_id"), wall: try row.get("wall"), discipline: discipline,
                       holdColour: try row.get("hold_colour"), grade: try row.get("grade"), levelPosition: try row.get("level_position"),
                       range: GradeRange(axis: discipline.axis, lowest: try row.get("score_min"), highest: try row.get("score_max")),
                       name: try row.get("name"), setter: try row.get("setter"), setOn: try row.get("set_on"),
                       expectedRemovalOn: try row.get("expected_removal_on"), removedOn: try row.get("removed_on"),
                       createdAt: try row.get("created_at"))
    }

    static func find(id: Int64, in db: Database) throws -> Problem? {
        try db.queryOne("SELECT \(columns) FROM problems WHERE id = ?", [id], decode)
    }

    /// Inserts the problem unless the gym has one with the same natural key.
    /// - Returns: the new problem's id, or nil when it was there already.
    static func insertIfNew(gymID: Int64, _ problem: ResolvedProblem, now: Date, in db: Database) throws -> Int64? {
        try db.queryOne("""
            INSERT INTO problems (gym_id, wall, discipline, hold_colour, grade, level_position, score_min, score_max, name, setter,
                                  set_on, expected_removal_on, natural_key, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (gym_id, natural_key) DO NOTHING RETURNING id
            """, [gymID, problem.wall, problem.discipline.rawValue, problem.holdColour, problem.grade, problem.levelPosition,
                  problem.range.lowest, problem.range.highest, problem.name, problem.setter, problem.setOn,
                  problem.expectedRemovalOn, problem.naturalKey, now]) { try $0.get("id", as: Int64.self) }
    }

    static func id(gymID: Int64, naturalKey: String, in db: Database) throws -> Int64? {
        try db.queryOne("SELECT id FROM problems WHERE gym_id = ? AND natural_key = ?", [gymID, naturalKey]) { try $0.get("id") }
    }

    /// The gym's problems on the wall on `day` (set on or before it and not yet removed), or
    /// those still up when `day` is nil; after `afterID`, in wall and id order.
    static func list(gymID: Int64, on day: String?, wall: String?, range: GradeRange?, afterID: Int64, limit: Int,
                     in db: Database) throws -> [Problem] {
        var sql = "SELECT \(columns) FROM problems WHERE gym_id = ? AND id > ?"
        var arguments: [any DatabaseValueConvertible] = [gymID, afterID]
        if let day {
            sql += " AND set_on <= ? AND (removed_on IS NULL OR removed_on > ?)"
            arguments += [day, day]
        } else {
            sql += " AND removed_on IS NULL"
        }
        if let wall {
            sql += " AND lower(wall) = ?"
            arguments.append(wall.lowercased())
        }
        if let range {
            sql += " AND discipline \(range.axis == .boulder ? "=" : "<>") 'boulder' AND score_min <= ? AND score_max >= ?"
            arguments += [range.highest, range.lowest]
        }
        sql += " ORDER BY id LIMIT ?"
        arguments.append(limit)
        return try db.query(sql, arguments, decode)
    }

    /// Marks the wall's current problems removed on `day`.
    /// - Returns: how many were retired.
    static func retire(gymID: Int64, wall: String, on day: String, in db: Database) throws -> Int {
        try db.execute("UPDATE problems SET removed_on = ? WHERE gym_id = ? AND lower(wall) = ? AND removed_on IS NULL",
                       [day, gymID, wall.lowercased()])
        return db.changes
    }
}
