import BelayStorage
import Foundation

/// SQL for waitlist offers.
enum WaitlistRepository {
    /// Waitlisted attendances holding an offer (expired or not: until it is passed on, an
    /// offer holds its place).
    static func openOffers(meetupID: Int64, in db: Database) throws -> Int {
        try db.scalar("""
            SELECT count(*) FROM attendances WHERE meetup_id = ? AND status = 'waitlisted' AND offer_expires_at IS NOT NULL
            """, [meetupID], as: Int.self) ?? 0
    }

    /// The first `limit` waitlisted attendances without an offer, in line order, passing over
    /// the members blocked either way with the host or a co-host, and those one of them banned:
    /// they stay in line (nobody is removed for a block) but are offered nothing and told nothing.
    static func nextInLine(meetupID: Int64, limit: Int, in db: Database) throws -> [Int64] {
        try db.query("""
            SELECT a.id FROM attendances a JOIN meetups m ON m.id = a.meetup_id
            WHERE a.meetup_id = ? AND a.status = 'waitlisted' AND a.offer_expires_at IS NULL
              AND NOT \(SafetyRepository.keptApartSQL(member: .sql("a.member_id"), bans: true).sql)
            ORDER BY a.queue_position LIMIT ?
            """, [meetupID, limit]) { try $0.get("id") }
    }

    static func offer(id: Int64, until: Date, now: Date, in db: Database) throws {
        try db.execute("UPDATE attendances SET offer_expires_at = ?, updated_at = ? WHERE id = ?", [until, now, id])
    }

    /// Withdraws an offer (the member stays waitlisted, in their place in line, without it).
    static func withdrawOffer(id: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE attendances SET offer_expires_at = NULL, updated_at = ? WHERE id = ?", [now, id])
    }

    /// Offers that ran out at `now`, oldest first, in one meetup or every meetup.
    static func dueOffers(now: Date, meetupID: Int64?, limit: Int, in db: Database) throws -> [(id: Int64, meetupID: Int64)] {
        try db.query("""
            SELECT id, meetup_id FROM attendances
            WHERE offer_expires_at IS NOT NULL AND offer_expires_at <= ?1 AND status = 'waitlisted' AND (?2 IS NULL OR meetup_id = ?2)
            ORDER BY offer_expires_at, id LIMIT ?3
            """, [now, meetupID, limit]) { (try $0.get("id"), try $0.get("meetup_id")) }
    }
}
