import BelayStorage
import Foundation

/// SQL for check-in attempts and idempotency keys.
enum CheckInRepository {
    /// A member's wrong codes at a meetup: how many, and when the last was entered.
    typealias WrongCodes = (count: Int, lastWrongAt: Date)

    /// Columns `wrong_attempts` and `last_wrong_at` of the member's wrong codes at the meetup
    /// (both NULL when there are none), for a read that selects them with others.
    static func wrongCodesColumns(meetupID: String, memberID: String) -> String {
        """
        (SELECT wrong_attempts FROM check_in_attempts WHERE meetup_id = \(meetupID) AND member_id = \(memberID)) AS wrong_attempts,
        (SELECT last_wrong_at FROM check_in_attempts WHERE meetup_id = \(meetupID) AND member_id = \(memberID)) AS last_wrong_at
        """
    }

    static func decodeWrongCodes(_ row: Row) throws -> WrongCodes? {
        guard let count = try row.get("wrong_attempts", as: Int?.self), let last = try row.get("last_wrong_at", as: Date?.self) else { return nil }
        return (count: count, lastWrongAt: last)
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
