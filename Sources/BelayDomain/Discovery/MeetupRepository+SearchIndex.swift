import BelayCore
import BelayStorage
import Foundation

/// What `MeetupSearchIndex` reads of the meetups: the few columns a search filters and orders
/// by, and the revisions that tell it what changed.
extension MeetupRepository {
    private static let searchEntryColumns = """
        m.id, m.revision, m.starts_at, m.ends_at, m.time_zone, m.capacity, m.going_count, m.gym_id, m.latitude_e6, m.longitude_e6,
        m.discipline, m.level_axis, m.level_min_score, m.level_max_score, m.tags, m.search_title, m.search_text,
        m.status, m.visibility, m.hidden_at
        """

    /// The highest revision any meetup holds (0 with none).
    static func latestRevision(in db: Database) throws -> Int64 {
        try db.queryOne("SELECT coalesce(max(revision), 0) AS latest FROM meetups", []) { try $0.get("latest", as: Int64.self) } ?? 0
    }

    /// Every meetup a search may find that ends after `now`.
    static func searchEntries(endingAfter now: Date, in db: Database,
                              zones: inout [String: TimeZone]) throws -> [(MeetupSearchIndex.Entry, MeetupSearchIndex.Words)] {
        try db.query("""
            SELECT \(searchEntryColumns) FROM meetups m
            WHERE m.ends_at > ? AND m.status <> 'cancelled' AND m.visibility = 'public' AND m.hidden_at IS NULL
            """, [now]) { row in try searchEntry(row, zones: &zones) }
            .compactMap { $0.entry }
    }

    /// The meetups whose revision is above `revision` or in one of `ranges`, each with its
    /// entry when a search may still find it (nil when it is cancelled, private or hidden).
    static func searchEntries(revisedAfter revision: Int64, orIn ranges: [ClosedRange<Int64>], in db: Database,
                              zones: inout [String: TimeZone]) throws -> [SearchRow] {
        let condition = (["m.revision > ?"] + ranges.map { _ in "m.revision BETWEEN ? AND ?" }).joined(separator: " OR ")
        return try db.query("SELECT \(searchEntryColumns) FROM meetups m WHERE \(condition)",
                            [revision] + ranges.flatMap { [$0.lowerBound, $0.upperBound] }) { row in try searchEntry(row, zones: &zones) }
    }

    /// A meetup as the index reads it: its entry and words when a search may find it.
    typealias SearchRow = (id: Int64, revision: Int64, entry: (MeetupSearchIndex.Entry, MeetupSearchIndex.Words)?)

    private static func searchEntry(_ row: Row, zones: inout [String: TimeZone]) throws -> SearchRow {
        let id: Int64 = try row.get("id")
        let revision: Int64 = try row.get("revision")
        let searchable = try row.get("status", as: String.self) != MeetupStatus.cancelled.rawValue
            && row.get("visibility", as: String.self) == MeetupVisibility.public.rawValue
            && row.get("hidden_at", as: Int64?.self) == nil
        guard searchable else { return (id, revision, nil) }
        let startsAt: Int64 = try row.get("starts_at")
        let zoneName: String = try row.get("time_zone")
        let zone: TimeZone
        if let known = zones[zoneName] {
            zone = known
        } else {
            zone = TimeZone(identifier: zoneName) ?? .gmt
            zones[zoneName] = zone
        }
        var tagMask: UInt32 = 0
        for tag in try MeetupTag.read(stored: try row.get("tags"), meetupID: id) { tagMask |= MeetupSearchIndex.mask(of: tag) }
        let axis: GradeAxis? = try row.get("level_axis")
        let entry = MeetupSearchIndex.Entry(
            id: id, startsAt: startsAt, endsAt: try row.get("ends_at"),
            day: Int32(CalendarDay(Date(millisecondsSince1970: startsAt), in: zone).daysSinceEpoch),
            latitudeE6: try row.get("latitude_e6"), longitudeE6: try row.get("longitude_e6"),
            going: try row.get("going_count"), capacity: try row.get("capacity"), gymID: try row.get("gym_id"),
            discipline: try row.get("discipline"), levelAxis: axis,
            levelMin: axis == nil ? 0 : try row.get("level_min_score"), levelMax: axis == nil ? 0 : try row.get("level_max_score"),
            tagMask: tagMask)
        return (id, revision, (entry, MeetupSearchIndex.Words(title: try row.get("search_title"), text: try row.get("search_text"))))
    }
}
