import BelayStorage
import Foundation

/// SQL for calendar feeds.
enum CalendarRepository {
    static func secret(in db: Database) throws -> [UInt8]? {
        try db.scalar("SELECT secret FROM calendar_feed_secret WHERE only_row = 1", as: Data.self).map { Array($0) }
    }

    static func replaceSecret(with secret: [UInt8], in db: Database) throws {
        try db.execute("UPDATE calendar_feed_secret SET secret = ? WHERE only_row = 1", [Data(secret)])
    }

    static func generation(userID: Int64, in db: Database) throws -> Int {
        try db.scalar("SELECT generation FROM calendar_feed_generations WHERE user_id = ?", [userID], as: Int.self) ?? 0
    }

    static func bumpGeneration(userID: Int64, now: Date, in db: Database) throws -> Int {
        try db.queryOne("""
            INSERT INTO calendar_feed_generations (user_id, generation, revoked_at) VALUES (?1, 1, ?2)
            ON CONFLICT (user_id) DO UPDATE SET generation = calendar_feed_generations.generation + 1, revoked_at = ?2
            RETURNING generation
            """, [userID, now]) { try $0.get("generation") } ?? 1
    }

    static func sequence(meetupID: Int64, in db: Database) throws -> Int? {
        try db.scalar("SELECT calendar_sequence FROM meetups WHERE id = ?", [meetupID], as: Int.self)
    }

    /// The member's meetups ending after `since`: those they are going to, waitlisted for or
    /// checked in at, and cancelled meetups they were attending when it was cancelled; with
    /// each, what its calendar entry depends on besides the meetup's own fields (its sequence,
    /// when its row changed, the member's status).
    ///
    /// At most `limit`, chosen so that upcoming meetups are never crowded out by past ones:
    /// those not yet ended at `now`, soonest first, then past ones, latest first. The rows come
    /// back in that order; the caller sorts them for showing.
    static func memberMeetups(memberID: Int64, endingAfter since: Date, now: Date, limit: Int,
                              in db: Database) throws -> [(meetupID: Int64, sequence: Int, updatedAt: Date, status: AttendanceStatus, startsAt: Date)] {
        try db.query("""
            SELECT m.id, m.calendar_sequence, m.updated_at, a.status, m.starts_at
            FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.member_id = ?1 AND m.ends_at > ?2
              AND (a.status IN ('going', 'waitlisted', 'checked_in')
                   OR (m.status = 'cancelled' AND a.status = 'cancelled' AND a.updated_at >= m.updated_at))
            ORDER BY CASE WHEN m.ends_at > ?4 THEN 0 ELSE 1 END,
                     CASE WHEN m.ends_at > ?4 THEN m.starts_at END, m.starts_at DESC, m.id
            LIMIT ?3
            """, [memberID, since, limit, now]) {
                (try $0.get("id"), try $0.get("calendar_sequence"), try $0.get("updated_at"), try $0.get("status", as: AttendanceStatus.self), try $0.get("starts_at"))
            }
    }
}
