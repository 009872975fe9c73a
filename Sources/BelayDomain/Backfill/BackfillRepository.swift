import BelayStorage
import Foundation

/// SQL for the backfill: scoped counts and scans of rewards and their render jobs.
enum BackfillRepository {
    /// `AND`-clauses restricting `r` (rewards) joined with `a` (attendances) to a scope;
    /// the scope's values are bound as ?11 (meetup) and ?12 (since).
    static let scopeClause = "(?11 IS NULL OR r.meetup_id = ?11) AND (?12 IS NULL OR a.checked_in_at >= ?12)"

    /// The arguments for `scopeClause`, padded so they land on ?11 and ?12 (after at most ten leading ones).
    static func arguments(_ leading: [any DatabaseValueConvertible], scope: RewardScope) -> [any DatabaseValueConvertible] {
        var arguments = leading
        while arguments.count < 10 { arguments.append(DatabaseValue.null) }
        arguments.append(scope.meetupID)
        arguments.append(scope.checkedInSince)
        return arguments
    }

    static func missingRewardCount(scope: RewardScope, in db: Database) throws -> Int {
        try db.scalar("""
            SELECT count(*) FROM attendances a
            WHERE a.status = 'checked_in' AND (?1 IS NULL OR a.checked_in_at >= ?1) AND (?2 IS NULL OR a.meetup_id = ?2)
              AND NOT EXISTS (SELECT 1 FROM rewards r WHERE r.attendance_id = a.id)
            """, [scope.checkedInSince, scope.meetupID], as: Int.self) ?? 0
    }

    /// Rewards in scope whose images are missing (never rendered) or outdated, with no job in flight.
    static func missingOrOutdated(templateVersion: Int, scope: RewardScope, afterRewardID: Int64, limit: Int,
                                  in db: Database) throws -> [RenderNeed] {
        try db.query("""
            SELECT r.id, CASE WHEN r.render_status = 'ready' AND r.sticker_hash IS NOT NULL THEN 'outdated' ELSE 'missing' END AS need
            FROM rewards r JOIN attendances a ON a.id = r.attendance_id
            WHERE r.id > ?1 AND r.revoked_at IS NULL AND \(scopeClause)
              AND (r.render_status = 'pending'
                   OR (r.render_status = 'ready' AND (r.sticker_hash IS NULL OR r.story_hash IS NULL OR r.template_version < ?2)))
              AND NOT EXISTS (SELECT 1 FROM render_jobs j WHERE j.reward_id = r.id AND j.status IN ('queued', 'running'))
            ORDER BY r.id LIMIT ?3
            """, arguments([afterRewardID, templateVersion, limit], scope: scope)) { row in
            RenderNeed(rewardID: try row.get("id"), kind: try row.get("need"))
        }
    }

    struct FailedReward {
        let rewardID: Int64
        let rounds: Int
        let lastFailure: Date?
    }

    /// Failed rewards in scope with no job in flight, with how many rounds (failed jobs) they used.
    static func failed(scope: RewardScope, afterRewardID: Int64, limit: Int, in db: Database) throws -> [FailedReward] {
        try db.query("""
            SELECT r.id,
                   (SELECT count(*) FROM render_jobs j WHERE j.reward_id = r.id AND j.status = 'failed') AS rounds,
                   (SELECT max(j.updated_at) FROM render_jobs j WHERE j.reward_id = r.id AND j.status = 'failed') AS last_failure
            FROM rewards r JOIN attendances a ON a.id = r.attendance_id
            WHERE r.id > ?1 AND r.revoked_at IS NULL AND r.render_status = 'failed' AND \(scopeClause)
              AND NOT EXISTS (SELECT 1 FROM render_jobs j WHERE j.reward_id = r.id AND j.status IN ('queued', 'running'))
            ORDER BY r.id LIMIT ?2
            """, arguments([afterRewardID, limit], scope: scope)) {
            FailedReward(rewardID: try $0.get("id"), rounds: try $0.get("rounds"), lastFailure: try $0.get("last_failure"))
        }
    }

    /// Rewards in scope marked ready, with the image paths their row points at (no story
    /// path while the story is still to follow).
    static func readyImages(scope: RewardScope, afterRewardID: Int64, limit: Int, in db: Database) throws -> [RewardImagePaths] {
        try db.query("""
            SELECT r.id, r.sticker_path, r.story_path
            FROM rewards r JOIN attendances a ON a.id = r.attendance_id
            WHERE r.id > ?1 AND r.revoked_at IS NULL AND r.render_status = 'ready' AND r.sticker_path IS NOT NULL
              AND \(scopeClause)
            ORDER BY r.id LIMIT ?2
            """, arguments([afterRewardID, limit], scope: scope)) {
            RewardImagePaths(rewardID: try $0.get("id"), stickerPath: try $0.get("sticker_path"), storyPath: try $0.get("story_path"))
        }
    }

    static func queueState(scope: RewardScope, now: Date, in db: Database) throws -> ScopedQueueState {
        try db.queryOne("""
            SELECT count(CASE WHEN j.status = 'queued' AND j.available_at <= ?1 THEN 1 END) AS due,
                   count(CASE WHEN j.status = 'queued' AND j.available_at > ?1 THEN 1 END) AS waiting,
                   min(CASE WHEN j.status = 'queued' AND j.available_at > ?1 THEN j.available_at END) AS next_retry_at,
                   count(CASE WHEN j.status = 'running' THEN 1 END) AS running,
                   min(CASE WHEN j.status = 'running' THEN j.lease_expires_at END) AS running_lease_ends_at
            FROM render_jobs j JOIN rewards r ON r.id = j.reward_id JOIN attendances a ON a.id = r.attendance_id
            WHERE j.status IN ('queued', 'running') AND \(scopeClause)
            """, arguments([now], scope: scope)) {
            ScopedQueueState(due: try $0.get("due"), waiting: try $0.get("waiting"), nextRetryAt: try $0.get("next_retry_at"),
                             running: try $0.get("running"), runningLeaseEndsAt: try $0.get("running_lease_ends_at"))
        } ?? ScopedQueueState(due: 0, waiting: 0, nextRetryAt: nil, running: 0)
    }

    static func referencedImagePaths(in db: Database) throws -> Set<String> {
        var paths = Set<String>()
        for (sticker, story) in try db.query("SELECT sticker_path, story_path FROM rewards WHERE sticker_path IS NOT NULL OR story_path IS NOT NULL", [], {
            (try $0.get("sticker_path", as: String?.self), try $0.get("story_path", as: String?.self))
        }) {
            if let sticker { paths.insert(sticker) }
            if let story { paths.insert(story) }
        }
        return paths
    }
}
