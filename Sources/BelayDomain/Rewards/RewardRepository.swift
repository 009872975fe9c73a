import BelayStorage
import Foundation

/// SQL for rewards.
enum RewardRepository {
    static let select = """
        SELECT r.id, r.attendance_id, r.member_id, r.meetup_id, r.milestone, r.awarded_at, r.revoked_at, r.render_status,
               r.sticker_hash, r.sticker_path, r.story_hash, r.story_path, r.template_version, r.rendered_at, r.failure_reason,
               m.title, m.place_name, m.starts_at, m.time_zone,
               \(CatalogRepository.holdColumns(from: "h")),
               \(CatalogRepository.backgroundColumns(from: "b")), r.streak_milestone,
               (SELECT ci.check_in_number FROM attendances ci WHERE ci.id = r.attendance_id) AS check_in_number
        FROM rewards r
        JOIN meetups m ON m.id = r.meetup_id
        JOIN holds h ON h.id = r.hold_id
        JOIN backgrounds b ON b.id = r.background_id
        """

    static func decode(_ row: Row) throws -> Reward {
        var images: RenderedImages?
        if let stickerHash: String = try row.get("sticker_hash"), let stickerPath: String = try row.get("sticker_path"),
           let version: Int = try row.get("template_version"), let renderedAt: Date = try row.get("rendered_at") {
            let storyHash: String? = try row.get("story_hash"), storyPath: String? = try row.get("story_path")
            let story = storyHash.flatMap { hash in storyPath.map { (hash, $0) } }
            images = RenderedImages(stickerHash: stickerHash, stickerPath: stickerPath, storyHash: story?.0,
                                    storyPath: story?.1, templateVersion: version, renderedAt: renderedAt)
        }
        return Reward(id: try row.get("id"), attendanceID: try row.get("attendance_id"), memberID: try row.get("member_id"),
                      meetupID: try row.get("meetup_id"), hold: try CatalogRepository.decodeHold(row),
                      background: try CatalogRepository.decodeBackground(row),
                      milestone: try row.get("milestone"), streakMilestone: try row.get("streak_milestone"), awardedAt: try row.get("awarded_at"), revokedAt: try row.get("revoked_at"),
                      renderStatus: try row.get("render_status"), images: images,
                      failureReason: try row.get("failure_reason"), meetupTitle: try row.get("title"),
                      placeName: try row.get("place_name"), meetupStartsAt: try row.get("starts_at"),
                      meetupTimeZone: try row.get("time_zone"), checkInNumber: try row.get("check_in_number"))
    }

    /// The member and meetup of the reward `id`, or nil when there is none.
    static func owner(id: Int64, in db: Database) throws -> (memberID: Int64, meetupID: Int64)? {
        try db.queryOne("SELECT member_id, meetup_id FROM rewards WHERE id = ?", [id]) {
            (try $0.get("member_id", as: Int64.self), try $0.get("meetup_id", as: Int64.self))
        }
    }

    /// Whether a reward `id` exists.
    static func exists(id: Int64, in db: Database) throws -> Bool {
        try db.scalar("SELECT 1 FROM rewards WHERE id = ?", [id], as: Int64.self) != nil
    }

    static func revocations(in db: Database) throws -> (revoked: [Int64], highestID: Int64) {
        let revoked: [Int64] = try db.query("SELECT id FROM rewards WHERE revoked_at IS NOT NULL ORDER BY id", []) { try $0.get("id") }
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

    /// The rewards of a meetup's check-ins, revoked ones included, in the order they were awarded.
    static func list(meetupID: Int64, limit: Int, in db: Database) throws -> [Reward] {
        try db.query("\(select) WHERE r.meetup_id = ? ORDER BY r.id LIMIT ?", [meetupID, limit], decode)
    }

    struct Standing {
        let id: Int64
        let revoked: Bool
        let renderStatus: RenderStatus
    }

    /// What awarding a checked-in attendance needs to know: the id of its reward if it has
    /// one, and the catalogue's generation.
    struct AwardContext {
        let rewardID: Int64?
        let catalogGeneration: Int64
    }

    /// The award context's columns for the attendance whose id is the SQL expression
    /// `attendanceID`, for a statement to return beside its own (a check-in's update returns
    /// them, which saves it a round trip).
    static func awardContextColumns(attendanceID: String) -> String {
        """
        (SELECT rc.id FROM rewards rc WHERE rc.attendance_id = \(attendanceID)) AS award_reward_id,
        (SELECT generation FROM catalog_generation WHERE only_row = 1) AS award_catalog_generation
        """
    }

    static func decodeAwardContext(_ row: Row) throws -> AwardContext {
        AwardContext(rewardID: try row.get("award_reward_id"),
                     catalogGeneration: try row.get("award_catalog_generation", as: Int64?.self) ?? 0)
    }

    static func awardContext(attendanceID: Int64, in db: Database) throws -> AwardContext {
        try db.queryOne("SELECT \(awardContextColumns(attendanceID: "?"))", [attendanceID], decodeAwardContext)
            ?? AwardContext(rewardID: nil, catalogGeneration: 0)
    }

    static func standing(attendanceID: Int64, in db: Database) throws -> Standing? {
        try db.queryOne("SELECT id, revoked_at IS NOT NULL AS revoked, render_status FROM rewards WHERE attendance_id = ?", [attendanceID]) {
            Standing(id: try $0.get("id"), revoked: try $0.get("revoked"), renderStatus: try $0.get("render_status"))
        }
    }

    /// Inserts the reward of a pick and queues its render, the insert feeding the job's
    /// (`Database.queryFeeding`: one statement on PostgreSQL, sent for later).
    /// - Returns: the reward's id, once answered.
    static func insertQueueingRender(attendanceID: Int64, memberID: Int64, meetupID: Int64, pick: RewardPicker.Pick,
                                     reason: RenderJobReason, at now: Date, in db: Database) throws -> DatabaseAnswer<Int64> {
        try WorkNotification.send(.renderJobs, in: db)
        let insert = """
            INSERT INTO rewards (attendance_id, member_id, meetup_id, hold_id, background_id, milestone, streak_milestone,
                                 awarded_at, render_status)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending')
            """
        let parameters: [any DatabaseValueConvertible] = [attendanceID, memberID, meetupID, pick.holdID, pick.backgroundID,
                                                          pick.milestone, pick.streakMilestone, now]
        let job = RenderJobRepository.enqueueParameters(reason: reason, availableAt: now, now: now)
        let enqueue = RenderJobRepository.enqueueStatement(rewardID: "(SELECT id FROM reward)", parametersFrom: parameters.count + 1)
        return try db.queryFeeding(insert, returning: ["id"], as: "reward", into: enqueue, parameters + job) {
            try $0.get("reward_id", as: Int64.self)
        }.map { ids in
            guard let id = ids.first else {
                throw DomainError(.storageFailure, "The reward of attendance \(attendanceID) was written without its render job")
            }
            return id
        }
    }

    static func setRevoked(_ revokedAt: Date?, id: Int64, in db: Database) throws {
        try db.execute("UPDATE rewards SET revoked_at = ? WHERE id = ?", [revokedAt, id])
    }

    struct MissingReward {
        let attendanceID: Int64
        let memberID: Int64
        let meetupID: Int64
        let checkedInAt: Date
        /// The number the check-in was given.
        let checkInNumber: Int
    }

    /// Checked-in attendances without a reward, in check-in order.
    static func attendancesWithoutReward(since: Date?, meetupID: Int64?, limit: Int, in db: Database) throws -> [MissingReward] {
        try db.query("""
            SELECT a.id, a.member_id, a.meetup_id, a.checked_in_at, a.check_in_number FROM attendances a
            WHERE a.status = 'checked_in' AND (?1 IS NULL OR a.checked_in_at >= ?1) AND (?2 IS NULL OR a.meetup_id = ?2)
              AND NOT EXISTS (SELECT 1 FROM rewards r WHERE r.attendance_id = a.id)
            ORDER BY a.checked_in_at, a.id LIMIT ?3
            """, [since, meetupID, limit]) {
            MissingReward(attendanceID: try $0.get("id"), memberID: try $0.get("member_id"), meetupID: try $0.get("meetup_id"),
                          checkedInAt: try $0.get("checked_in_at"), checkInNumber: try $0.get("check_in_number"))
        }
    }
}
