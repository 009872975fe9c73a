import BelayStorage
import Foundation

/// SQL for moderation: the append-only log, hiding content and suspending members.
enum ModerationRepository {
    static func insertAction(moderatorID: Int64?, action: ModerationActionKind, subjectType: ReportSubjectType, subjectID: String,
                             reason: String, reportIDs: [Int64], until: Date?, now: Date, in db: Database) throws -> ModerationAction {
        let ids = "[" + reportIDs.map(String.init).joined(separator: ",") + "]"
        let id = try db.insertReturningID("""
            INSERT INTO moderation_actions (moderator_id, action, subject_type, subject_id, reason, report_ids, until_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [moderatorID, action.rawValue, subjectType.rawValue, subjectID, reason, ids, until, now])
        return ModerationAction(id: id, moderatorID: moderatorID, action: action, subjectType: subjectType, subjectID: subjectID,
                                reason: reason, reportIDs: reportIDs, until: until, createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
    }

    /// The log, newest first, before the cursor's id; only one subject's entries when given.
    static func actions(beforeID: Int64, limit: Int, subject: (ReportSubjectType, String)?, in db: Database) throws -> [ModerationAction] {
        try db.query("""
            SELECT id, moderator_id, action, subject_type, subject_id, reason, report_ids, until_at, created_at FROM moderation_actions
            WHERE id < ?1 AND (?2 IS NULL OR (subject_type = ?2 AND subject_id = ?3)) ORDER BY id DESC LIMIT ?4
            """, [beforeID, subject?.0.rawValue, subject?.1, limit]) { row in
            let action: String = try row.get("action"), type: String = try row.get("subject_type"), ids: String = try row.get("report_ids")
            guard let kind = ModerationActionKind(rawValue: action), let subjectType = ReportSubjectType(rawValue: type) else {
                throw DomainError(.invalidInput, "The moderation log holds an action Belay does not know (\(action) on \(type)); update Belay")
            }
            let reportIDs = ids.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            return ModerationAction(id: try row.get("id"), moderatorID: try row.get("moderator_id"), action: kind, subjectType: subjectType,
                                    subjectID: try row.get("subject_id"), reason: try row.get("reason"), reportIDs: reportIDs,
                                    until: try row.get("until_at"), createdAt: try row.get("created_at"))
        }
    }

    // MARK: Hiding

    /// Hides a meetup.
    /// - Returns: whether it was visible until now.
    static func hideMeetup(id: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE meetups SET hidden_at = ?, updated_at = ? WHERE id = ? AND hidden_at IS NULL", [now, now, id])
        return db.changes > 0
    }

    static func showMeetup(id: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE meetups SET hidden_at = NULL, updated_at = ? WHERE id = ? AND hidden_at IS NOT NULL", [now, id])
        return db.changes > 0
    }

    static func meetupIsHidden(id: Int64, in db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM meetups WHERE id = ? AND hidden_at IS NOT NULL", [id]) { _ in true } ?? false
    }

    static func hideSharePage(slug: String, now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE share_pages SET hidden_at = ? WHERE slug = ? AND hidden_at IS NULL", [now, slug])
        return db.changes > 0
    }

    static func showSharePage(slug: String, in db: Database) throws -> Bool {
        try db.execute("UPDATE share_pages SET hidden_at = NULL WHERE slug = ? AND hidden_at IS NOT NULL", [slug])
        return db.changes > 0
    }

    /// Whether the share page was hidden by a moderator, or its member is suspended at `now`.
    static func sharePageIsWithheld(slug: String, now: Date, in db: Database) throws -> Bool {
        try db.queryOne("""
            SELECT 1 AS found FROM share_pages p JOIN rewards r ON r.id = p.reward_id JOIN users u ON u.id = r.member_id
            WHERE p.slug = ? AND (p.hidden_at IS NOT NULL OR (u.suspended_at IS NOT NULL AND (u.suspended_until IS NULL OR u.suspended_until > ?)))
            """, [slug, now]) { _ in true } ?? false
    }

    /// The share page's owner, for the report's subject.
    static func sharePageOwner(slug: String, in db: Database) throws -> (memberID: Int64, rewardID: Int64)? {
        try db.queryOne("SELECT r.member_id, r.id FROM share_pages p JOIN rewards r ON r.id = p.reward_id WHERE p.slug = ?", [slug]) {
            (try $0.get("member_id"), try $0.get("id"))
        }
    }

    /// Replaces a member's display name and handle with neutral ones (`Member`, `hidden-N`, a
    /// handle nobody may choose) until they choose new ones.
    /// - Returns: whether the member exists (and is not deleted).
    static func hideMemberName(userID: Int64, in db: Database) throws -> Bool {
        try db.execute("UPDATE users SET display_name = 'Member', handle = ? WHERE id = ? AND deleted_at IS NULL", ["hidden-\(userID)", userID])
        return db.changes > 0
    }

    // MARK: Suspension

    static func suspend(userID: Int64, until: Date?, now: Date, in db: Database) throws {
        try db.execute("UPDATE users SET suspended_at = ?, suspended_until = ? WHERE id = ?", [now, until, userID])
        try db.execute("UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL", [now, userID])
        try db.execute("UPDATE refresh_tokens SET used_at = ? WHERE used_at IS NULL AND session_id IN (SELECT id FROM sessions WHERE user_id = ?)",
                       [now, userID])
        _ = try UserRepository.revokeTokens(userID: userID, at: now, in: db)
        _ = try CalendarRepository.bumpGeneration(userID: userID, now: now, in: db)
    }

    /// - Returns: whether the member was suspended.
    static func lift(userID: Int64, in db: Database) throws -> Bool {
        try db.execute("UPDATE users SET suspended_at = NULL, suspended_until = NULL WHERE id = ? AND suspended_at IS NOT NULL", [userID])
        return db.changes > 0
    }

    /// The member's scheduled meetups that have not started by `now`.
    static func upcomingHosted(userID: Int64, now: Date, in db: Database) throws -> [Meetup] {
        try db.query("SELECT \(MeetupRepository.columns) FROM meetups m WHERE m.host_id = ? AND m.status = 'scheduled' AND m.starts_at > ? ORDER BY m.id",
                     [userID, now], MeetupRepository.decode)
    }

    /// Whether the user may moderate: an admin, or a member with the moderator flag.
    static func isModerator(userID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM users WHERE id = ? AND deleted_at IS NULL AND (role = 'admin' OR moderator = 1)", [userID]) { _ in true } ?? false
    }

    static func setModerator(userID: Int64, _ moderator: Bool, in db: Database) throws -> Bool {
        try db.execute("UPDATE users SET moderator = ? WHERE id = ? AND deleted_at IS NULL", [moderator, userID])
        return db.changes > 0
    }
}
