import BelayStorage
import Foundation

/// SQL for a member's progress.
enum ProgressRepository {
    /// Catalogue holds (not retired) by rarity.
    static func catalogueCounts(in db: Database) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try db.query("SELECT rarity, count(*) AS count FROM holds WHERE retired_at IS NULL GROUP BY rarity", []) {
            (try $0.get("rarity", as: String.self), try $0.get("count", as: Int.self))
        })
    }

    /// Distinct catalogue holds (not retired) the member has a standing reward of, by rarity.
    static func collectedCounts(memberID: Int64, in db: Database) throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try db.query("""
            SELECT h.rarity, count(DISTINCT r.hold_id) AS count FROM rewards r JOIN holds h ON h.id = r.hold_id
            WHERE r.member_id = ? AND r.revoked_at IS NULL AND h.retired_at IS NULL GROUP BY h.rarity
            """, [memberID]) { (try $0.get("rarity", as: String.self), try $0.get("count", as: Int.self)) })
    }

    /// When the member checked in, every time.
    static func checkInTimes(memberID: Int64, in db: Database) throws -> [Date] {
        try db.query("SELECT checked_in_at FROM attendances WHERE member_id = ? AND status = 'checked_in'", [memberID]) { try $0.get("checked_in_at") }
    }
}
