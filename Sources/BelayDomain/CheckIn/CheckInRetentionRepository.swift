import BelayStorage
import Foundation

/// SQL that prunes old check-in bookkeeping.
enum CheckInRetentionRepository {
    /// Deletes up to `limit` idempotency keys created before `cutoff`; returns how many.
    static func deleteIdempotencyKeys(before cutoff: Date, limit: Int, in db: Database) throws -> Int {
        try db.execute("""
            DELETE FROM check_in_idempotency_keys
            WHERE (actor_id, key) IN (SELECT actor_id, key FROM check_in_idempotency_keys WHERE created_at < ?1 LIMIT ?2)
            """, [cutoff, limit])
        return db.changes
    }

    /// Deletes up to `limit` wrong-code counters last touched before `cutoff`; returns how many.
    static func deleteAttempts(before cutoff: Date, limit: Int, in db: Database) throws -> Int {
        try db.execute("""
            DELETE FROM check_in_attempts
            WHERE (meetup_id, member_id) IN (SELECT meetup_id, member_id FROM check_in_attempts WHERE last_wrong_at < ?1 LIMIT ?2)
            """, [cutoff, limit])
        return db.changes
    }
}
