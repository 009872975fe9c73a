import BelayStorage
import Foundation

/// SQL for holds and backgrounds.
enum CatalogRepository {
    /// A hold's columns from the table or alias `table`, named `hold_id`, `hold_name`, … so
    /// that they can stand beside other tables' columns in a join.
    static func holdColumns(from table: String = "holds") -> String {
        prefixed(["id", "name", "type", "color", "rarity", "artwork_path", "milestone_only", "retired_at"], from: table, as: "hold_")
    }

    /// Reads the columns `holdColumns` names.
    static func decodeHold(_ row: Row) throws -> Hold {
        Hold(id: try row.get("hold_id"), name: try row.get("hold_name"), type: try row.get("hold_type"),
             color: try row.get("hold_color"), rarity: try row.get("hold_rarity"), artworkPath: try row.get("hold_artwork_path"),
             milestoneOnly: try row.get("hold_milestone_only"), retiredAt: try row.get("hold_retired_at"))
    }

    /// A background's columns from the table or alias `table`, named `background_id`, ….
    static func backgroundColumns(from table: String = "backgrounds") -> String {
        prefixed(["id", "name", "file_path", "top_color", "bottom_color", "retired_at"], from: table, as: "background_")
    }

    /// Reads the columns `backgroundColumns` names.
    static func decodeBackground(_ row: Row) throws -> Background {
        Background(id: try row.get("background_id"), name: try row.get("background_name"),
                   filePath: try row.get("background_file_path"), topColor: try row.get("background_top_color"),
                   bottomColor: try row.get("background_bottom_color"), retiredAt: try row.get("background_retired_at"))
    }

    /// `t.a AS pa, t.b AS pb, …`.
    private static func prefixed(_ columns: [String], from table: String, as prefix: String) -> String {
        columns.map { "\(table).\($0) AS \(prefix)\($0)" }.joined(separator: ", ")
    }

    static func holds(in db: Database) throws -> [Hold] {
        try db.query("SELECT \(holdColumns()) FROM holds ORDER BY id") { try decodeHold($0) }
    }

    static func backgrounds(in db: Database) throws -> [Background] {
        try db.query("SELECT \(backgroundColumns()) FROM backgrounds ORDER BY id") { try decodeBackground($0) }
    }

    static func bumpGeneration(in db: Database) throws {
        try db.execute("UPDATE catalog_generation SET generation = generation + 1 WHERE only_row = 1")
    }

    static func upsert(_ hold: Hold, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO holds (id, name, type, color, rarity, artwork_path, milestone_only, retired_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, ?8)
            ON CONFLICT (id) DO UPDATE SET name = ?2, type = ?3, color = ?4, rarity = ?5, artwork_path = ?6,
                                           milestone_only = ?7, retired_at = NULL, updated_at = ?8
            """, [hold.id, hold.name, hold.type, hold.color, hold.rarity.rawValue, hold.artworkPath, hold.milestoneOnly, now])
    }

    static func retireHold(id: String, at now: Date, in db: Database) throws {
        try db.execute("UPDATE holds SET retired_at = ?, updated_at = ? WHERE id = ? AND retired_at IS NULL", [now, now, id])
    }

    static func upsert(_ background: Background, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO backgrounds (id, name, file_path, top_color, bottom_color, retired_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6)
            ON CONFLICT (id) DO UPDATE SET name = ?2, file_path = ?3, top_color = ?4, bottom_color = ?5,
                                           retired_at = NULL, updated_at = ?6
            """, [background.id, background.name, background.filePath, background.topColor, background.bottomColor, now])
    }

    static func retireBackground(id: String, at now: Date, in db: Database) throws {
        try db.execute("UPDATE backgrounds SET retired_at = ?, updated_at = ? WHERE id = ? AND retired_at IS NULL", [now, now, id])
    }
}
