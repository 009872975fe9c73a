import BelayStorage
import Foundation

/// SQL for check-in attempts and idempotency keys.
enum CheckInRepository {
    /// The member's wrong codes at the meetup, sent for later (see `Database.queryLater`).
    static func attempts(meetupID: Int64, memberID: Int64, in db: Database) throws -> DatabaseAnswer<(count: Int, lastWrongAt: Date)?> {
        try db.queryLater("SELECT wrong_attempts, last_wrong_at FROM check_in_attempts WHERE meetup_id = ? AND member_id = ?",
                          [meetupID, memberID]) { (count: try $0.get("wrong_attempts", as: Int.self), lastWrongAt: try $0.get("last_wrong_at", as: Date.self)) }
            .map(\.first)
    }

    static func recordWrongAttempt(meetupID: Int64, memberID: Int64, count: Int, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO check_in_attempts (meetup_id, member_id, wrong_attempts, last_wrong_at) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (meetup_id, member_id) DO UPDATE SET wrong_attempts = ?3, last_wrong_at = ?4
            """, [meetupID, memberID, count, now])
    }

    /// Sent for later (see `Database.executeLater`).
    static func clearAttempts(meetupID: Int64, memberID: Int64, in db: Database) throws {
        try db.executeLater("DELETE FROM check_in_attempts WHERE meetup_id = ? AND member_id = ?", [meetupID, memberID])
    }

    /// What the actor's key was used for, sent for later (see `Database.queryLater`).
    static func idempotencyRecord(actorID: Int64, key: String, in db: Database) throws -> DatabaseAnswer<(fingerprint: String, attendanceID: Int64)?> {
        try db.queryLater("SELECT request_fingerprint, attendance_id FROM check_in_idempotency_keys WHERE actor_id = ? AND key = ?",
                          [actorID, key]) { (fingerprint: try $0.get("request_fingerprint", as: String.self), attendanceID: try $0.get("attendance_id", as: Int64.self)) }
            .map(\.first)
    }

    /// Keeps the key for its check-in, sent for later: when another check-in took the actor's
    /// key meanwhile, the write fails with `taken`.
    static func rememberKey(actorID: Int64, key: String, fingerprint: String, attendanceID: Int64, at now: Date,
                            taken: DomainError, in db: Database) throws {
        try db.executeLater("""
            INSERT INTO check_in_idempotency_keys (actor_id, key, request_fingerprint, attendance_id, created_at)
            VALUES (?, ?, ?, ?, ?)
            """, [actorID, key, fingerprint, attendanceID, now], failure: { error -> any Error in error.isUniqueConstraintViolation ? taken : error })
    }

    static func forgetKeys(attendanceID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM check_in_idempotency_keys WHERE attendance_id = ?", [attendanceID])
    }
}
