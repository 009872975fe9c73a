import BelayStorage
import Foundation

/// SQL for identities, sessions, refresh tokens, emailed codes and the account's own columns.
enum AccountRepository {
    // MARK: Identities

    static func identityOwner(method: SignInMethod, subject: String, in db: Database) throws -> (id: Int64, userID: Int64)? {
        try db.queryOne("SELECT id, user_id FROM identities WHERE provider = ? AND subject = ?", [method.rawValue, subject]) {
            (id: try $0.get("id"), userID: try $0.get("user_id"))
        }
    }

    static func insertIdentity(_ identity: ProvenIdentity, userID: Int64, now: Date, in db: Database) throws {
        try db.execute("""
            INSERT INTO identities (user_id, provider, subject, email, apple_refresh_token, created_at, last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [userID, identity.method.rawValue, identity.subject, identity.emailVerified ? identity.email : nil,
                  identity.appleRefreshToken, now, now])
    }

    static func touchIdentity(id: Int64, _ identity: ProvenIdentity, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE identities SET last_used_at = ?, email = COALESCE(?, email), apple_refresh_token = COALESCE(?, apple_refresh_token)
            WHERE id = ?
            """, [now, identity.emailVerified ? identity.email : nil, identity.appleRefreshToken, id])
    }

    static func identities(userID: Int64, in db: Database) throws -> [LinkedIdentity] {
        try db.query("SELECT provider, subject, email, created_at, last_used_at FROM identities WHERE user_id = ? ORDER BY id", [userID]) {
            LinkedIdentity(provider: try $0.get("provider"), subject: try $0.get("subject"), email: try $0.get("email"),
                           createdAt: try $0.get("created_at"), lastUsedAt: try $0.get("last_used_at"))
        }
    }

    static func appleRefreshTokens(userID: Int64, in db: Database) throws -> [String] {
        try db.query("SELECT apple_refresh_token FROM identities WHERE user_id = ? AND apple_refresh_token IS NOT NULL", [userID]) {
            try $0.get("apple_refresh_token")
        }
    }

    /// Remembers an ID token as exchanged; false when it already was (a replay). With
    /// `pruning`, first forgets the tokens that have expired (a scan: done now and then, not per sign-in).
    static func recordUsedIdentityToken(digest: String, expiresAt: Date, now: Date, pruning: Bool, in db: Database) throws -> Bool {
        if pruning { try db.execute("DELETE FROM used_identity_tokens WHERE expires_at < ?", [now]) }
        try db.execute("INSERT INTO used_identity_tokens (digest, expires_at) VALUES (?, ?) ON CONFLICT (digest) DO NOTHING", [digest, expiresAt])
        return db.changes > 0
    }

    // MARK: The account's own columns

    /// The live account whose email is `email` (whatever its case).
    static func userID(email: String, in db: Database) throws -> Int64? {
        guard let user = try UserRepository.find(email: email, in: db), try !isDeleted(userID: user.id, in: db) else { return nil }
        return user.id
    }

    static func handleExists(_ handle: String, in db: Database) throws -> Bool {
        try UserRepository.find(handle: handle, in: db) != nil
    }

    static func setAccountDetails(userID: Int64, locale: MemberLocale?, emailVerified: Bool, in db: Database) throws {
        try db.execute("UPDATE users SET locale = COALESCE(?, locale), email_verified = CASE WHEN ? = 1 THEN 1 ELSE email_verified END WHERE id = ?",
                       [locale?.rawValue, emailVerified, userID])
    }

    static func profile(userID: Int64, in db: Database) throws -> MemberProfile? {
        try db.queryOne("""
            SELECT \(UserRepository.userColumns), locale, email_verified, show_name_on_share_pages
            FROM users WHERE id = ? AND deleted_at IS NULL
            """, [userID]) { row in
            MemberProfile(user: try UserRepository.decodeUser(row), locale: (try row.get("locale", as: String?.self)).flatMap(MemberLocale.init(rawValue:)),
                          emailVerified: try row.get("email_verified"), showNameOnSharePages: try row.get("show_name_on_share_pages"))
        }
    }

    static func updateProfile(userID: Int64, _ change: ProfileChange, in db: Database) throws {
        try db.execute("""
            UPDATE users SET display_name = COALESCE(?, display_name), handle = COALESCE(?, handle), locale = COALESCE(?, locale),
                show_name_on_share_pages = COALESCE(?, show_name_on_share_pages)
            WHERE id = ? AND deleted_at IS NULL
            """, [change.displayName, change.handle, change.locale?.rawValue, change.showNameOnSharePages.map { $0 ? 1 : 0 }, userID])
    }

    static func isDeleted(userID: Int64, in db: Database) throws -> Bool {
        try db.queryOne("SELECT deleted_at FROM users WHERE id = ?", [userID]) { try $0.get("deleted_at", as: Date?.self) != nil } ?? true
    }

    /// Replaces everything that identifies the member by a tombstone, and removes their ways in.
    static func erase(userID: Int64, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE users SET handle = ?, display_name = 'Deleted member', email = NULL, email_verified = 0, locale = NULL,
                show_name_on_share_pages = 0, role = 'member', deleted_at = ?
            WHERE id = ?
            """, ["deleted-\(userID)", now, userID])
        try db.execute("DELETE FROM identities WHERE user_id = ?", [userID])
        _ = try SecondFactorRepository.erase(userID: userID, in: db)
        try DeviceRepository.deleteAll(userID: userID, in: db)
        try db.execute("DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = ?)", [userID])
        try db.execute("DELETE FROM api_tokens WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM sessions WHERE user_id = ?", [userID])
    }

    // MARK: Sessions

    static let sessionColumns = "id, user_id, device_name, platform, sign_in_method, created_at, last_used_at, authenticated_at, expires_at"

    static func decodeSession(_ row: Row) throws -> MemberSession {
        MemberSession(id: try row.get("id"), userID: try row.get("user_id"), deviceName: try row.get("device_name"),
                      platform: try row.get("platform"), signInMethod: try row.get("sign_in_method"),
                      createdAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"),
                      authenticatedAt: try row.get("authenticated_at"), expiresAt: try row.get("expires_at"))
    }

    static func insertSession(userID: Int64, device: DeviceDescription, method: SignInMethod, now: Date, expiresAt: Date,
                              in db: Database) throws -> MemberSession {
        let id = try db.insertReturningID("""
            INSERT INTO sessions (user_id, device_name, platform, sign_in_method, created_at, last_used_at, authenticated_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, [userID, device.name, device.platform, method.rawValue, now, now, now, expiresAt])
        let instant = Date(millisecondsSince1970: now.millisecondsSince1970)
        return MemberSession(id: id, userID: userID, deviceName: device.name, platform: device.platform, signInMethod: method,
                             createdAt: instant, lastUsedAt: instant, authenticatedAt: instant,
                             expiresAt: Date(millisecondsSince1970: expiresAt.millisecondsSince1970))
    }

    /// The session `id` while it has not ended.
    static func liveSession(id: Int64, now: Date, in db: Database) throws -> MemberSession? {
        try db.queryOne("SELECT \(sessionColumns) FROM sessions WHERE id = ? AND ended_at IS NULL AND expires_at > ?", [id, now], decodeSession)
    }

    static func liveSessions(userID: Int64, now: Date, in db: Database) throws -> [MemberSession] {
        try db.query("SELECT \(sessionColumns) FROM sessions WHERE user_id = ? AND ended_at IS NULL AND expires_at > ? ORDER BY id",
                     [userID, now], decodeSession)
    }

    /// Marks the session `id` used now and moves its end to `expiresAt`, if it has not ended.
    /// - Returns: the session as updated, or nil when it has ended.
    static func touchLiveSession(id: Int64, now: Date, expiresAt: Date, in db: Database) throws -> MemberSession? {
        try db.queryOne("""
            UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ? AND ended_at IS NULL AND expires_at > ?
            RETURNING \(sessionColumns)
            """, [now, expiresAt, id, now], decodeSession)
    }

    /// Ends a session: it can no longer be refreshed, and its access tokens stop working.
    static func endSession(id: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL", [now, id])
        try DeviceRepository.deleteAll(sessionID: id, in: db)
        try db.execute("UPDATE api_tokens SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL", [now, id])
        try db.execute("UPDATE refresh_tokens SET used_at = ? WHERE session_id = ? AND used_at IS NULL", [now, id])
    }

    // MARK: Refresh tokens

    static func insertRefreshToken(hash: [UInt8], sessionID: Int64, now: Date, in db: Database) throws {
        try db.execute("INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?, ?, ?)", [Data(hash), sessionID, now])
    }

    /// The session a refresh token was issued to, used or not; nil for an unknown token.
    static func refreshTokenSession(hash: [UInt8], in db: Database) throws -> Int64? {
        try db.queryOne("SELECT session_id FROM refresh_tokens WHERE token_hash = ?", [Data(hash)]) { try $0.get("session_id", as: Int64.self) }
    }

    /// Marks a refresh token used.
    /// - Returns: its session, or nil when the token is unknown or was used before.
    static func spendRefreshToken(hash: [UInt8], now: Date, in db: Database) throws -> Int64? {
        try db.queryOne("UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL RETURNING session_id",
                        [now, Data(hash)]) { try $0.get("session_id", as: Int64.self) }
    }

    /// Drops a session's access tokens that expired before `threshold` (they no longer work).
    static func pruneExpiredAccessTokens(sessionID: Int64, before threshold: Date, in db: Database) throws {
        try db.execute("DELETE FROM api_tokens WHERE session_id = ? AND expires_at < ?", [sessionID, threshold])
    }

    // MARK: Emailed codes

    struct Challenge {
        let id: Int64
        let email: String
        let codeHash: [UInt8]
        let expiresAt: Date
        let wrongAttempts: Int
    }

    static func decodeChallenge(_ row: Row) throws -> Challenge {
        Challenge(id: try row.get("id"), email: try row.get("email"), codeHash: [UInt8](try row.get("code_hash", as: Data.self)),
                  expiresAt: try row.get("expires_at"), wrongAttempts: try row.get("wrong_attempts"))
    }

    static func insertChallenge(email: String, codeHash: [UInt8], linkHash: [UInt8], now: Date, expiresAt: Date, in db: Database) throws {
        try db.execute("UPDATE email_challenges SET closed_at = ? WHERE email = ? AND closed_at IS NULL", [now, email])
        try db.execute("DELETE FROM email_challenges WHERE expires_at < ?", [now.addingTimeInterval(-86_400)])
        try db.execute("INSERT INTO email_challenges (email, code_hash, link_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                       [email, Data(codeHash), Data(linkHash), now, expiresAt])
    }

    static func openChallenge(email: String, in db: Database) throws -> Challenge? {
        try db.queryOne("""
            SELECT id, email, code_hash, expires_at, wrong_attempts FROM email_challenges
            WHERE email = ? AND closed_at IS NULL ORDER BY id DESC LIMIT 1
            """, [email], decodeChallenge)
    }

    static func openChallenge(linkHash: [UInt8], in db: Database) throws -> Challenge? {
        try db.queryOne("SELECT id, email, code_hash, expires_at, wrong_attempts FROM email_challenges WHERE link_hash = ? AND closed_at IS NULL",
                        [Data(linkHash)], decodeChallenge)
    }

    static func countWrongCode(challengeID: Int64, closing: Bool, now: Date, in db: Database) throws {
        try db.execute("UPDATE email_challenges SET wrong_attempts = wrong_attempts + 1, closed_at = CASE WHEN ? = 1 THEN ? ELSE closed_at END WHERE id = ?",
                       [closing, now, challengeID])
    }

    static func closeChallenge(id: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE email_challenges SET closed_at = ? WHERE id = ? AND closed_at IS NULL", [now, id])
        return db.changes > 0
    }

    static func deleteChallenges(email: String, in db: Database) throws {
        try db.execute("DELETE FROM email_challenges WHERE email = ?", [email])
    }
}
