import BelayStorage
import Foundation

/// SQL for invites.
enum InviteRepository {
    static let columns = "id, code, created_by, max_uses, uses, expires_at, created_at, revoked_at"

    static func decode(_ row: Row) throws -> Invite {
        Invite(id: try row.get("id"), code: try row.get("code"), createdBy: try row.get("created_by"), maxUses: try row.get("max_uses"),
               uses: try row.get("uses"), expiresAt: try row.get("expires_at"), createdAt: try row.get("created_at"),
               revokedAt: try row.get("revoked_at"))
    }

    static func insert(code: String, createdBy: Int64?, maxUses: Int, expiresAt: Date, now: Date, in db: Database) throws -> Invite {
        let id = try db.insertReturningID("INSERT INTO invites (code, created_by, max_uses, expires_at, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                                          [code, createdBy, maxUses, expiresAt, now])
        return try find(id: id, in: db) ?? Invite(id: id, code: code, createdBy: createdBy, maxUses: maxUses, uses: 0,
                                                  expiresAt: expiresAt, createdAt: now, revokedAt: nil)
    }

    static func find(id: Int64, in db: Database) throws -> Invite? {
        try db.queryOne("SELECT \(columns) FROM invites WHERE id = ?", [id], decode)
    }

    static func list(createdBy: Int64?, in db: Database) throws -> [Invite] {
        if let createdBy {
            return try db.query("SELECT \(columns) FROM invites WHERE created_by = ? ORDER BY id DESC LIMIT 200", [createdBy], decode)
        }
        return try db.query("SELECT \(columns) FROM invites ORDER BY id DESC LIMIT 200", [], decode)
    }

    /// Takes one use of the invite with `code`; false when it is unknown, used up, expired or revoked.
    static func consume(code: String, now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE invites SET uses = uses + 1 WHERE code = ? AND revoked_at IS NULL AND uses < max_uses AND expires_at > ?",
                       [code, now])
        return db.changes > 0
    }

    static func revoke(id: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [now, id])
    }
}
