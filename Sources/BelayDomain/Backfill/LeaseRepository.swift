import BelayStorage
import Foundation

/// SQL for the `leases` table.
enum LeaseRepository {
    static let columns = "name, holder_id, host, pid, purpose, acquired_at, renewed_at, expires_at"

    static func decode(_ row: Row) throws -> Lease {
        Lease(name: try row.get("name"), holderID: try row.get("holder_id"), host: try row.get("host"), pid: try row.get("pid"),
              purpose: try row.get("purpose"), acquiredAt: try row.get("acquired_at"), renewedAt: try row.get("renewed_at"),
              expiresAt: try row.get("expires_at"))
    }

    static func find(name: String, in db: Database) throws -> Lease? {
        try db.queryOne("SELECT \(columns) FROM leases WHERE name = ?", [name], decode)
    }

    static func upsert(name: String, claimant: LeaseClaimant, now: Date, expiresAt: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO leases (name, holder_id, host, pid, purpose, acquired_at, renewed_at, expires_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
            ON CONFLICT (name) DO UPDATE SET holder_id = ?2, host = ?3, pid = ?4, purpose = ?5, acquired_at = ?6,
                                             renewed_at = ?6, expires_at = ?7
            """, [name, claimant.holderID, claimant.host, claimant.pid, claimant.purpose, now, expiresAt])
    }

    /// Extends the lease if `holderID` still holds it; false when it does not.
    static func renew(name: String, holderID: String, now: Date, expiresAt: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE leases SET renewed_at = ?, expires_at = ? WHERE name = ? AND holder_id = ?",
                       [now, expiresAt, name, holderID])
        return db.changes > 0
    }

    static func delete(name: String, holderID: String, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM leases WHERE name = ? AND holder_id = ?", [name, holderID])
        return db.changes > 0
    }
}
