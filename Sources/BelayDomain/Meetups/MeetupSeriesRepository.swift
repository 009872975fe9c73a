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
}
