import BelayCore
import BelayStorage
import Foundation

/// SQL for gyms, their colour circuits and their managers.
enum GymRepository {
    static let columns = """
        id, name, localized_names, address, country, latitude_e6, longitude_e6, time_zone, website,
        boulder_grading, route_grading, created_at, updated_at
        """

    static func find(id: Int64, in db: Database) throws -> Gym? {
        guard let row = try db.queryOne("SELECT \(columns) FROM gyms WHERE id = ?", [id], decodeRow) else { return nil }
        return try row.gym(levels: levels(gymID: id, in: db))
    }

    /// Gyms whose name (in any locale) contains `text` (nil for all), in id order after `afterID`.
    static func list(matching text: String?, afterID: Int64, limit: Int, in db: Database) throws -> [Gym] {
        var sql = "SELECT \(columns) FROM gyms WHERE id > ?"
        var arguments: [any DatabaseValueConvertible] = [afterID]
        if let text {
            let pattern = "%" + escapedForLike(text.lowercased()) + "%"
            sql += " AND (lower(name) LIKE ? ESCAPE '\\' OR lower(localized_names) LIKE ? ESCAPE '\\')"
            arguments += [pattern, pattern]
        }
        sql += " ORDER BY id LIMIT ?"
        arguments.append(limit)
        let rows = try db.query(sql, arguments, decodeRow)
        return try rows.map { try $0.gym(levels: levels(gymID: $0.id, in: db)) }
    }

    static func escapedForLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    static func insert(_ gym: ValidatedGym, now: Date, in db: Database) throws -> Int64 {
        guard let id = try db.queryOne("""
            INSERT INTO gyms (name, localized_names, address, country, latitude_e6, longitude_e6, time_zone, website,
                              boulder_grading, route_grading, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [gym.name, encodeNames(gym.localizedNames), gym.address, gym.country, microdegrees(gym.latitude), microdegrees(gym.longitude), gym.timeZone,
                  gym.website, gym.boulderGrading.rawValue, gym.routeGrading.rawValue, now, now], { try $0.get("id", as: Int64.self) })
        else { throw DatabaseError.misuse("INSERT INTO gyms … RETURNING id gave no row") }
        try replaceLevels(gymID: id, boulder: gym.boulderLevels, route: gym.routeLevels, in: db)
        return id
    }

    static func update(id: Int64, _ gym: ValidatedGym, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE gyms SET name = ?, localized_names = ?, address = ?, country = ?, latitude_e6 = ?, longitude_e6 = ?, time_zone = ?,
                            website = ?, boulder_grading = ?, route_grading = ?, updated_at = ?
            WHERE id = ?
            """, [gym.name, encodeNames(gym.localizedNames), gym.address, gym.country, microdegrees(gym.latitude), microdegrees(gym.longitude), gym.timeZone,
                  gym.website, gym.boulderGrading.rawValue, gym.routeGrading.rawValue, now, id])
        try replaceLevels(gymID: id, boulder: gym.boulderLevels, route: gym.routeLevels, in: db)
    }

    private static func replaceLevels(gymID: Int64, boulder: [GymLevel], route: [GymLevel], in db: Database) throws {
        try db.execute("DELETE FROM gym_levels WHERE gym_id = ?", [gymID])
        for (axis, levels) in [(GradeAxis.boulder, boulder), (.route, route)] {
            for level in levels {
                try db.execute("""
                    INSERT INTO gym_levels (gym_id, axis, position, colour, name, localized_names, score_min, score_max)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, [gymID, axis.rawValue, level.position, level.colour, level.name, encodeNames(level.localizedNames),
                          level.range.lowest, level.range.highest])
            }
        }
    }

    static func levels(gymID: Int64, in db: Database) throws -> (boulder: [GymLevel], route: [GymLevel]) {
        let rows = try db.query("""
            SELECT axis, position, colour, name, localized_names, score_min, score_max FROM gym_levels
            WHERE gym_id = ? ORDER BY axis, position
            """, [gymID]) { row -> (GradeAxis, GymLevel) in
            let axis = try row.get("axis", as: GradeAxis.self)
            return (axis, GymLevel(position: try row.get("position"), colour: try row.get("colour"), name: try row.get("name"),
                                   localizedNames: decodeNames(try row.get("localized_names")),
                                   range: GradeRange(axis: axis, lowest: try row.get("score_min"), highest: try row.get("score_max"))))
        }
        return (rows.filter { $0.0 == .boulder }.map(\.1), rows.filter { $0.0 == .route }.map(\.1))
    }

    // MARK: Managers

    static func isManager(gymID: Int64, userID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 AS one FROM gym_managers WHERE gym_id = ? AND user_id = ?", [gymID, userID]) { _ in true } ?? false
    }

    static func managers(gymID: Int64, in db: Database) throws -> [Int64] {
        try db.query("SELECT user_id FROM gym_managers WHERE gym_id = ? ORDER BY created_at, user_id", [gymID]) { try $0.get("user_id") }
    }

    static func addManager(gymID: Int64, userID: Int64, now: Date, in db: Database) throws {
        try db.execute("INSERT INTO gym_managers (gym_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT (gym_id, user_id) DO NOTHING",
                       [gymID, userID, now])
    }

    static func removeManager(gymID: Int64, userID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM gym_managers WHERE gym_id = ? AND user_id = ?", [gymID, userID])
    }

    // MARK: Rows

    /// Every value the grading columns may hold, so that an unknown one is an error naming the row.
    enum GradingName: String {
        case v, font, yds, french, uiaa, ewbank, circuit
    }

    struct GymRow {
        let id: Int64, name: String, localizedNames: [String: String], address: String?, country: String?
        let latitude: Double?, longitude: Double?, timeZone: String, website: String?
        let boulderGrading: GradingName, routeGrading: GradingName, createdAt: Date, updatedAt: Date

        func gym(levels: (boulder: [GymLevel], route: [GymLevel])) throws -> Gym {
            guard let boulder = GymGrading(boulderGrading.rawValue, axis: .boulder), let route = GymGrading(routeGrading.rawValue, axis: .route) else {
                throw DatabaseError.misuse("gyms row \(id) grades boulders by \(boulderGrading.rawValue) and routes by \(routeGrading.rawValue), a scale of the other axis")
            }
            return Gym(id: id, name: name, localizedNames: localizedNames, address: address, country: country, latitude: latitude,
                       longitude: longitude, timeZone: timeZone, website: website, boulderGrading: boulder, routeGrading: route,
                       boulderLevels: levels.boulder, routeLevels: levels.route, createdAt: createdAt, updatedAt: updatedAt)
        }
    }

    static func decodeRow(_ row: Row) throws -> GymRow {
        GymRow(id: try row.get("id"), name: try row.get("name"), localizedNames: decodeNames(try row.get("localized_names")),
               address: try row.get("address"), country: try row.get("country"), latitude: degrees(try row.get("latitude_e6")),
               longitude: degrees(try row.get("longitude_e6")), timeZone: try row.get("time_zone"), website: try row.get("website"),
               boulderGrading: try row.get("boulder_grading"), routeGrading: try row.get("route_grading"),
               createdAt: try row.get("created_at"), updatedAt: try row.get("updated_at"))
    }

    /// Degrees as stored: whole millionths.
    static func microdegrees(_ degrees: Double?) -> Int64? {
        degrees.map { Int64(($0 * 1_000_000).rounded()) }
    }

    static func degrees(_ microdegrees: Int64?) -> Double? {
        microdegrees.map { Double($0) / 1_000_000 }
    }

    static func encodeNames(_ names: [String: String]) -> String {
        String(decoding: JSONValue.object(names.mapValues { JSONValue.string($0) }).jsonBytes, as: UTF8.self)
    }

    static func decodeNames(_ text: String) -> [String: String] {
        guard let object = (try? JSONParser.parse(text))?.objectValue else { return [:] }
        var names: [String: String] = [:]
        for (key, value) in object { if let name = value.stringValue { names[key] = name } }
        return names
    }
}
