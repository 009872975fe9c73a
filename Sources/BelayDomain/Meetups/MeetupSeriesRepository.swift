import BelayStorage
import Foundation

/// SQL for recurring meetups.
enum MeetupSeriesRepository {
    static func setSeries(_ seriesID: Int64, ids: [Int64], in db: Database) throws {
        for id in ids { try db.execute("UPDATE meetups SET series_id = ? WHERE id = ?", [seriesID, id]) }
    }

    /// The scheduled meetups of a series starting at or after `start`, soonest first.
    static func following(seriesID: Int64, startingFrom start: Date, in db: Database) throws -> [Int64] {
        try db.query("""
            SELECT id FROM meetups WHERE series_id = ? AND starts_at >= ? AND status = 'scheduled' ORDER BY starts_at, id
            """, [seriesID, start]) { try $0.get("id") }
    }

    /// Every meetup of a series, whatever its status, soonest first.
    static func meetups(seriesID: Int64, in db: Database) throws -> [Meetup] {
        try db.query("SELECT \(MeetupRepository.columns) FROM meetups m WHERE m.series_id = ? ORDER BY m.starts_at, m.id",
                     [seriesID], MeetupRepository.decode)
    }

    /// The series whose first meetup `managerID` hosts or co-hosts (nil: every series), the
    /// latest first; `now` decides which meetup is the next.
    static func summaries(managerID: Int64?, now: Date, limit: Int, in db: Database) throws -> [MeetupSeriesSummary] {
        var arguments: [any DatabaseValueConvertible] = [now]
        var filter = ""
        if let managerID {
            filter = "AND f.id IN (\(MeetupHostRepository.managedMeetupIDs("?")))"
            arguments += [managerID, managerID]
        }
        arguments.append(Int64(limit))
        return try db.query("""
            SELECT m.series_id AS series_id, f.title AS title, f.place_name AS place_name, f.time_zone AS time_zone,
                   MIN(m.starts_at) AS first_starts_at, MAX(m.starts_at) AS last_starts_at, COUNT(*) AS meetups,
                   SUM(CASE WHEN m.status = 'scheduled' THEN 1 ELSE 0 END) AS scheduled,
                   SUM(CASE WHEN m.status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
                   MIN(CASE WHEN m.status = 'scheduled' AND m.starts_at >= ? THEN m.starts_at END) AS next_starts_at
            FROM meetups m JOIN meetups f ON f.id = m.series_id
            WHERE m.series_id IS NOT NULL \(filter)
            GROUP BY m.series_id, f.title, f.place_name, f.time_zone
            ORDER BY first_starts_at DESC, m.series_id DESC
            LIMIT ?
            """, arguments) { row in
            MeetupSeriesSummary(seriesID: try row.get("series_id"), title: try row.get("title"), placeName: try row.get("place_name"),
                                timeZone: try row.get("time_zone"), firstStartsAt: try row.get("first_starts_at"),
                                lastStartsAt: try row.get("last_starts_at"), meetups: Int(try row.get("meetups") as Int64),
                                scheduled: Int(try row.get("scheduled") as Int64), cancelled: Int(try row.get("cancelled") as Int64),
                                nextStartsAt: try row.get("next_starts_at"))
        }
    }
}
