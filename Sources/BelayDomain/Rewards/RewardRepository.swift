import BelayStorage
import Foundation

/// SQL for rewards.
enum RewardRepository {
    static let select = """
        SELECT r.id, r.attendance_id, r.member_id, r.meetup_id, r.milestone, r.awarded_at, r.revoked_at, r.render_status,
               r.sticker_hash, r.sticker_path, r.story_hash, r.story_path, r.template_version, r.rendered_at, r.failure_reason,
               m.title, m.place_name, m.starts_at, m.time_zone,
               h.id, h.name, h.type, h.color, h.rarity, h.artwork_path, h.milestone_only, h.retired_at,
               b.id, b.name, b.file_path, b.top_color, b.bottom_color, b.retired_at, r.streak_milestone
        FROM rewards r
        JOIN meetups m ON m.id = r.meetup_id
        JOIN holds h ON h.id = r.hold_id
        JOIN backgrounds b ON b.id = r.background_id
        """

    static func decode(_ row: Row) throws -> Reward {
        var images: RenderedImages?
        if let stickerHash: String = try row.get(8), let stickerPath: String = try row.get(9),
           let storyHash: String = try row.get(10), let storyPath: String = try row.get(11),
           let version: Int = try row.get(12), let renderedAt: Date = try row.get(13) {
            images = RenderedImages(stickerHash: stickerHash, stickerPath: stickerPath, storyHash: storyHash,
                                    storyPath: storyPath, templateVersion: version, renderedAt: renderedAt)
        }
        return Reward(id: try row.get(0), attendanceID: try row.get(1), memberID: try row.get(2), meetupID: try row.get(3),
                      hold: try CatalogRepository.decodeHold(row, from: 19),
                      background: try CatalogRepository.decodeBackground(row, from: 27),
                      milestone: try row.get(4), streakMilestone: try row.get(33), awardedAt: try row.get(5), revokedAt: try row.get(6),
                      renderStatus: RenderStatus(rawValue: try row.get(7)) ?? .pending, images: images,
                      failureReason: try row.get(14), meetupTitle: try row.get(15), placeName: try row.get(16),
                      meetupStartsAt: try row.get(17), meetupTimeZone: try row.get(18))
    }

    static func revocations(in db: Database) throws -> (revoked: [Int64], highestID: Int64) {
        let revoked: [Int64] = try db.query("SELECT id FROM rewards WHERE revoked_at IS NOT NULL ORDER BY id", []) { try $0.get(0) }
        let highest = try db.scalar("SELECT coalesce(max(id), 0) FROM rewards", as: Int64.self) ?? 0
        return (revoked, highest)
    }

    static func find(id: Int64, in db: Database) throws -> Reward? {
        try db.queryOne("\(select) WHERE r.id = ?", [id], decode)
    }

    static func find(attendanceID: Int64, in db: Database) throws -> Reward? {
        try db.queryOne("\(select) WHERE r.attendance_id = ?", [attendanceID], decode)
    }

    static func list(memberID: Int64, includeRevoked: Bool, hostedBy hostID: Int64?, beforeID: Int64, limit: Int,
                     in db: Database) throws -> [Reward] {
        if let hostID {
            return try db.query("""
                \(select) WHERE r.member_id = ?1 AND (?2 = 1 OR r.revoked_at IS NULL) AND \(MeetupHostRepository.hostedBy("?3")) AND r.id < ?4
                ORDER BY r.id DESC LIMIT ?5
                """, [memberID, includeRevoked, hostID, beforeID, limit], decode)
        }
        return try db.query("\(select) WHERE r.member_id = ? AND (? = 1 OR r.revoked_at IS NULL) AND r.id < ? ORDER BY r.id DESC LIMIT ?",
                            [memberID, includeRevoked, beforeID, limit], decode)
    }

    struct Standing {
        let id: Int64
        let revoked: Bool
        let renderStatus: RenderStatus
    }

    static func standing(attendanceID: Int64, in db: Database) throws -> Standing? {
        try db.queryOne("SELECT id, revoked_at IS NOT NULL, render_status FROM rewards WHERE attendance_id = ?", [attendanceID]) {
            Standing(id: try $0.get(0), revoked: try $0.get(1), renderStatus: RenderStatus(rawValue: try $0.get(2)) ?? .pending)
        }
    }

    static func insert(attendanceID: Int64, memberID: Int64, meetupID: Int64, pick: RewardPicker.Pick, at now: Date,
                       in db: Database) throws -> Int64 {
        try db.execute("""
            INSERT INTO rewards (attendance_id, member_id, meetup_id, hold_id, background_id, milestone, streak_milestone,
                                 awarded_at, render_status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending')
            """, [attendanceID, memberID, meetupID, pick.holdID, pick.backgroundID, pick.milestone, pick.streakMilestone, now])
        return db.lastInsertRowID
    }

    static func setRevoked(_ revokedAt: Date?, id: Int64, in db: Database) throws {
        try db.execute("UPDATE rewards SET revoked_at = ? WHERE id = ?", [revokedAt, id])
    }

    struct MissingReward {
        let attendanceID: Int64
        let memberID: Int64
        let meetupID: Int64
        let checkedInAt: Date
    }

    /// Checked-in attendances without a reward, in check-in order.
    static func attendancesWithoutReward(since: Date?, meetupID: Int64?, limit: Int, in db: Database) throws -> [MissingReward] {
        try db.query("""
            SELECT a.id, a.member_id, a.meetup_id, a.checked_in_at FROM attendances a
            WHERE a.status = 'checked_in' AND (?1 IS NULL OR a.checked_in_at >= ?1) AND (?2 IS NULL OR a.meetup_id = ?2)
              AND NOT EXISTS (SELECT 1 FROM rewards r WHERE r.attendance_id = a.id)
            ORDER BY a.checked_in_at, a.id LIMIT ?3
            """, [since, meetupID, limit]) {
            MissingReward(attendanceID: try $0.get(0), memberID: try $0.get(1), meetupID: try $0.get(2), checkedInAt: try $0.get(3))
        }
    }
}
