import BelayStorage
import Foundation

/// SQL for kiosk links (only their tokens' SHA-256 is stored).
enum KioskRepository {
    static func insert(meetupID: Int64, tokenHash: [UInt8], createdBy: Int64?, now: Date, in db: Database) throws {
        try db.execute("INSERT INTO kiosk_links (meetup_id, token_hash, created_by, created_at) VALUES (?, ?, ?, ?)",
                       [meetupID, Data(tokenHash), createdBy, now])
    }

    /// The meetup of the link whose token hashes to `tokenHash`, and whether it was revoked;
    /// nil for a token no link has.
    static func find(tokenHash: [UInt8], in db: Database) throws -> (meetupID: Int64, revoked: Bool)? {
        try db.queryOne("SELECT meetup_id, revoked_at FROM kiosk_links WHERE token_hash = ?", [Data(tokenHash)]) {
            (try $0.get("meetup_id", as: Int64.self), try $0.get("revoked_at", as: Date?.self) != nil)
        }
    }

    /// Revokes every working link of the meetup.
    /// - Returns: how many were revoked now.
    static func revokeAll(meetupID: Int64, now: Date, in db: Database) throws -> Int {
        try db.execute("UPDATE kiosk_links SET revoked_at = ? WHERE meetup_id = ? AND revoked_at IS NULL", [now, meetupID])
        return db.changes
    }
}
