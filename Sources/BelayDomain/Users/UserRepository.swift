import BelayStorage
import Foundation

/// SQL for users and API tokens.
enum UserRepository {
    static let userColumns = "id, handle, display_name, email, role, created_at"

    static func decodeUser(_ row: Row) throws -> User {
        User(id: try row.get("id"), handle: try row.get("handle"), displayName: try row.get("display_name"),
             email: try row.get("email"), role: try row.get("role"), createdAt: try row.get("created_at"))
    }

    static let tokenColumns = "id, user_id, prefix, label, created_at, last_used_at, revoked_at, expires_at"

    static func decodeToken(_ row: Row) throws -> APIToken {
        APIToken(id: try row.get("id"), userID: try row.get("user_id"), prefix: try row.get("prefix"), label: try row.get("label"),
                 createdAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"), revokedAt: try row.get("revoked_at"),
                 expiresAt: try row.get("expires_at"))
    }

    static func insert(_ user: NewUser, at now: Date, in db: Database) throws -> User {
        // A new member's share pages do not show their name until they turn it on (members
        // made before keep their choice: the column's default is still on).
        let id = try db.insertReturningID("""
            INSERT INTO users (handle, display_name, email, role, created_at, show_name_on_share_pages)
            VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """, [user.handle, user.displayName, user.email, user.role.rawValue, now, false])
        return User(id: id, handle: user.handle, displayName: user.displayName,
                    email: user.email, role: user.role, createdAt: Date(millisecondsSince1970: now.millisecondsSince1970))
    }

    static func find(id: Int64, in db: Database) throws -> User? {
        try db.queryOne("SELECT \(userColumns) FROM users WHERE id = ?", [id], decodeUser)
    }

    /// How messages name the user `id`: their handle, or `user 7` when no user has that id.
    static func handle(id: Int64, in db: Database) throws -> String {
        try db.queryOne("SELECT handle FROM users WHERE id = ?", [id]) { try $0.get("handle", as: String.self) } ?? "user \(id)"
    }

    static func find(handle: String, in db: Database) throws -> User? {
        // Handles are unique whatever their case, and each engine's unique index says so.
        let match = db.dialect.equalsIgnoringCase("handle", "?")
        return try db.queryOne("SELECT \(userColumns) FROM users WHERE \(match)", [handle], decodeUser)
    }

    /// The user whose email is `email`, whatever its case (through each engine's index on it).
    static func find(email: String, in db: Database) throws -> User? {
        let match = db.dialect.equalsIgnoringCase("email", "?")
        return try db.queryOne("SELECT \(userColumns) FROM users WHERE \(match)", [email], decodeUser)
    }

    static func list(after id: Int64, limit: Int, in db: Database) throws -> [User] {
        try db.query("SELECT \(userColumns) FROM users WHERE id > ? ORDER BY id LIMIT ?", [id, limit], decodeUser)
    }

    static func setRole(_ role: Role, userID: Int64, in db: Database) throws -> Bool {
        try db.execute("UPDATE users SET role = ? WHERE id = ?", [role.rawValue, userID])
        return db.changes > 0
    }

    static func insertToken(userID: Int64, hash: [UInt8], prefix: String, label: String, at now: Date,
                            sessionID: Int64? = nil, expiresAt: Date? = nil, in db: Database) throws -> APIToken {
        let id = try db.insertReturningID("""
            INSERT INTO api_tokens (user_id, token_hash, prefix, label, created_at, session_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [userID, Data(hash), prefix, label, now, sessionID, expiresAt])
        return APIToken(id: id, userID: userID, prefix: prefix, label: label,
                        createdAt: Date(millisecondsSince1970: now.millisecondsSince1970), lastUsedAt: nil, revokedAt: nil,
                        expiresAt: expiresAt.map { Date(millisecondsSince1970: $0.millisecondsSince1970) })
    }

    static func tokens(userID: Int64, in db: Database) throws -> [APIToken] {
        try db.query("SELECT \(tokenColumns) FROM api_tokens WHERE user_id = ? ORDER BY id", [userID], decodeToken)
    }

    static func token(id: Int64, in db: Database) throws -> APIToken? {
        try db.queryOne("SELECT \(tokenColumns) FROM api_tokens WHERE id = ?", [id], decodeToken)
    }

    static func revokeToken(id: Int64, at now: Date, in db: Database) throws {
        try db.execute("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [now, id])
    }

    static func revokeTokens(userID: Int64, at now: Date, in db: Database) throws -> Int {
        try db.execute("UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [now, userID])
        return db.changes
    }

    struct TokenOwner {
        let user: AuthenticatedUser
        let lastUsedAt: Date?
    }

    static func activeTokenOwner(hash: [UInt8], now: Date, in db: Database) throws -> TokenOwner? {
        try db.queryOne("""
            SELECT t.id AS token_id, t.last_used_at, t.session_id, t.expires_at, u.id AS user_id, u.handle, u.display_name, u.role
            FROM api_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = ? AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?) AND u.deleted_at IS NULL
            """, [Data(hash), now]) { row in
            TokenOwner(user: AuthenticatedUser(userID: try row.get("user_id"), handle: try row.get("handle"),
                                               displayName: try row.get("display_name"), role: try row.get("role"),
                                               tokenID: try row.get("token_id"), sessionID: try row.get("session_id"),
                                               expiresAt: try row.get("expires_at")),
                       lastUsedAt: try row.get("last_used_at"))
        }
    }

    /// Records when each token in `uses` was last used, in one statement, for the tokens not
    /// recorded since `threshold`.
    static func touchTokens(_ uses: [(id: Int64, usedAt: Date)], notUsedSince threshold: Date, in db: Database) throws {
        guard !uses.isEmpty else { return }
        let list = "[" + uses.map { "[\($0.id),\($0.usedAt.millisecondsSince1970)]" }.joined(separator: ",") + "]"
        try db.execute("""
            UPDATE api_tokens SET last_used_at = used.used_at
            FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id", "used_at"]))) AS used
            WHERE api_tokens.id = used.id AND (api_tokens.last_used_at IS NULL OR api_tokens.last_used_at < ?2)
            """, [list, threshold])
    }
}
