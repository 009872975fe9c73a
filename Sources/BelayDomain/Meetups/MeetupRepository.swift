import BelayCore
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
        m.series_id, m.gym_id, m.latitude_e6, m.longitude_e6, m.discipline, m.level_axis, m.level_scale, m.level_min, m.level_max,
        m.level_min_score, m.level_max_score, m.tags, m.visibility, m.page_slug, m.page_published_at, m.page_shows_host, m.hidden_at
        """

    static func decode(_ row: Row) throws -> Meetup {
        let id: Int64 = try row.get("id")
        var meetup = Meetup(id: id, title: try row.get("title"), description: try row.get("description"),
               placeName: try row.get("place_name"), address: try row.get("address"), startsAt: try row.get("starts_at"),
               endsAt: try row.get("ends_at"), timeZone: try row.get("time_zone"), capacity: try row.get("capacity"),
               hostID: try row.get("host_id"), status: try row.get("status"),
               goingCount: try row.get("going_count"), waitlistCount: try row.get("waitlist_count"),
               checkedInCount: try row.get("checked_in_count"), createdAt: try row.get("created_at"),
               updatedAt: try row.get("updated_at"), seriesID: try row.get("series_id"), gymID: try row.get("gym_id"))
        meetup.location = GeoPoint(latitudeE6: try row.get("latitude_e6"), longitudeE6: try row.get("longitude_e6"))
        meetup.discipline = try row.get("discipline")
        if let scale: GradeScale = try row.get("level_scale"), let axis: GradeAxis = try row.get("level_axis") {
            meetup.level = MeetupLevel(scale: scale, lowestGrade: try row.get("level_min"), highestGrade: try row.get("level_max"),
                                       range: GradeRange(axis: axis, lowest: try row.get("level_min_score"), highest: try row.get("level_max_score")))
        }
        meetup.tags = try MeetupTag.read(stored: try row.get("tags"), meetupID: id)
        meetup.visibility = try row.get("visibility")
        meetup.hiddenAt = try row.get("hidden_at")
        if let slug: String = try row.get("page_slug") {
            meetup.page = MeetupPage(slug: slug, publishedAt: try row.get("page_published_at"), showsHost: try row.get("page_shows_host"))
        }
        return meetup
    }

    /// The values of the discovery columns, in the order `discoveryAssignments` names them:
    /// where, what, what level, tags, visibility and what text search reads.
    private static func discoveryValues(_ meetup: NewMeetup, in db: Database) throws -> [any DatabaseValueConvertible] {
        let text = try searchText(title: meetup.title, description: meetup.description, placeName: meetup.placeName,
                                  address: meetup.address, gymID: meetup.gymID, in: db)
        return [meetup.location?.latitudeE6, meetup.location?.longitudeE6, meetup.discipline?.rawValue,
                meetup.level?.range.axis.rawValue, meetup.level?.scale.rawValue, meetup.level?.lowestGrade, meetup.level?.highestGrade,
                meetup.level.map { Int64($0.range.lowest) }, meetup.level.map { Int64($0.range.highest) },
                MeetupTag.stored(meetup.tags), meetup.visibility.rawValue,
                SearchText.folded(meetup.title), text, SearchText.indexedGrams(ofFolded: text)]
    }

    /// What text search reads of a meetup, folded: its title, description, place, address and
    /// its gym's names in every locale.
    private static func searchText(title: String, description: String, placeName: String, address: String?, gymID: Int64?,
                                   in db: Database) throws -> String {
        var parts = [title, description, placeName, address ?? ""]
        if let gymID {
            parts += try db.query("SELECT name, localized_names FROM gyms WHERE id = ?", [gymID]) { row -> [String] in
                let names: String = try row.get("localized_names")
                let localized = (try? JSONParser.parse(names))?.objectValue?.values.compactMap(\.stringValue) ?? []
                return [try row.get("name", as: String.self)] + localized
            }.flatMap { $0 }
        }
        return SearchText.folded(parts.joined(separator: "\n"))
    }

    /// After a gym's edit: its meetups' search text takes the gym's new names, and those still
    /// to come that stood where the gym stood (`previous`) move with it.
    static func followGym(id gymID: Int64, movedFrom previous: GeoPoint?, to current: GeoPoint?, at now: Date, in db: Database) throws {
        let meetups = try db.query("""
            SELECT id, title, description, place_name, address, status, latitude_e6, longitude_e6 FROM meetups WHERE gym_id = ?
            """, [gymID]) { row in
            (id: try row.get("id", as: Int64.self), title: try row.get("title", as: String.self),
             description: try row.get("description", as: String.self), placeName: try row.get("place_name", as: String.self),
             address: try row.get("address", as: String?.self), status: try row.get("status", as: String.self),
             latitudeE6: try row.get("latitude_e6", as: Int64?.self), longitudeE6: try row.get("longitude_e6", as: Int64?.self))
        }
        for meetup in meetups {
            let text = try searchText(title: meetup.title, description: meetup.description, placeName: meetup.placeName,
                                      address: meetup.address, gymID: gymID, in: db)
            try db.execute("UPDATE meetups SET search_text = ?, search_grams = ? WHERE id = ? AND search_text <> ?",
                           [text, SearchText.indexedGrams(ofFolded: text), meetup.id, text])
            let stoodAtTheGym = meetup.latitudeE6 == previous?.latitudeE6 && meetup.longitudeE6 == previous?.longitudeE6
            if previous != current, stoodAtTheGym, meetup.status == MeetupStatus.scheduled.rawValue {
                try db.execute("UPDATE meetups SET latitude_e6 = ?, longitude_e6 = ?, updated_at = ? WHERE id = ?",
                               [current?.latitudeE6, current?.longitudeE6, now, meetup.id])
            }
        }
    }

    private static let discoveryColumns = ["latitude_e6", "longitude_e6", "discipline", "level_axis", "level_scale", "level_min", "level_max",
                                           "level_min_score", "level_max_score", "tags", "visibility", "search_title", "search_text", "search_grams"]

    static func find(id: Int64, in db: Database) throws -> Meetup? {
        try db.queryOne("SELECT \(columns) FROM meetups m WHERE m.id = ?", [id], decode)
    }

    static func find(ids: [Int64], in db: Database) throws -> [Meetup] {
        try db.query("SELECT \(columns) FROM meetups m WHERE m.id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))", ids, decode)
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
                                 host_id, status, check_in_secret, created_at, updated_at, gym_id, \(discoveryColumns.joined(separator: ", ")))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'scheduled', ?, ?, ?, ?, \(Array(repeating: "?", count: discoveryColumns.count).joined(separator: ", ")))
            RETURNING id
            """, [meetup.title, meetup.description, meetup.placeName, meetup.address, meetup.startsAt, meetup.endsAt,
                  meetup.timeZone, meetup.capacity, meetup.hostID, Data(secret), now, now, meetup.gymID] + discoveryValues(meetup, in: db))
    }

    static func update(id: Int64, with meetup: NewMeetup, at now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE meetups SET title = ?, description = ?, place_name = ?, address = ?, starts_at = ?, ends_at = ?,
                               time_zone = ?, capacity = ?, host_id = ?, updated_at = ?, gym_id = ?,
                               \(discoveryColumns.map { "\($0) = ?" }.joined(separator: ", "))
            WHERE id = ?
            """, [meetup.title, meetup.description, meetup.placeName, meetup.address, meetup.startsAt, meetup.endsAt,
                  meetup.timeZone, meetup.capacity, meetup.hostID, now, meetup.gymID] + discoveryValues(meetup, in: db) + [id])
    }

    static func setStatus(_ status: MeetupStatus, id: Int64, at now: Date, in db: Database) throws {
        try db.execute("UPDATE meetups SET status = ?, updated_at = ? WHERE id = ?", [status.rawValue, now, id])
    }

    /// One row of a list: the meetup, whether its title matched the search's words (0) or only
    /// the rest (1), and its distance key when the search is near a point.
    struct Listed {
        let meetup: Meetup
        let titleRank: Int64
        let distanceKey: Int64?
    }

    /// Where a list continues: after the row with these keys.
    struct ListPosition {
        let titleRank: Int64
        let key: Int64
        let id: Int64
    }

    /// A page of a list or search, in the list's order. Every filter is one condition of one
    /// statement; the engine's indexes serve the point (R*Tree or GiST) and the words (FTS5 or GIN).
    /// Days (`from`, `to`) are checked here only roughly (in UTC, a day wider each side); the
    /// service keeps the meetups whose own zone's day is in range.
    static func list(_ query: MeetupQuery, resolved: ResolvedMeetupSearch, now: Date, after position: ListPosition?, limit: Int,
                     in db: Database) throws -> [Listed] {
        let search = query.search
        var conditions = ["m.hidden_at IS NULL"]
        var values: [any DatabaseValueConvertible] = []
        func add(_ condition: String, _ bound: [any DatabaseValueConvertible] = []) {
            conditions.append(condition)
            values += bound
        }
        if let place = query.placeName { add("m.place_name = ?", [place]) }
        if let host = query.hostID { add("m.host_id = ?", [host]) }
        if let manager = query.managerID { add("m.id IN (\(MeetupHostRepository.managedMeetupIDs("?")))", [manager, manager]) }
        if !query.includeCancelled || !search.isEmpty { add("m.status <> 'cancelled'") }
        if !query.includePrivate { add("m.visibility = 'public'") }
        if let viewer = query.viewerID {
            let apart = SafetyRepository.keptApartSQL(member: .value(viewer), bans: false)
            add("NOT " + apart.sql, apart.values)
        }
        switch query.scope {
        case .upcoming: add("m.ends_at > ?", [now])
        case .past: add("m.ends_at <= ?", [now])
        case .all: break
        }
        if let gym = search.gymID { add("m.gym_id = ?", [gym]) }
        if let discipline = search.discipline { add("m.discipline = ?", [discipline.rawValue]) }
        if let tag = search.tag { add("m.tags LIKE ?", ["%,\(tag.rawValue),%"]) }
        if search.hasSpots { add("m.going_count < m.capacity") }
        if let from = search.from { add("m.starts_at >= ?", [Date(timeIntervalSince1970: Double(from.daysSinceEpoch) * 86_400 - 15 * 3_600)]) }
        if let to = search.to { add("m.starts_at < ?", [Date(timeIntervalSince1970: Double(to.daysSinceEpoch + 1) * 86_400 + 15 * 3_600)]) }
        if !resolved.levelRanges.isEmpty {
            add("(" + resolved.levelRanges.map { _ in "(m.level_axis = ? AND m.level_min_score <= ? AND m.level_max_score >= ?)" }
                .joined(separator: " OR ") + ")",
                resolved.levelRanges.flatMap { [$0.axis.rawValue, Int64($0.highest), Int64($0.lowest)] as [any DatabaseValueConvertible] })
        }
        // A window of a few days finds fewer meetups than a place or a word (a city's gyms hold
        // a year or two of them): then the start index leads and the box and the words are checked.
        let narrowWindow = search.from.flatMap { from in search.to.map { $0.daysSinceEpoch - from.daysSinceEpoch <= 31 } } ?? false
        var distance = "NULL"
        var distanceValues: [any DatabaseValueConvertible] = []
        if let near = resolved.near {
            let box = db.dialect.pointInBox(id: "m.id", latitude: "m.latitude_e6", longitude: "m.longitude_e6", spatialIndex: "meetup_locations",
                                            box: near.boundingBoxE6(kilometres: resolved.radiusKilometres), leading: !narrowWindow)
            add(box.sql, box.values)
            distance = db.dialect.integerPart(of: "(m.latitude_e6 - ?) * (m.latitude_e6 - ?) + ((m.longitude_e6 - ?) * CAST(? AS DOUBLE PRECISION)) * ((m.longitude_e6 - ?) * CAST(? AS DOUBLE PRECISION))")
            let scale = near.longitudeScale
            distanceValues = [near.latitudeE6, near.latitudeE6, near.longitudeE6, scale, near.longitudeE6, scale]
            add("\(distance) <= ?", distanceValues + [Int64(resolved.radiusKeySquared.rounded(.up))])
        }
        var titleRank = "0"
        var titleValues: [any DatabaseValueConvertible] = []
        if !resolved.words.isEmpty {
            let grams = db.dialect.hasEveryGram(id: "m.id", gramsColumn: "m.search_grams", textIndex: "meetup_search", grams: resolved.grams, leading: !narrowWindow)
            add(grams.sql, [grams.value])
            for word in resolved.words { add("\(db.dialect.position(of: "?", in: "m.search_text")) > 0", [word]) }
            titleRank = "(CASE WHEN " + resolved.words.map { _ in "\(db.dialect.position(of: "?", in: "m.search_title")) > 0" }
                .joined(separator: " AND ") + " THEN 0 ELSE 1 END)"
            titleValues = resolved.words
        }
        // The order and the keyset: (title rank, start, id) or (distance, id).
        let descending = query.scope == .past && search.sort == .startsAt
        let direction = descending ? "DESC" : ""
        let order: String
        if search.sort == .distance {
            order = "distance_key, m.id"
            if let position {
                add("(\(distance) > ? OR (\(distance) = ? AND m.id > ?))", distanceValues + [position.key] + distanceValues + [position.key, position.id])
            }
        } else {
            order = "title_rank, m.starts_at \(direction), m.id \(direction)"
            if let position {
                let after = descending ? "<" : ">"
                add("(\(titleRank) > ? OR (\(titleRank) = ? AND (m.starts_at \(after) ? OR (m.starts_at = ? AND m.id \(after) ?))))",
                    titleValues + [position.titleRank] + titleValues + [position.titleRank, position.key, position.key, position.id])
            }
        }
        let sql = """
            SELECT \(columns), \(titleRank) AS title_rank, \(distance) AS distance_key FROM meetups m
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(order) LIMIT ?
            """
        return try db.query(sql, titleValues + distanceValues + values + [limit]) { row in
            Listed(meetup: try decode(row), titleRank: try row.get("title_rank"), distanceKey: try row.get("distance_key"))
        }
    }
}
