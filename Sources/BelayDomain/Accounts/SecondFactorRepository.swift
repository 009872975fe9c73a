import BelayStorage
import Foundation

/// SQL for second factors: the TOTP secret of each member who enrolled, their recovery codes
/// (SHA-256 only) and sign-ins held until the second factor is given (SHA-256 of the token only).
enum SecondFactorRepository {
    struct Factor {
        let secret: [UInt8]
        let confirmedAt: Date?
        let lastUsedStep: Int64
    }

    static func factor(userID: Int64, in db: Database) throws -> Factor? {
        try db.queryOne("SELECT secret, confirmed_at, last_used_step FROM second_factors WHERE user_id = ?", [userID]) {
            Factor(secret: [UInt8](try $0.get("secret", as: Data.self)), confirmedAt: try $0.get("confirmed_at"),
                   lastUsedStep: try $0.get("last_used_step"))
        }
    }

    /// Replaces any unconfirmed secret of the member by `secret`.
    static func insertPending(userID: Int64, secret: [UInt8], now: Date, in db: Database) throws {
        try db.execute("DELETE FROM second_factors WHERE user_id = ? AND confirmed_at IS NULL", [userID])
        try db.execute("INSERT INTO second_factors (user_id, secret, created_at, last_used_step) VALUES (?, ?, ?, 0)",
                       [userID, Data(secret), now])
    }

    static func confirm(userID: Int64, step: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE second_factors SET confirmed_at = ?, last_used_step = ? WHERE user_id = ? AND confirmed_at IS NULL",
                       [now, step, userID])
    }

    /// Records `step` as used; false when it or a later one already was (a replayed code).
    static func useStep(userID: Int64, step: Int64, in db: Database) throws -> Bool {
        try db.execute("UPDATE second_factors SET last_used_step = ? WHERE user_id = ? AND last_used_step < ? AND confirmed_at IS NOT NULL",
                       [step, userID, step])
        return db.changes > 0
    }

    static func replaceRecoveryCodes(userID: Int64, hashes: [[UInt8]], now: Date, in db: Database) throws {
        try db.execute("DELETE FROM second_factor_recovery_codes WHERE user_id = ?", [userID])
        for hash in hashes {
            try db.execute("INSERT INTO second_factor_recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)",
                           [userID, Data(hash), now])
        }
    }

    /// Spends the member's unspent recovery code with `hash`; false when there is none.
    static func spendRecoveryCode(userID: Int64, hash: [UInt8], now: Date, in db: Database) throws -> Bool {
        try db.execute("UPDATE second_factor_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
                       [now, userID, Data(hash)])
        return db.changes > 0
    }

    static func recoveryCodesLeft(userID: Int64, in db: Database) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM second_factor_recovery_codes WHERE user_id = ? AND used_at IS NULL", [userID]) {
            Int(try $0.get("n", as: Int64.self))
        } ?? 0
    }

    /// Removes the member's second factor, recovery codes and held sign-ins.
    /// - Returns: whether they had a second factor (confirmed or not).
    static func erase(userID: Int64, in db: Database) throws -> Bool {
        try db.execute("DELETE FROM held_sign_ins WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM second_factor_recovery_codes WHERE user_id = ?", [userID])
        try db.execute("DELETE FROM second_factors WHERE user_id = ?", [userID])
        return db.changes > 0
    }

    // MARK: Held sign-ins

    struct HeldSignIn {
        let userID: Int64
        /// The identity the first factor proved, without its ID token's digest (recorded as
        /// used when the sign-in was held).
        let identity: ProvenIdentity
        let device: DeviceDescription
        let expiresAt: Date
        let wrongAttempts: Int
    }

    static func insertHeld(tokenHash: [UInt8], userID: Int64, identity: ProvenIdentity, device: DeviceDescription, now: Date,
                           expiresAt: Date, in db: Database) throws {
        try db.execute("DELETE FROM held_sign_ins WHERE expires_at < ?", [now])
        try db.execute("""
            INSERT INTO held_sign_ins (token_hash, user_id, method, subject, email, email_verified, name, apple_refresh_token,
                                       device_name, device_platform, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [Data(tokenHash), userID, identity.method.rawValue, identity.subject, identity.email, identity.emailVerified, identity.name,
                  identity.appleRefreshToken, device.name, device.platform, now, expiresAt])
    }

    static func held(tokenHash: [UInt8], in db: Database) throws -> HeldSignIn? {
        try db.queryOne("""
            SELECT user_id, method, subject, email, email_verified, name, apple_refresh_token, device_name, device_platform,
                   expires_at, wrong_attempts
            FROM held_sign_ins WHERE token_hash = ?
            """, [Data(tokenHash)]) { row in
            let method: String = try row.get("method")
            guard let signInMethod = SignInMethod(rawValue: method) else {
                throw DomainError(.invalidInput, "A held sign-in names a way of signing in Belay does not know (\(method)); update Belay")
            }
            let identity = ProvenIdentity(method: signInMethod, subject: try row.get("subject"), email: try row.get("email"),
                                          emailVerified: try row.get("email_verified"), name: try row.get("name"),
                                          appleRefreshToken: try row.get("apple_refresh_token"))
            return HeldSignIn(userID: try row.get("user_id"), identity: identity,
                              device: DeviceDescription(name: try row.get("device_name"), platform: try row.get("device_platform")),
                              expiresAt: try row.get("expires_at"), wrongAttempts: Int(try row.get("wrong_attempts", as: Int64.self)))
        }
    }

    static func countWrong(tokenHash: [UInt8], in db: Database) throws {
        try db.execute("UPDATE held_sign_ins SET wrong_attempts = wrong_attempts + 1 WHERE token_hash = ?", [Data(tokenHash)])
    }

    static func deleteHeld(tokenHash: [UInt8], in db: Database) throws {
        try db.execute("DELETE FROM held_sign_ins WHERE token_hash = ?", [Data(tokenHash)])
    }
}
