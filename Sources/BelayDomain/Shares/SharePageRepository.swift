import BelayStorage
import Foundation

/// SQL for share pages and the member's share-page preference.
enum SharePageRepository {
    static func slug(rewardID: Int64, in db: Database) throws -> String? {
        try db.queryOne("SELECT slug FROM share_pages WHERE reward_id = ?", [rewardID]) { try $0.get("slug") }
    }

    static func insert(slug: String, rewardID: Int64, at now: Date, in db: Database) throws {
        try db.execute("INSERT INTO share_pages (slug, reward_id, created_at) VALUES (?, ?, ?)", [slug, rewardID, now])
    }

    /// Takes the reward's page down: its row moves to `share_pages_unpublished`, so its slug
    /// answers 410 from then on. Returns whether there was a page.
    static func unpublish(rewardID: Int64, at now: Date, in db: Database) throws -> Bool {
        try db.execute("""
            INSERT INTO share_pages_unpublished (slug, reward_id, published_at, unpublished_at)
            SELECT slug, reward_id, created_at, ? FROM share_pages WHERE reward_id = ?
            """, [now, rewardID])
        guard db.changes > 0 else { return false }
        try db.execute("DELETE FROM share_pages WHERE reward_id = ?", [rewardID])
        return true
    }

    /// Whether `slug` named a page its member took down.
    static func wasUnpublished(slug: String, in db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM share_pages_unpublished WHERE slug = ?", [slug]) { _ in true } ?? false
    }

    /// The reward id behind `slug` and whether its member shows their name.
    static func find(slug: String, in db: Database) throws -> (rewardID: Int64, memberName: String, showsName: Bool)? {
        try db.queryOne("""
            SELECT p.reward_id, u.display_name, u.show_name_on_share_pages
            FROM share_pages p JOIN rewards r ON r.id = p.reward_id JOIN users u ON u.id = r.member_id
            WHERE p.slug = ?
            """, [slug]) {
                (try $0.get("reward_id"), try $0.get("display_name"), try $0.get("show_name_on_share_pages"))
            }
    }

    static func setShowsName(_ shows: Bool, userID: Int64, in db: Database) throws -> Bool {
        try db.execute("UPDATE users SET show_name_on_share_pages = ? WHERE id = ?", [shows, userID])
        return db.changes > 0
    }

    static func showsName(userID: Int64, in db: Database) throws -> Bool? {
        try db.queryOne("SELECT show_name_on_share_pages FROM users WHERE id = ?", [userID]) { try $0.get("show_name_on_share_pages") }
    }
}
