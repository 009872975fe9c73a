import BelayStorage
import Foundation

/// SQL for co-hosts.
enum MeetupHostRepository {
    static func isCohost(meetupID: Int64, userID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("SELECT 1 FROM meetup_cohosts WHERE meetup_id = ? AND user_id = ?", [meetupID, userID]) { _ in true } ?? false
    }

    /// Adds a co-host; false when they already were one.
    static func add(meetupID: Int64, userID: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("INSERT INTO meetup_cohosts (meetup_id, user_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                       [meetupID, userID, now])
        return db.changes > 0
    }

    /// Removes a co-host; false when they were not one.
    static func remove(meetupID: Int64, userID: Int64, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM meetup_cohosts WHERE meetup_id = ? AND user_id = ?", [meetupID, userID])
        return db.changes > 0
    }

    /// The co-hosts' user ids, in the order they were added.
    static func cohosts(meetupID: Int64, in db: Database) throws -> [Int64] {
        try db.query("SELECT user_id FROM meetup_cohosts WHERE meetup_id = ? ORDER BY added_at, user_id", [meetupID]) { try $0.get("user_id") }
    }

    /// SQL selecting the ids of the meetups the user bound at `placeholder` hosts or co-hosts,
    /// each side through its index (for `m.id IN (…)` when a query should start from them).
    static func managedMeetupIDs(_ placeholder: String) -> String {
        "SELECT id FROM meetups WHERE host_id = \(placeholder) UNION SELECT meetup_id FROM meetup_cohosts WHERE user_id = \(placeholder)"
    }

    /// SQL that is true when the meetup `m` is hosted or co-hosted by the user bound at `placeholder` (e.g. `?2`).
    static func hostedBy(_ placeholder: String) -> String {
        "(m.host_id = \(placeholder) OR EXISTS (SELECT 1 FROM meetup_cohosts c WHERE c.meetup_id = m.id AND c.user_id = \(placeholder)))"
    }
}
