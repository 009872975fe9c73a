import BelayStorage
import Foundation

/// SQL for blocks, host bans and terms acceptances.
enum SafetyRepository {
    /// A member, meetup or host in a block condition: SQL of the statement it goes into (a
    /// column such as `a.member_id`, or a numbered placeholder such as `?1`), or a value bound
    /// where it stands (for statements with plain `?` placeholders).
    enum Operand {
        case sql(String)
        case value(Int64)
    }

    /// SQL true when a block either way, and with `bans` a ban, keeps `member` apart from the
    /// people who run the meetup: its host (`host`, the meetup's current host) and its
    /// co-hosts (of the meetup `meetup`). A co-host counts as the host: a member blocked by one,
    /// or who blocked one, is kept from the meetup as from the host's own.
    ///
    /// The one statement of the rule: joining and claiming, the waitlist's line, lists and
    /// searches, the feed, what a member may see by id and whom a new meetup's notice reaches
    /// all take their condition from here.
    /// - Returns: the condition and the values its `?` placeholders bind, in order.
    static func keptApartSQL(member: Operand, meetup: Operand = .sql("m.id"), host: Operand = .sql("m.host_id"),
                             bans: Bool) -> (sql: String, values: [any DatabaseValueConvertible]) {
        var values: [any DatabaseValueConvertible] = []
        func text(_ operand: Operand) -> String {
            switch operand {
            case let .sql(sql): return sql
            case let .value(value): values.append(value); return "?"
            }
        }
        // Each operand is written where it is bound, so plain `?` placeholders bind in order.
        var sql = "(EXISTS (SELECT 1 FROM member_blocks b WHERE (b.blocker_id = \(text(member)) AND (b.blocked_id = \(text(host)) OR b.blocked_id IN (SELECT c.user_id FROM meetup_cohosts c WHERE c.meetup_id = \(text(meetup)))))"
        sql += " OR (b.blocked_id = \(text(member)) AND (b.blocker_id = \(text(host)) OR b.blocker_id IN (SELECT c.user_id FROM meetup_cohosts c WHERE c.meetup_id = \(text(meetup))))))"
        if bans {
            sql += " OR EXISTS (SELECT 1 FROM host_bans h WHERE h.member_id = \(text(member)) AND (h.host_id = \(text(host)) OR h.host_id IN (SELECT c.user_id FROM meetup_cohosts c WHERE c.meetup_id = \(text(meetup)))))"
        }
        return (sql + ")", values)
    }

    /// SQL true when the meetup's host or one of its co-hosts blocked `member` (what the
    /// attendee list shows them: their own side of a block, never the attendee's).
    static func blockedByRunnersSQL(member: String, meetup: String = "m.id", host: String = "m.host_id") -> String {
        """
        EXISTS (SELECT 1 FROM member_blocks b WHERE b.blocked_id = \(member)
                AND (b.blocker_id = \(host) OR b.blocker_id IN (SELECT c.user_id FROM meetup_cohosts c WHERE c.meetup_id = \(meetup))))
        """
    }

    /// Whether a block either way between the member and the meetup's host or one of its
    /// co-hosts, or (with `bans`) a ban by one of them, keeps the member from the meetup.
    static func keptApart(memberID: Int64, meetupID: Int64, hostID: Int64, bans: Bool, in db: Database) throws -> Bool {
        let condition = keptApartSQL(member: .sql("?1"), meetup: .sql("?2"), host: .sql("?3"), bans: bans)
        return try db.queryOne("SELECT 1 AS found WHERE \(condition.sql)", [memberID, meetupID, hostID]) { _ in true } ?? false
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
