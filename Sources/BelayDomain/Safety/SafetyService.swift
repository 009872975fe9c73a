import BelayCore
import BelayStorage
import Foundation

/// A member's own safety tools: blocking other members, banning members from the meetups they
/// host, and accepting the club's terms.
///
/// A block works both ways: neither member sees the other's meetups in lists, and neither can
/// join a meetup the other hosts or co-hosts (refused with a neutral `not_permitted` that says
/// nothing of the block). A member already going stays; the host and co-hosts see their side
/// of the block on the attendee list. A host's ban keeps the member out of every meetup the
/// host hosts (or co-hosts) from then on. The rule's SQL is `SafetyRepository.keptApartSQL`.
public final class SafetyService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    public let policy: ModerationPolicy

    init(pool: any DatabaseStore, clock: any TimeSource, policy: ModerationPolicy) {
        self.pool = pool
        self.clock = clock
        self.policy = policy
    }

    // MARK: Blocks

    /// Blocks `blockedID` for `memberID`. Blocking again changes nothing.
    /// - Returns: whether the block was made now.
    /// - Throws: `DomainError`: `invalid_input` (field `user_id`) for oneself, `user_not_found`.
    @discardableResult
    public func block(_ blockedID: Int64, by memberID: Int64) throws -> Bool {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                try Self.requireOther(blockedID, than: memberID, verb: "block", in: db)
                return try SafetyRepository.insertBlock(blockerID: memberID, blockedID: blockedID, now: now, in: db)
            }
        }
    }

    /// Lifts the member's block of `blockedID`.
    /// - Returns: whether there was one.
    /// - Throws: `DomainError.storageFailure`.
    @discardableResult
    public func unblock(_ blockedID: Int64, by memberID: Int64) throws -> Bool {
        try domainCall { try pool.write { try SafetyRepository.deleteBlock(blockerID: memberID, blockedID: blockedID, in: $0) } }
    }

    /// The members `memberID` has blocked, the latest first (never those who blocked them).
    /// - Throws: `DomainError.storageFailure`.
    public func blocks(of memberID: Int64) throws -> [BlockedMember] {
        try domainCall { try pool.read { try SafetyRepository.blocks(blockerID: memberID, in: $0) } }
    }

    /// Whether lists shown to the member must leave out someone's meetups (they blocked
    /// someone or someone blocked them).
    /// - Throws: `DomainError.storageFailure`.
    public func hasBlocks(_ memberID: Int64) throws -> Bool {
        try domainCall { try pool.read { try SafetyRepository.hasBlocks(userID: memberID, in: $0) } }
    }

    // MARK: Bans

    /// Bans `memberID` from every meetup `hostID` hosts from now on; a member already going
    /// stays (the host may take them off the attendee list). Banning again changes nothing.
    /// - Returns: whether the ban was made now.
    /// - Throws: `DomainError`: `invalid_input` (field `user_id`) for oneself, `user_not_found`.
    @discardableResult
    public func ban(_ memberID: Int64, by hostID: Int64) throws -> Bool {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                try Self.requireOther(memberID, than: hostID, verb: "ban", in: db)
                return try SafetyRepository.insertBan(hostID: hostID, memberID: memberID, now: now, in: db)
            }
        }
    }

    /// Lifts the host's ban of `memberID`.
    /// - Returns: whether there was one.
    /// - Throws: `DomainError.storageFailure`.
    @discardableResult
    public func unban(_ memberID: Int64, by hostID: Int64) throws -> Bool {
        try domainCall { try pool.write { try SafetyRepository.deleteBan(hostID: hostID, memberID: memberID, in: $0) } }
    }

    /// The members the host has banned, the latest first.
    /// - Throws: `DomainError.storageFailure`.
    public func bans(of hostID: Int64) throws -> [BlockedMember] {
        try domainCall { try pool.read { try SafetyRepository.bans(hostID: hostID, in: $0) } }
    }

    private static func requireOther(_ otherID: Int64, than memberID: Int64, verb: String, in db: Database) throws {
        guard otherID != memberID else {
            throw DomainError.invalid("user_id", "You cannot \(verb) yourself; give another member's id")
        }
        guard try AccountRepository.profile(userID: otherID, in: db) != nil else {
            throw DomainError(.userNotFound, "No member has id \(otherID); check the id (it is the `host_id` of their meetups)")
        }
    }

    // MARK: Terms

    /// The club's terms when `userID` has not accepted their current version, with the address
    /// in the member's language; nil when there is nothing to accept (no terms, or accepted).
    /// - Throws: `DomainError.storageFailure`.
    public func termsToAccept(userID: Int64) throws -> (version: String, url: String?)? {
        guard let version = policy.termsVersion else { return nil }
        return try domainCall {
            try pool.read { db -> (version: String, url: String?)? in
                guard try SafetyRepository.acceptedTerms(userID: userID, version: version, in: db) == nil else { return nil }
                let locale = try AccountRepository.profile(userID: userID, in: db)?.locale ?? policy.defaultLocale
                return (version, policy.termsURL?.replacingOccurrences(of: "{locale}", with: locale.rawValue))
            }
        }
    }

    /// Records that the member accepted `version` of the terms, now.
    /// - Returns: when they accepted it (the first time, when they accept it again).
    /// - Throws: `DomainError` `invalid_input` (field `version`) when it is not the current
    ///   version (or the club asks for no terms).
    public func acceptTerms(userID: Int64, version: String) throws -> Date {
        guard let current = policy.termsVersion else {
            throw DomainError.invalid("version", "This club asks no one to accept terms; there is nothing to accept")
        }
        guard version == current else {
            throw DomainError.invalid("version", "The current terms are version \(current.debugDescription) (got \(version.debugDescription)); read them and accept that version")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                try SafetyRepository.acceptTerms(userID: userID, version: version, now: now, in: db)
                return try SafetyRepository.acceptedTerms(userID: userID, version: version, in: db) ?? now
            }
        }
    }

    /// Every version of the terms the member accepted, and when, for their export.
    /// - Throws: `DomainError.storageFailure`.
    public func termsAcceptances(userID: Int64) throws -> [(version: String, acceptedAt: Date)] {
        try domainCall { try pool.read { try SafetyRepository.termsAcceptances(userID: userID, in: $0) } }
    }
}
