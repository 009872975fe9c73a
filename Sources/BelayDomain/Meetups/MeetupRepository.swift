import BelayStorage
import Foundation

/// SQL for meetups.
enum MeetupRepository {
    /// The checked-in count is counted from the attendances (on attendances_by_meetup_status):
    /// keeping it on the meetup row made every check-in write that row.
    static let columns = """
        m.id, m.title, m.description, m.place_name, m.address, m.starts_at, m.ends_at, m.time_zone, m.capacity,
        m.host_id, m.status, m.created_at, m.updated_at, m.going_count, m.waitlist_count,
        (SELECT count(*) FROM attendances c WHERE c.meetup_id = m.id AND c.status = 'checked_in') AS checked_in_count,
        m.series_id, m.gym_id
        """

    static func decode(_ row: Row) throws -> Meetup {
        Meetup(id: try row.get("id"), title: try row.get("title"), description: try row.get("description"),
               placeName: try row.get("place_name"), address: try row.get("address"), startsAt: try row.get("starts_at"),
               endsAt: try row.get("ends_at"), timeZone: try row.get("time_zone"), capacity: try row.get("capacity"),
               hostID: try row.get("host_id"), status: try row.get("status"),
               goingCount: try row.get("going_count"), waitlistCount: try row.get("waitlist_count"),
               checkedInCount: try row.get("checked_in_count"), createdAt: try row.get("created_at"),
               updatedAt: try row.get("updated_at"), seriesID: try row.get("series_id"), gymID: try row.get("gym_id"))
    }

    static func find(id: Int64, in db: Database) throws -> Meetup? {
        try db.queryOne("SELECT \(columns) FROM meetups m WHERE m.id = ?", [id], decode)
    }

    /// The few facts the rules need, without the counts.
    struct Essentials {
        let id: Int64
        let startsAt: Date
        let endsAt: Date
        let capacity: Int
        let hostID: Int64
        let status: MeetupStatus
        let secret: [UInt8]
        /// What a reward shows of its meetup.
        let title: String
        let placeName: String
        let timeZone: String
    }

    /// The essentials' columns of the meetups row `m`, named `essential_…` so that they can
    /// sit beside another table's in one SELECT.
    static let essentialsColumns = """
        m.id AS essential_id, m.starts_at AS essential_starts_at, m.ends_at AS essential_ends_at, m.capacity AS essential_capacity,
        m.host_id AS essential_host_id, m.status AS essential_status, m.check_in_secret AS essential_check_in_secret,
        m.title AS essential_title, m.place_name AS essential_place_name, m.time_zone AS essential_time_zone
        """

    static func decodeEssentials(_ row: Row) throws -> Essentials {
        Essentials(id: try row.get("essential_id"), startsAt: try row.get("essential_starts_at"), endsAt: try row.get("essential_ends_at"),
                   capacity: try row.get("essential_capacity"), hostID: try row.get("essential_host_id"), status: try row.get("essential_status"),
                   secret: Array(try row.get("essential_check_in_secret", as: Data.self)), title: try row.get("essential_title"),
                   placeName: try row.get("essential_place_name"), timeZone: try row.get("essential_time_zone"))
    }

    static func essentials(id: Int64, in db: Database) throws -> Essentials? {
        try db.queryOne("SELECT \(essentialsColumns) FROM meetups m WHERE m.id = ?", [id], decodeEssentials)
    }

    /// `essentials(id:in:)`, locking the meetup's row until the commit. Every join updates
    /// that row (the attendance counts' trigger), so on PostgreSQL a join that meets another's
    /// lock waits, is aborted as a serialization conflict and runs again on a fresh snapshot,
    /// instead of reading the same last queue position as the other and failing its unique index.
    static func lockedEssentials(id: Int64, in db: Database) throws -> Essentials? {
        try db.queryOne("SELECT \(essentialsColumns) FROM meetups m WHERE m.id = ?\(db.dialect.lockingRows(of: "m"))", [id], decodeEssentials)
    }

    static func insert(_ meetup: NewMeetup, secret: [UInt8], at now: Date, in db: Database) throws -> Int64 {
        return try db.insertReturningID("""
            INSERT INTO meetups (title, description, place_name, address, starts_at, ends_at, time_zone, capacity,
                                 host_id, status, check_in_secret, created_at, updated_at, gym_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?, ?, ?, ?) RETURNING id
            """, [meetup.title, meetup.description, meetup.placeName, meetup.address, meetup.startsAt, meetup.endsAt,
                  meetup.timeZone, meetup.capacity, meetup.hostID, Data(secret), now, now, meetup.gymID])
    }

    static func update(id: Int64, with meetup: NewMeetup, at now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE meetups SET title = ?, description = ?, place_name = ?, address = ?, starts_at = ?, ends_at = ?,
                               time_zone = ?, capacity = ?, host_id = ?, updated_at = ?, gym_id = ?
            WHERE id = ?
            """, [meetup.title, meetup.description, meetup.placeName, meetup.address, meetup.startsAt, meetup.endsAt,
                  meetup.timeZone, meetup.capacity, meetup.hostID, now, meetup.gymID, id])
    }

    static func setStatus(_ status: MeetupStatus, id: Int64, at now: Date, in db: Database) throws {
        try db.execute("UPDATE meetups SET status = ?, updated_at = ? WHERE id = ?", [status.rawValue, now, id])
    }

    static func list(_ query: MeetupQuery, now: Date, after cursor: Cursor?, limit: Int, in db: Database) throws -> [Meetup] {
        let filters = """
            (?1 IS NULL OR m.place_name = ?1) AND (?2 IS NULL OR m.host_id = ?2) AND (?3 = 1 OR m.status <> 'cancelled')
            AND m.hidden_at IS NULL AND (?8 IS NULL OR NOT EXISTS (
                SELECT 1 FROM member_blocks b WHERE (b.blocker_id = ?8 AND b.blocked_id = m.host_id) OR (b.blocker_id = m.host_id AND b.blocked_id = ?8)))
            """
        let common: [any DatabaseValueConvertible] = [query.placeName, query.hostID, query.includeCancelled]
        let viewer: [any DatabaseValueConvertible] = [query.viewerID]
        let key = cursor?.key
        let id = cursor?.id
        switch query.scope {
        case .upcoming:
            return try db.query("""
                SELECT \(columns) FROM meetups m
                WHERE \(filters) AND m.ends_at > ?4 AND (?5 IS NULL OR (m.starts_at, m.id) > (?5, ?6))
                ORDER BY m.starts_at, m.id LIMIT ?7
                """, common + [now, key, id, limit] + viewer, decode)
        case .past:
            return try db.query("""
                SELECT \(columns) FROM meetups m
                WHERE \(filters) AND m.ends_at <= ?4 AND (?5 IS NULL OR (m.starts_at, m.id) < (?5, ?6))
                ORDER BY m.starts_at DESC, m.id DESC LIMIT ?7
                """, common + [now, key, id, limit] + viewer, decode)
        case .all:
            return try db.query("""
                SELECT \(columns) FROM meetups m
                WHERE \(filters) AND ?4 IS NOT NULL AND (?5 IS NULL OR (m.starts_at, m.id) > (?5, ?6))
                ORDER BY m.starts_at, m.id LIMIT ?7
                """, common + [now, key, id, limit] + viewer, decode)
        }
    }
}
