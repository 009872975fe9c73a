import BelayCore
import BelayIdentity
import Foundation
import Synchronization

/// The provider authentication token APNs asks for: an ES256 JWT `{iss: team, iat}` with the
/// key's id, signed with the team's `.p8` key. Apple refuses one older than an hour and
/// throttles providers that make new ones more often than every 20 minutes, so one is kept and
/// made again when it is 50 minutes old, or sooner when APNs says it expired, but never
/// twice within 20 minutes.
///
/// Threading: safe from any thread.
final class APNsProviderToken: Sendable {
    static let renewAge: TimeInterval = 50 * 60
    static let minimumAge: TimeInterval = 20 * 60

    private let key: JWTSigningKey
    private let keyID: String
    private let teamID: String
    private let clock: any TimeSource
    private let current = Mutex<(token: String, issuedAt: Date)?>(nil)

    init(key: JWTSigningKey, keyID: String, teamID: String, clock: any TimeSource) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.clock = clock
    }

    /// The token to send now.
    /// - Throws: `JWTSigningKeyError` when the key cannot sign.
    func token() throws -> String {
        let now = clock.now()
        return try current.withLock { current in
            if let current, now.timeIntervalSince(current.issuedAt) < Self.renewAge { return current.token }
            return try make(now: now, into: &current)
        }
    }

    /// Makes a new token after APNs refused `rejected` as expired, unless the one kept is newer
    /// than `rejected` or younger than 20 minutes.
    func renew(after rejected: String) throws {
        let now = clock.now()
        try current.withLock { current in
            if let current, current.token != rejected || now.timeIntervalSince(current.issuedAt) < Self.minimumAge { return }
            _ = try make(now: now, into: &current)
        }
    }

    private func make(now: Date, into current: inout (token: String, issuedAt: Date)?) throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let token = try key.sign(claims: .object(JSONObject([("iss", .string(teamID)), ("iat", .int(issuedAt))])), keyID: keyID)
        current = (token, now)
        return token
    }
}
