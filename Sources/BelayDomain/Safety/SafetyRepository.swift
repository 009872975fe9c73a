import BelayStorage
import Foundation

/// SQL for blocks, host bans and terms acceptances.
enum SafetyRepository {
    /// Whether a block either way between the member and the host, or the host's ban of the
    /// member, keeps them apart.
    static func separates(memberID: Int64, hostID: Int64, in db: Database) throws -> Bool {
        guard memberID != hostID else { return false }
        return try db.queryOne("""
            SELECT 1 AS found FROM member_blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)
            UNION ALL SELECT 1 AS found FROM host_bans WHERE host_id = ?2 AND member_id = ?1
            LIMIT 1
            """, [memberID, hostID]) { _ in true } ?? false
    }

    /// Whether either member blocked the other.
    static func blocked(between first: Int64, and second: Int64, in db: Database) throws -> Bool {
        guard first != second else { return false }
        return try db.queryOne("""
            SELECT 1 AS found FROM member_blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1) LIMIT 1
            """, [first, second]) { _ in true } ?? false
    }

    /// The members `userID` blocked or was blocked by.
    static func blockedEitherWay(userID: Int64, in db: Database) throws -> Set<Int64> {
        Set(try db.query("""
            SELECT blocked_id AS other FROM member_blocks WHERE blocker_id = ?1
            UNION SELECT blocker_id AS other FROM member_blocks WHERE blocked_id = ?1
            """, [userID]) { try $0.get("other", as: Int64.self) })
    }

    /// Whether the member has blocked anyone or been blocked by anyone (lists for them then
    /// leave meetups out).
    static func hasBlocks(userID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("""
            SELECT 1 AS found FROM member_blocks WHERE blocker_id = ?1
            UNION ALL SELECT 1 AS found FROM member_blocks WHERE blocked_id = ?1
            LIMIT 1
            """, [userID]) { _ in true } ?? false
    }

    /// Adds a block; an existing one stays as it was.
    /// - Returns: whether it was added now.
    static func insertBlock(blockerID: Int64, blockedID: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("INSERT INTO member_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       [blockerID, blockedID, now])
        return db.changes > 0
    }

    static func deleteBlock(blockerID: Int64, blockedID: Int64, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM member_blocks WHERE blocker_id = ? AND blocked_id = ?", [blockerID, blockedID])
        return db.changes > 0
    }

    static func blocks(blockerID: Int64, in db: Database) throws -> [BlockedMember] {
        try db.query("""
            SELECT u.id, u.handle, u.display_name, b.created_at FROM member_blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = ? ORDER BY b.created_at DESC, u.id DESC
            """, [blockerID], decodeListed)
    }

    /// Adds a host's ban; an existing one stays as it was.
    /// - Returns: whether it was added now.
    static func insertBan(hostID: Int64, memberID: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("INSERT INTO host_bans (host_id, member_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       [hostID, memberID, now])
        return db.changes > 0
    }

    static func deleteBan(hostID: Int64, memberID: Int64, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM host_bans WHERE host_id = ? AND member_id = ?", [hostID, memberID])
        return db.changes > 0
    }

    static func bans(hostID: Int64, in db: Database) throws -> [BlockedMember] {
        try db.query("""
            SELECT u.id, u.handle, u.display_name, b.created_at FROM host_bans b JOIN users u ON u.id = b.member_id
            WHERE b.host_id = ? ORDER BY b.created_at DESC, u.id DESC
            """, [hostID], decodeListed)
    }

    private static func decodeListed(_ row: Row) throws -> BlockedMember {
        BlockedMember(userID: try row.get("id"), handle: try row.get("handle"), displayName: try row.get("display_name"),
                      since: try row.get("created_at"))
    }

    /// Removes the member's blocks and bans, made and received (their account is being deleted).
    static func deleteAll(userID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM member_blocks WHERE blocker_id = ?1 OR blocked_id = ?1", [userID])
        try db.execute("DELETE FROM host_bans WHERE host_id = ?1 OR member_id = ?1", [userID])
    }

    // MARK: Terms

    static func acceptedTerms(userID: Int64, version: String, in db: Database) throws -> Date? {
        try db.queryOne("SELECT accepted_at FROM terms_acceptances WHERE user_id = ? AND version = ?", [userID, version]) {
            try $0.get("accepted_at")
        }
    }

    static func acceptTerms(userID: Int64, version: String, now: Date, in db: Database) throws {
        try db.execute("INSERT INTO terms_acceptances (user_id, version, accepted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       [userID, version, now])
    }

    /// Every version the member accepted, and when, oldest first (for their export).
    static func termsAcceptances(userID: Int64, in db: Database) throws -> [(version: String, acceptedAt: Date)] {
        try db.query("SELECT version, accepted_at FROM terms_acceptances WHERE user_id = ? ORDER BY accepted_at, version", [userID]) {
            (try $0.get("version"), try $0.get("accepted_at"))
        }
    }

    // MARK: Suspension

    /// When the member's suspension ends: `.distantFuture` for good, nil when not suspended at `now`.
    static func suspendedUntil(userID: Int64, now: Date, in db: Database) throws -> Date? {
        try db.queryOne("SELECT suspended_at, suspended_until FROM users WHERE id = ?", [userID]) { row -> Date? in
            guard try row.get("suspended_at", as: Date?.self) != nil else { return nil }
            guard let until = try row.get("suspended_until", as: Date?.self) else { return .distantFuture }
            return until > now ? until : nil
        } ?? nil
    }
}
