import BelayStorage
import Foundation

/// SQL for follows and members' last locations.
enum FollowRepository {
    static func follow(userID: Int64, _ subject: FollowSubject, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO follows (user_id, subject_type, subject_id, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id, subject_type, subject_id) DO NOTHING
            """, [userID, subject.type, subject.id, now])
    }

    static func unfollow(userID: Int64, _ subject: FollowSubject, in db: Database) throws {
        try db.execute("DELETE FROM follows WHERE user_id = ? AND subject_type = ? AND subject_id = ?", [userID, subject.type, subject.id])
    }

    /// What the member follows, leaving out hosts blocked either way.
    static func follows(userID: Int64, in db: Database) throws -> [Follow] {
        try db.query("""
            SELECT f.subject_type, f.subject_id, f.created_at, COALESCE(g.name, u.display_name, '') AS name
            FROM follows f
            LEFT JOIN gyms g ON f.subject_type = 'gym' AND g.id = f.subject_id
            LEFT JOIN users u ON f.subject_type = 'host' AND u.id = f.subject_id
            WHERE f.user_id = ?1
              AND NOT (f.subject_type = 'host' AND EXISTS (SELECT 1 FROM member_blocks b
                        WHERE (b.blocker_id = ?1 AND b.blocked_id = f.subject_id) OR (b.blocker_id = f.subject_id AND b.blocked_id = ?1)))
            ORDER BY f.created_at, f.subject_type, f.subject_id
            """, [userID]) { row in
            let id: Int64 = try row.get("subject_id")
            let type: String = try row.get("subject_type")
            return Follow(subject: type == "gym" ? .gym(id) : .host(id), name: try row.get("name"), createdAt: try row.get("created_at"))
        }
    }

    /// The followers of a new meetup's gym or host who may be told of it: not its host, not
    /// blocked either way with its host or a co-host, not suspended; each once (the gym when
    /// they follow both).
    static func followersToTell(of meetup: Meetup, in db: Database) throws -> [(userID: Int64, subject: FollowSubject, notifiedOn: String?, folded: Int64)] {
        let apart = SafetyRepository.keptApartSQL(member: .sql("f.user_id"), meetup: .value(meetup.id), host: .value(meetup.hostID), bans: false)
        return try db.query("""
            SELECT f.user_id, f.subject_type, f.subject_id, f.notified_on, f.folded FROM follows f JOIN users u ON u.id = f.user_id
            WHERE ((f.subject_type = 'gym' AND f.subject_id = ?) OR (f.subject_type = 'host' AND f.subject_id = ?))
              AND f.user_id <> ? AND u.suspended_at IS NULL
              AND NOT \(apart.sql)
            ORDER BY f.user_id, f.subject_type DESC
            """, [meetup.gymID ?? -1, meetup.hostID, meetup.hostID] + apart.values) { row in
            let id: Int64 = try row.get("subject_id")
            let type: String = try row.get("subject_type")
            return (try row.get("user_id"), type == "gym" ? .gym(id) : .host(id), try row.get("notified_on"), try row.get("folded"))
        }
    }

    static func markNotified(userID: Int64, _ subject: FollowSubject, on day: String, in db: Database) throws {
        try db.execute("UPDATE follows SET notified_on = ?, folded = 0 WHERE user_id = ? AND subject_type = ? AND subject_id = ?",
                       [day, userID, subject.type, subject.id])
    }

    static func fold(userID: Int64, _ subject: FollowSubject, in db: Database) throws {
        try db.execute("UPDATE follows SET folded = folded + 1 WHERE user_id = ? AND subject_type = ? AND subject_id = ?",
                       [userID, subject.type, subject.id])
    }

    static func setLocation(userID: Int64, _ point: GeoPoint, at now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO member_locations (user_id, latitude_e6, longitude_e6, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET latitude_e6 = excluded.latitude_e6, longitude_e6 = excluded.longitude_e6, updated_at = excluded.updated_at
            """, [userID, point.latitudeE6, point.longitudeE6, now])
    }

    static func location(userID: Int64, in db: Database) throws -> GeoPoint? {
        try db.queryOne("SELECT latitude_e6, longitude_e6 FROM member_locations WHERE user_id = ?", [userID]) {
            GeoPoint(latitudeE6: try $0.get("latitude_e6"), longitudeE6: try $0.get("longitude_e6"))
        } ?? nil
    }

    /// Everything of the member's here goes with their account.
    static func erase(userID: Int64, in db: Database) throws {
        try db.execute("DELETE FROM follows WHERE user_id = ? OR (subject_type = 'host' AND subject_id = ?)", [userID, userID])
        try db.execute("DELETE FROM member_locations WHERE user_id = ?", [userID])
    }
}
