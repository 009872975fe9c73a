import BelayStorage
import Foundation

/// SQL for the meetup life-cycle (completing meetups whose check-in window closed).
enum MeetupLifecycleRepository {
    /// Scheduled meetups that ended at or before `cutoff`, earliest first.
    static func scheduledEnded(before cutoff: Date, limit: Int, in db: Database) throws -> [Int64] {
        try db.query("SELECT id FROM meetups WHERE status = 'scheduled' AND ends_at <= ? ORDER BY ends_at, id LIMIT ?",
                     [cutoff, limit]) { try $0.get("id") }
    }
}
