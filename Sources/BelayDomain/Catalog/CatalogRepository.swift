import BelayStorage
import Foundation

/// SQL for holds and backgrounds.
enum CatalogRepository {
    static let holdColumns = "id, name, type, color, rarity, artwork_path, milestone_only, retired_at"

    static func decodeHold(_ row: Row, from start: Int = 0) throws -> Hold {
        Hold(id: try row.get(start), name: try row.get(start + 1), type: try row.get(start + 2), color: try row.get(start + 3),
             rarity: HoldRarity(rawValue: try row.get(start + 4)) ?? .common, artworkPath: try row.get(start + 5),
             milestoneOnly: try row.get(start + 6), retiredAt: try row.get(start + 7))
    }

    static let backgroundColumns = "id, name, file_path, top_color, bottom_color, retired_at"

    static func decodeBackground(_ row: Row, from start: Int = 0) throws -> Background {
        Background(id: try row.get(start), name: try row.get(start + 1), filePath: try row.get(start + 2),
                   topColor: try row.get(start + 3), bottomColor: try row.get(start + 4), retiredAt: try row.get(start + 5))
    }

    static func holds(in db: Database) throws -> [Hold] {
        try db.query("SELECT \(holdColumns) FROM holds ORDER BY id") { try decodeHold($0) }
    }

    static func backgrounds(in db: Database) throws -> [Background] {
        try db.query("SELECT \(backgroundColumns) FROM backgrounds ORDER BY id") { try decodeBackground($0) }
    }

    static func generation(in db: Database) throws -> Int64 {
        try db.scalar("SELECT generation FROM catalog_generation WHERE only_row = 1", as: Int64.self) ?? 0
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
