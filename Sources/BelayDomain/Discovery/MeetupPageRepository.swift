import BelayStorage
import Foundation

/// SQL for meetups' public pages (columns of the meetups row).
enum MeetupPageRepository {
    /// Publishes the page: a new slug the first time, the same one again after unpublishing.
    static func publish(meetupID: Int64, slug: String, showsHost: Bool, at now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE meetups SET page_slug = COALESCE(page_slug, ?), page_published_at = ?, page_shows_host = ? WHERE id = ?
            """, [slug, now, showsHost, meetupID])
    }

    static func unpublish(meetupID: Int64, in db: Database) throws {
        try db.execute("UPDATE meetups SET page_published_at = NULL WHERE id = ?", [meetupID])
    }

    /// The meetup behind `slug`, published or not.
    static func meetup(slug: String, in db: Database) throws -> Meetup? {
        try db.queryOne("SELECT \(MeetupRepository.columns) FROM meetups m WHERE m.page_slug = ?", [slug], MeetupRepository.decode)
    }
}
