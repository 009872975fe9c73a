import BelayStorage
import Foundation

/// SQL for the render job queue.
enum RenderJobRepository {

    /// Queues a job unless one is already queued or running for the reward.
    /// - Returns: the new job's id, or nil when one was already in flight.
    static func enqueue(rewardID: Int64, reason: RenderJobReason, availableAt: Date, now: Date, in db: Database) throws -> Int64? {
        try WorkNotification.send(.renderJobs, in: db)
        return try db.queryOne(enqueueStatement(rewardID: "?1", parametersFrom: 2),
                               [rewardID] + enqueueParameters(reason: reason, availableAt: availableAt, now: now)) {
            try $0.get("job_id", as: Int64.self)
        }
    }

    /// The statement that queues a render of the reward whose id is the SQL expression
    /// `rewardID` unless one is queued or running, returning `job_id` and `reward_id`; its
    /// parameters are `enqueueParameters`, numbered from `first` (`?first`, …). The caller
    /// sends the work notification.
    static func enqueueStatement(rewardID: String, parametersFrom first: Int) -> String {
        """
        INSERT INTO render_jobs (reward_id, reason, status, attempts, available_at, created_at, updated_at)
        VALUES (\(rewardID), ?\(first), 'queued', 0, ?\(first + 1), ?\(first + 2), ?\(first + 3))
        ON CONFLICT (reward_id) WHERE status IN ('queued', 'running') DO NOTHING
        RETURNING id AS job_id, reward_id
        """
    }

    static func enqueueParameters(reason: RenderJobReason, availableAt: Date, now: Date) -> [any DatabaseValueConvertible] {
        [reason.rawValue, availableAt, now, now]
    }

    static let recordColumns = "id, reward_id, reason, status, attempts, available_at, lease_owner, lease_expires_at, last_error, created_at, updated_at"

    static func decodeRecord(_ row: Row) throws -> RenderJobRecord {
        RenderJobRecord(id: try row.get("id"), rewardID: try row.get("reward_id"), reason: try row.get("reason"),
                        status: try row.get("status"), attempts: try row.get("attempts"),
                        availableAt: try row.get("available_at"), leaseOwner: try row.get("lease_owner"),
                        leaseExpiresAt: try row.get("lease_expires_at"), lastError: try row.get("last_error"),
                        createdAt: try row.get("created_at"), updatedAt: try row.get("updated_at"))
    }

    static func record(id: Int64, in db: Database) throws -> RenderJobRecord? {
        try db.queryOne("SELECT \(recordColumns) FROM render_jobs WHERE id = ?", [id], decodeRecord)
    }

    static func records(rewardID: Int64, in db: Database) throws -> [RenderJobRecord] {
        try db.query("SELECT \(recordColumns) FROM render_jobs WHERE reward_id = ? ORDER BY id", [rewardID], decodeRecord)
    }

    struct Expired {
        let id: Int64
        let rewardID: Int64
        let attempts: Int
    }

    static func expiredLeases(now: Date, in db: Database) throws -> [Expired] {
        try db.query("SELECT id, reward_id, attempts FROM render_jobs WHERE status = 'running' AND lease_expires_at <= ?", [now]) {
            Expired(id: try $0.get("id"), rewardID: try $0.get("reward_id"), attempts: try $0.get("attempts"))
        }
    }

    /// Puts a job whose lease ran out back in the queue, or fails it when `failed`, if it is
    /// still running on that expired lease (another worker may have dealt with it first).
    /// - Returns: whether this call changed it.
    static func endExpiredLease(id: Int64, failed: Bool, error: String, now: Date, in db: Database) throws -> Bool {
        try db.execute("""
            UPDATE render_jobs SET status = ?1, available_at = CASE WHEN ?1 = 'failed' THEN available_at ELSE ?2 END,
                                   lease_owner = NULL, lease_expires_at = NULL, last_error = ?3, updated_at = ?2
            WHERE id = ?4 AND status = 'running' AND lease_expires_at <= ?2
            """, [failed ? "failed" : "queued", now, error, id])
        return db.changes > 0
    }

    static func requeue(id: Int64, availableAt: Date, error: String, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE render_jobs SET status = 'queued', available_at = ?, lease_owner = NULL, lease_expires_at = NULL,
                                   last_error = ?, updated_at = ?
            WHERE id = ?
            """, [availableAt, error, now, id])
    }

    /// Back in the queue with the claim's attempt given back.
    static func postpone(id: Int64, availableAt: Date, error: String, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE render_jobs SET status = 'queued', available_at = ?, lease_owner = NULL, lease_expires_at = NULL,
                                   attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, last_error = ?, updated_at = ?
            WHERE id = ?
            """, [availableAt, error, now, id])
    }

    static func runningOwners(in db: Database) throws -> [String] {
        try db.query("SELECT DISTINCT lease_owner FROM render_jobs WHERE status = 'running' AND lease_owner IS NOT NULL ORDER BY 1",
                     []) { try $0.get("lease_owner") }
    }

    static func expireLeases(owner: String, now: Date, in db: Database) throws -> Int {
        try db.execute("UPDATE render_jobs SET lease_expires_at = ? WHERE status = 'running' AND lease_owner = ? AND lease_expires_at > ?",
                       [now, owner, now])
        return db.changes
    }

    static func markFailed(id: Int64, error: String, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE render_jobs SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL, last_error = ?, updated_at = ?
            WHERE id = ?
            """, [error, now, id])
    }

    /// Claims up to `limit` due jobs, stickers before stories and oldest first, for `owner` until `leaseUntil`, skipping
    /// rows other workers hold, and returns them in id order with everything a render needs:
    /// the claim's `UPDATE` feeding the read of what the jobs render (`Database.queryFeeding`:
    /// one statement on PostgreSQL).
    static func claim(owner: String, leaseUntil: Date, now: Date, limit: Int, scope: RewardScope = .all,
                      in db: Database) throws -> [RenderJob] {
        let due: String
        let arguments: [any DatabaseValueConvertible]
        if scope.isAll {
            due = """
                SELECT id FROM render_jobs WHERE status = 'queued' AND available_at <= ?3
                ORDER BY story_only, available_at, id LIMIT ?4\(db.dialect.skippingLockedRows(of: "render_jobs"))
                """
            arguments = [owner, leaseUntil, now, limit]
        } else {
            due = """
                SELECT j.id FROM render_jobs j JOIN rewards r ON r.id = j.reward_id
                                               JOIN attendances a ON a.id = r.attendance_id
                WHERE j.status = 'queued' AND j.available_at <= ?3 AND \(BackfillRepository.scopeClause)
                ORDER BY j.story_only, j.available_at, j.id LIMIT ?4\(db.dialect.skippingLockedRows(of: "j"))
                """
            arguments = BackfillRepository.arguments([owner, leaseUntil, now, limit], scope: scope)
        }
        let update = """
            UPDATE render_jobs SET status = 'running', lease_owner = ?1, lease_expires_at = ?2, attempts = attempts + 1,
                                   updated_at = ?3
            WHERE id IN (\(due))
            """
        return try db.queryFeeding(update, returning: ["id", "reward_id", "reason", "attempts", "lease_owner", "lease_expires_at", "story_only"],
                                   as: "claimed", into: claimedJobSelect(from: "claimed j") + " ORDER BY j.id", arguments,
                                   decodeClaimedJob).get()
    }

    /// What a claimed job renders, for the jobs in `source` (a table or `WITH` name, as `j`).
    private static func claimedJobSelect(from source: String) -> String {
        """
        SELECT j.id, j.reward_id, j.reason, j.attempts, j.lease_owner, j.lease_expires_at, j.story_only,
               r.member_id, u.display_name, r.meetup_id, m.title, m.place_name, m.starts_at, m.time_zone, r.milestone,
               \(CatalogRepository.holdColumns(from: "h")),
               \(CatalogRepository.backgroundColumns(from: "b")),
               COALESCE(a.checked_in_at, r.awarded_at) AS checked_in_at, a.check_in_number, r.streak_milestone
        FROM \(source)
        JOIN rewards r ON r.id = j.reward_id
        JOIN attendances a ON a.id = r.attendance_id
        JOIN users u ON u.id = r.member_id
        JOIN meetups m ON m.id = r.meetup_id
        JOIN holds h ON h.id = r.hold_id
        JOIN backgrounds b ON b.id = r.background_id
        """
    }

    private static func decodeClaimedJob(_ row: Row) throws -> RenderJob {
        RenderJob(id: try row.get("id"), rewardID: try row.get("reward_id"), reason: try row.get("reason"),
                  attempt: try row.get("attempts"), leaseOwner: try row.get("lease_owner"),
                  leaseExpiresAt: try row.get("lease_expires_at"), memberID: try row.get("member_id"),
                  memberDisplayName: try row.get("display_name"), meetupID: try row.get("meetup_id"),
                  meetupTitle: try row.get("title"), placeName: try row.get("place_name"),
                  meetupStartsAt: try row.get("starts_at"), meetupTimeZone: try row.get("time_zone"),
                  hold: try CatalogRepository.decodeHold(row), background: try CatalogRepository.decodeBackground(row),
                  milestone: try row.get("milestone"), checkedInAt: try row.get("checked_in_at"),
                  checkInNumber: try row.get("check_in_number"), streakMilestone: try row.get("streak_milestone"),
                  storyOnly: try row.get("story_only"))
    }

    /// Marks the job done if `owner` still holds it, locking its row in the same statement.
    /// - Returns: the job's reward, or nil when `owner` does not hold the job.
    static func markDone(id: Int64, owner: String, now: Date, in db: Database) throws -> Int64? {
        try db.queryOne("""
            UPDATE render_jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, updated_at = ?
            WHERE id = ? AND status = 'running' AND lease_owner = ? RETURNING reward_id
            """, [now, id, owner]) { try $0.get("reward_id") }
    }

    /// Puts a job whose sticker is recorded back in the queue for its story alone, due now, if
    /// `owner` still holds it (its attempts go on counting).
    /// - Returns: the job's reward, or nil when `owner` does not hold the job.
    static func requeueForStory(id: Int64, owner: String, now: Date, in db: Database) throws -> Int64? {
        try db.queryOne("""
            UPDATE render_jobs SET status = 'queued', story_only = 1, available_at = ?1, lease_owner = NULL,
                                   lease_expires_at = NULL, last_error = NULL, updated_at = ?1
            WHERE id = ?2 AND status = 'running' AND lease_owner = ?3 RETURNING reward_id
            """, [now, id, owner]) { try $0.get("reward_id") }
    }

    /// The job's reward and attempts while `owner` holds it, its row locked until the commit
    /// (in a locked write), so that nobody ends its lease meanwhile.
    static func runningAttempts(id: Int64, owner: String, in db: Database) throws -> (rewardID: Int64, attempts: Int)? {
        try db.queryOne("""
            SELECT reward_id, attempts FROM render_jobs WHERE id = ? AND status = 'running' AND lease_owner = ?\(db.dialect.lockingRows(of: "render_jobs"))
            """, [id, owner]) { (try $0.get("reward_id"), try $0.get("attempts")) }
    }

    static func cancelQueued(rewardID: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE render_jobs SET status = 'cancelled', updated_at = ? WHERE reward_id = ? AND status = 'queued'",
                       [now, rewardID])
    }

    static func counts(in db: Database) throws -> RenderQueueCounts {
        var counts = RenderQueueCounts()
        for (status, count) in try db.query("SELECT status, count(*) AS count FROM render_jobs GROUP BY status", [], {
            (try $0.get("status", as: RenderJobStatus.self), try $0.get("count", as: Int.self))
        }) {
            switch status {
            case .queued: counts.queued = count
            case .running: counts.running = count
            case .done: counts.done = count
            case .failed: counts.failed = count
            case .cancelled: counts.cancelled = count
            }
        }
        return counts
    }

    // MARK: Rewards touched by the queue

    /// Points the reward at its images (the story may follow: nil) and makes it `ready`.
    /// - Returns: whether it became ready now (false when it already was: a re-render), in
    ///   one statement in the usual case.
    static func markRewardReady(rewardID: Int64, output: RenderOutput, now: Date, in db: Database) throws -> Bool {
        let arguments: [any DatabaseValueConvertible] = [output.stickerHash, output.stickerPath, output.storyHash, output.storyPath,
                                                        output.templateVersion, now, rewardID]
        let set = """
            UPDATE rewards SET render_status = 'ready', sticker_hash = ?, sticker_path = ?, story_hash = ?, story_path = ?,
                               template_version = ?, rendered_at = ?, failure_reason = NULL
            WHERE id = ?
            """
        try db.execute(set + " AND render_status <> 'ready'", arguments)
        if db.changes > 0 { return true }
        try db.execute(set, arguments)
        return false
    }

    /// Points the reward at its story, rendered after its sticker.
    static func markStoryStored(rewardID: Int64, storyHash: String, storyPath: String, in db: Database) throws {
        try db.execute("UPDATE rewards SET story_hash = ?, story_path = ? WHERE id = ?", [storyHash, storyPath, rewardID])
    }

    /// A reward whose images are still usable stays `ready` (its re-render failed);
    /// otherwise it becomes `failed`.
    static func markRewardFailed(rewardID: Int64, reason: String, in db: Database) throws {
        try db.execute("""
            UPDATE rewards SET render_status = CASE WHEN sticker_hash IS NULL THEN 'failed' ELSE render_status END,
                               failure_reason = ?
            WHERE id = ?
            """, [reason, rewardID])
    }

    static func markRewardPending(rewardID: Int64, in db: Database) throws {
        try db.execute("UPDATE rewards SET render_status = 'pending' WHERE id = ? AND render_status = 'failed'", [rewardID])
    }

    static func needs(templateVersion: Int, includeFailed: Bool, afterRewardID: Int64, limit: Int, in db: Database) throws -> [RenderNeed] {
        try db.query("""
            SELECT r.id, CASE WHEN r.render_status = 'failed' THEN 'failed'
                              WHEN r.render_status = 'ready' AND r.sticker_hash IS NOT NULL THEN 'outdated'
                              ELSE 'missing' END AS need
            FROM rewards r
            WHERE r.id > ?1 AND r.revoked_at IS NULL
              AND ((r.render_status = 'pending')
                   OR (r.render_status = 'ready' AND (r.sticker_hash IS NULL OR r.story_hash IS NULL OR r.template_version < ?2))
                   OR (r.render_status = 'failed' AND ?3 = 1))
              AND NOT EXISTS (SELECT 1 FROM render_jobs j WHERE j.reward_id = r.id AND j.status IN ('queued', 'running'))
            ORDER BY r.id LIMIT ?4
            """, [afterRewardID, templateVersion, includeFailed, limit]) { row in
            RenderNeed(rewardID: try row.get("id"), kind: try row.get("need"))
        }
    }
}
