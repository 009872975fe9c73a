import BelayStorage
import Foundation

/// SQL for share events.
enum ShareRepository {
    static let columns = "id, reward_id, member_id, meetup_id, target, reported_target, activity_type, completed, error, client_event_id, occurred_at"

    static func decode(_ row: Row) throws -> ShareEvent {
        ShareEvent(id: try row.get("id"), rewardID: try row.get("reward_id"), memberID: try row.get("member_id"),
                   meetupID: try row.get("meetup_id"), target: try row.get("target"), reportedTarget: try row.get("reported_target"),
                   activityType: try row.get("activity_type"), completed: try row.get("completed"), error: try row.get("error"),
                   clientEventID: try row.get("client_event_id"), occurredAt: try row.get("occurred_at"))
    }

    static func find(memberID: Int64, clientEventID: String, in db: Database) throws -> ShareEvent? {
        try db.queryOne("SELECT \(columns) FROM share_events WHERE member_id = ? AND client_event_id = ?",
                        [memberID, clientEventID], decode)
    }

    static func count(rewardID: Int64, memberID: Int64, in db: Database) throws -> Int {
        try db.scalar("SELECT count(*) FROM share_events WHERE reward_id = ? AND member_id = ?", [rewardID, memberID], as: Int.self) ?? 0
    }

    static func list(memberID: Int64, afterID: Int64, limit: Int, in db: Database) throws -> [ShareEvent] {
        try db.query("SELECT \(columns) FROM share_events WHERE member_id = ? AND id > ? ORDER BY id LIMIT ?", [memberID, afterID, limit], decode)
    }

    static func insert(_ event: NewShareEvent, memberID: Int64, meetupID: Int64, target: ShareTarget, at now: Date,
                       in db: Database) throws -> ShareEvent {
        let id = try db.insertReturningID("""
            INSERT INTO share_events (reward_id, member_id, meetup_id, target, reported_target, activity_type, completed, error,
                                      client_event_id, occurred_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [event.rewardID, memberID, meetupID, target.rawValue, event.target, event.activityType, event.completed,
                  event.error, event.clientEventID, now])
        return ShareEvent(id: id, rewardID: event.rewardID, memberID: memberID, meetupID: meetupID,
                          target: target, reportedTarget: event.target, activityType: event.activityType,
                          completed: event.completed, error: event.error, clientEventID: event.clientEventID,
                          occurredAt: Date(millisecondsSince1970: now.millisecondsSince1970))
    }

    /// The earliest and latest `occurred_at` of all share events (from the time index).
    static func occurrenceRange(in db: Database) throws -> (first: Date, last: Date)? {
        try db.queryOne("SELECT min(occurred_at) AS first, max(occurred_at) AS last FROM share_events", []) { row in
            guard let first = try row.get("first", as: Date?.self), let last = try row.get("last", as: Date?.self) else { return nil }
            return (first, last)
        } ?? nil
    }

    /// The statistics query: events are grouped per meetup, club-zone day and target, for
    /// at most `meetupLimit` meetups from `after.meetupID` on, each found through an index
    /// (`meetups_by_host` for a host, the primary key otherwise), and their events through
    /// `share_events_by_meetup` (`CROSS JOIN` keeps SQLite to that order: meetups first).
    /// The counts of pruned events (`share_statistics_daily`, days `?9` through `?10`) are
    /// added to them, through that table's primary key. So the work follows the page asked
    /// for, not the history.
    ///
    /// `?1` is a JSON array of `[start_ms, end_ms, utc_offset_seconds]` intervals covering
    /// `[?2, ?3)`, in each of which the club's zone keeps one UTC offset.
    ///
    /// The dialects differ in three places, each asked of `dialect`: reading the JSON
    /// intervals, naming a day from seconds, and the join that keeps the order.
    static func statisticsSQL(forHost: Bool, forMeetup: Bool, dialect: any SQLDialect) -> String {
        let meetupFilter = (forHost ? " AND m.id IN (\(MeetupHostRepository.managedMeetupIDs("?11")))" : "") + (forMeetup ? " AND m.id = ?12" : "")
        let intervals = dialect.integerRows(ofJSON: "?1", columns: ["start_at", "end_at", "offset_seconds"])
        let day = dialect.utcDay(ofEpochSeconds: "e.occurred_at / 1000 + o.offset_seconds")
        let join = dialect.joinInWrittenOrder
        return """
            WITH offsets(start_at, end_at, offset_seconds) AS (
                \(intervals)
            ),
            page_meetups(id, title) AS (
                SELECT m.id, m.title FROM meetups m
                WHERE m.id >= ?4\(meetupFilter)
                  AND (EXISTS (SELECT 1 FROM share_events s WHERE s.meetup_id = m.id AND s.occurred_at >= ?2 AND s.occurred_at < ?3)
                       OR EXISTS (SELECT 1 FROM share_statistics_daily k WHERE k.meetup_id = m.id AND k.day >= ?9 AND k.day <= ?10))
                ORDER BY m.id LIMIT ?7
            ),
            counted(meetup_id, title, day, target, events, completed, failed, dismissed) AS (
                SELECT e.meetup_id, p.title, \(day), e.target,
                       count(*), sum(e.completed),
                       sum(CASE WHEN e.completed = 0 AND e.error IS NOT NULL THEN 1 ELSE 0 END),
                       sum(CASE WHEN e.completed = 0 AND e.error IS NULL THEN 1 ELSE 0 END)
                FROM page_meetups p
                \(join) share_events e ON e.meetup_id = p.id AND e.occurred_at >= ?2 AND e.occurred_at < ?3
                \(join) offsets o ON e.occurred_at >= o.start_at AND e.occurred_at < o.end_at
                GROUP BY e.meetup_id, p.title, \(day), e.target
                UNION ALL
                SELECT k.meetup_id, p.title, k.day, k.target, k.events, k.completed, k.failed, k.dismissed
                FROM page_meetups p
                \(join) share_statistics_daily k ON k.meetup_id = p.id AND k.day >= ?9 AND k.day <= ?10
            )
            SELECT meetup_id, title, day, target,
                   CAST(sum(events) AS BIGINT) AS events, CAST(sum(completed) AS BIGINT) AS completed,
                   CAST(sum(failed) AS BIGINT) AS failed, CAST(sum(dismissed) AS BIGINT) AS dismissed
            FROM counted
            WHERE (meetup_id, day, target) > (?4, ?5, ?6)
            GROUP BY meetup_id, title, day, target
            ORDER BY meetup_id, day, target
            LIMIT ?8
            """
    }

    /// Runs `statisticsSQL`; `offsets` is the JSON text for `?1`.
    /// - Parameters:
    ///   - firstDay, lastDay: the days (`yyyy-MM-dd`, both included) whose counts of pruned
    ///     events are added.
    static func statistics(offsets: String, from: Date, to: Date, firstDay: String, lastDay: String, after: ShareStatisticKey,
                           hostID: Int64?, meetupID: Int64?, limit: Int, in db: Database) throws -> [ShareStatistic] {
        // Each meetup after the cursor's adds at least one row: `limit + 1` meetups fill `limit` rows.
        var arguments: [any DatabaseValueConvertible] = [offsets, from, to, after.meetupID, after.day, after.target,
                                                         limit + 1, limit, firstDay, lastDay]
        // Numbered parameters: SQLite counts up to the highest number the SQL uses.
        if hostID != nil || meetupID != nil { arguments.append(hostID ?? 0) }
        if let meetupID { arguments.append(meetupID) }
        return try db.query(statisticsSQL(forHost: hostID != nil, forMeetup: meetupID != nil, dialect: db.dialect), arguments) { row in
            ShareStatistic(meetupID: try row.get("meetup_id"), meetupTitle: try row.get("title"), target: try row.get("target"),
                           day: try row.get("day"), events: try row.get("events"), completed: try row.get("completed"),
                           failed: try row.get("failed"), dismissed: try row.get("dismissed"))
        }
    }

    // MARK: Retention

    /// One batch of `ShareEventRetention`: of the `limit` events after id `after`, those
    /// before `cutoff` are deleted and added to their day's totals. Only what this
    /// transaction deleted is counted, so two nodes pruning at once never count an event
    /// twice. Ids grow with time, so the walk ends at the first batch reaching the cutoff.
    static func pruneBatch(after: Int64, limit: Int, before cutoff: Date, day: ClubDay,
                           in db: Database) throws -> (deleted: Int, countsAdded: Int, lastID: Int64?, reachedCutoff: Bool) {
        struct Key: Hashable { let meetupID: Int64, day: String, target: String }
        struct Counts { var events = 0, completed = 0, failed = 0, dismissed = 0 }
        let window: [(id: Int64, occurredAt: Date)] = try db.query(
            "SELECT id, occurred_at FROM share_events WHERE id > ? ORDER BY id LIMIT ?", [after, limit]) {
            (try $0.get("id"), try $0.get("occurred_at"))
        }
        let lastID = window.last?.id
        let reachedCutoff = window.count < limit || (window.last.map { $0.occurredAt >= cutoff } ?? true)
        let doomed = window.filter { $0.occurredAt < cutoff }.map(\.id)
        guard !doomed.isEmpty else { return (0, 0, lastID, reachedCutoff) }
        var totals: [Key: Counts] = [:]
        let deleted: [(key: Key, completed: Bool, failed: Bool)] = try db.query("""
            DELETE FROM share_events WHERE id IN (SELECT id FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id"]))) AS doomed)
            RETURNING meetup_id, target, completed, error IS NOT NULL AS failed, occurred_at
            """, ["[" + doomed.map { "[\($0)]" }.joined(separator: ",") + "]"]) { row in
            (Key(meetupID: try row.get("meetup_id"), day: day.name(of: try row.get("occurred_at")), target: try row.get("target")),
             try row.get("completed"), try row.get("failed"))
        }
        for event in deleted {
            var counts = totals[event.key, default: Counts()]
            counts.events += 1
            if event.completed { counts.completed += 1 } else if event.failed { counts.failed += 1 } else { counts.dismissed += 1 }
            totals[event.key] = counts
        }
        for (key, counts) in totals.sorted(by: { ($0.key.meetupID, $0.key.day, $0.key.target) < ($1.key.meetupID, $1.key.day, $1.key.target) }) {
            try db.execute("""
                INSERT INTO share_statistics_daily (meetup_id, day, target, events, completed, failed, dismissed)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (meetup_id, day, target) DO UPDATE SET
                    events = share_statistics_daily.events + excluded.events,
                    completed = share_statistics_daily.completed + excluded.completed,
                    failed = share_statistics_daily.failed + excluded.failed,
                    dismissed = share_statistics_daily.dismissed + excluded.dismissed
                """, [key.meetupID, key.day, key.target, counts.events, counts.completed, counts.failed, counts.dismissed])
        }
        return (deleted.count, totals.count, lastID, reachedCutoff)
    }
}
