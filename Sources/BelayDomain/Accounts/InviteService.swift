import BelayCore
import BelayStorage
import Foundation

/// Invite codes that let someone create an account while `accounts.sign_up` is `invite`.
/// Hosts and admins make them; a host sees and revokes only their own.
public final class InviteService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    /// Longest an invite may live.
    static let maximumLifetime: TimeInterval = 365 * 86_400

    init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Makes an invite code usable `uses` times until `expiresAt`.
    /// - Throws: `DomainError` `not_permitted` for a member, `invalid_input` for `uses` outside
    ///   1–10000 or an expiry in the past or more than a year ahead.
    public func create(uses: Int, expiresAt: Date, by actor: Actor) throws -> Invite {
        guard actor.role != .member else { throw DomainError(.notPermitted, "Only hosts and admins make invites") }
        guard (1...10_000).contains(uses) else { throw DomainError.invalid("uses", "An invite admits 1 to 10000 people (got \(uses))") }
        let now = clock.now()
        guard expiresAt > now, expiresAt <= now.addingTimeInterval(Self.maximumLifetime) else {
            throw DomainError.invalid("expires_at", "An invite expires after now and at most a year from now")
        }
        // 10 characters from an alphabet without look-alikes: easy to type, ~50 bits.
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let code = String(Crypto.randomBytes(10).map { alphabet[Int($0) % alphabet.count] })
        return try domainCall {
            try pool.write { try InviteRepository.insert(code: code, createdBy: actor.userID, maxUses: uses, expiresAt: expiresAt, now: now, in: $0) }
        }
    }

    /// The newest 200 invites: an admin's view has everyone's, a host's their own.
    /// - Throws: `DomainError` `not_permitted` for a member.
    public func list(by actor: Actor) throws -> [Invite] {
        guard actor.role != .member else { throw DomainError(.notPermitted, "Only hosts and admins see invites") }
        return try domainCall { try pool.read { try InviteRepository.list(createdBy: actor.isAdmin ? nil : actor.userID, in: $0) } }
    }

    /// Revokes an invite; revoking twice is harmless.
    /// - Throws: `DomainError` `invite_not_found` (also for a host's view of someone else's invite).
    public func revoke(id: Int64, by actor: Actor) throws -> Invite {
        guard actor.role != .member else { throw DomainError(.notPermitted, "Only hosts and admins revoke invites") }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard let invite = try InviteRepository.find(id: id, in: db), actor.isAdmin || invite.createdBy == actor.userID else {
                    throw DomainError(.inviteNotFound, "No invite of yours has id \(id); list them to find it")
                }
                try InviteRepository.revoke(id: id, now: now, in: db)
                return try InviteRepository.find(id: id, in: db) ?? invite
            }
        }
    }
}
