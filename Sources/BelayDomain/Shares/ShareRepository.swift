import BelayStorage
import Foundation

/// SQL for share events.
enum ShareRepository {
    static let columns = "id, reward_id, member_id, meetup_id, target, reported_target, activity_type, completed, error, client_event_id, occurred_at"

    static func decode(_ row: Row) throws -> ShareEvent {
        ShareEvent(id: try row.get(0), rewardID: try row.get(1), memberID: try row.get(2), meetupID: try row.get(3),
                   target: ShareTarget(rawValue: try row.get(4)) ?? .other, reportedTarget: try row.get(5),
                   activityType: try row.get(6), completed: try row.get(7), error: try row.get(8),
                   clientEventID: try row.get(9), occurredAt: try row.get(10))
    }

    static func find(memberID: Int64, clientEventID: String, in db: Database) throws -> ShareEvent? {
        try db.queryOne("SELECT \(columns) FROM share_events WHERE member_id = ? AND client_event_id = ?",
                        [memberID, clientEventID], decode)
    }

    static func insert(_ event: NewShareEvent, memberID: Int64, meetupID: Int64, target: ShareTarget, at now: Date,
                       in db: Database) throws -> ShareEvent {
        try db.execute("""
            INSERT INTO share_events (reward_id, member_id, meetup_id, target, reported_target, activity_type, completed, error,
                                      client_event_id, occurred_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [event.rewardID, memberID, meetupID, target.rawValue, event.target, event.activityType, event.completed,
                  event.error, event.clientEventID, now])
        return ShareEvent(id: db.lastInsertRowID, rewardID: event.rewardID, memberID: memberID, meetupID: meetupID,
                          target: target, reportedTarget: event.target, activityType: event.activityType,
                          completed: event.completed, error: event.error, clientEventID: event.clientEventID,
                          occurredAt: Date(millisecondsSince1970: now.millisecondsSince1970))
    }

    struct StatisticsRow {
        let meetupID: Int64
        let meetupTitle: String
        let target: ShareTarget
        let occurredAt: Date
        let completed: Bool
        let hasError: Bool
    }

    static func statisticsRows(meetupID: Int64?, from: Date?, to: Date?, in db: Database) throws -> [StatisticsRow] {
        try db.query("""
            SELECT e.meetup_id, m.title, e.target, e.occurred_at, e.completed, e.error IS NOT NULL
            FROM share_events e JOIN meetups m ON m.id = e.meetup_id
            WHERE (?1 IS NULL OR e.meetup_id = ?1) AND (?2 IS NULL OR e.occurred_at >= ?2) AND (?3 IS NULL OR e.occurred_at < ?3)
            """, [meetupID, from, to]) { row in
            StatisticsRow(meetupID: try row.get(0), meetupTitle: try row.get(1),
                          target: ShareTarget(rawValue: try row.get(2)) ?? .other, occurredAt: try row.get(3),
                          completed: try row.get(4), hasError: try row.get(5))
        }
    }
}
