import BelayStorage
import Foundation

/// SQL for check-in attempts and idempotency keys.
enum CheckInRepository {
    static func attempts(meetupID: Int64, memberID: Int64, in db: Database) throws -> (count: Int, lastWrongAt: Date)? {
        try db.queryOne("SELECT wrong_attempts, last_wrong_at FROM check_in_attempts WHERE meetup_id = ? AND member_id = ?",
                        [meetupID, memberID]) { (try $0.get("wrong_attempts"), try $0.get("last_wrong_at")) }
    }

    static func recordWrongAttempt(meetupID: Int64, memberID: Int64, count: Int, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO check_in_attempts (meetup_id, member_id, wrong_attempts, last_wrong_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (meetup_id, member_id) DO UPDATE SET wrong_attempts = ?3, last_wrong_at = ?4
            """, [meetupID, memberID, count, now])
    }

    static func clearAttempts(meetupID: Int64, memberID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM check_in_attempts WHERE meetup_id = ? AND member_id = ?", [meetupID, memberID])
    }

    static func idempotencyRecord(actorID: Int64, key: String, in db: Database) throws -> (fingerprint: String, attendanceID: Int64)? {
        try db.queryOne("SELECT request_fingerprint, attendance_id FROM check_in_idempotency_keys WHERE actor_id = ? AND key = ?",
                        [actorID, key]) { (try $0.get("request_fingerprint"), try $0.get("attendance_id")) }
    }

    /// Keeps the key for its check-in.
    /// - Returns: false when the actor's key was taken by another check-in committed meanwhile.
    static func rememberKey(actorID: Int64, key: String, fingerprint: String, attendanceID: Int64, at now: Date,
                            in db: Database) throws -> Bool {
        try db.execute("""
            INSERT INTO check_in_idempotency_keys (actor_id, key, request_fingerprint, attendance_id, created_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            """, [actorID, key, fingerprint, attendanceID, now])
        return db.changes > 0
    }

    static func forgetKeys(attendanceID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM check_in_idempotency_keys WHERE attendance_id = ?", [attendanceID])
    }
}
