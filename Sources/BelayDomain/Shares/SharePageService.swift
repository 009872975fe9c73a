import BelayCore
import BelayStorage
import Foundation

/// The public pages of shared rewards (`/s/{slug}`) and the member's choice of what they show.
public final class SharePageService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// The slug of `reward`'s share page. The reward's own member mints it the first time
    /// (the share payload asks for it): 128 random bits, unrelated to the reward's id. Anyone
    /// else who may read the reward (its host, an admin) only sees an existing one, so a
    /// reward becomes public only when its member shares it.
    /// - Returns: the slug, or nil when none exists and `actor` is not the member.
    /// - Throws: `DomainError` `storage_failure`.
    public func slug(for reward: Reward, by actor: Actor) throws -> String? {
        if let existing = try domainCall({ try pool.read { try SharePageRepository.slug(rewardID: reward.id, in: $0) } }) {
            return existing
        }
        guard actor.userID == reward.memberID, !reward.isRevoked else { return nil }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                if let raced = try SharePageRepository.slug(rewardID: reward.id, in: db) { return raced }
                let slug = Crypto.base64URL(Crypto.randomBytes(16))
                try SharePageRepository.insert(slug: slug, rewardID: reward.id, at: now, in: db)
                return slug
            }
        }
    }

    /// The page named `slug`, or nil when there is none. A slug that cannot be one (wrong
    /// length or alphabet) is nil without asking the database.
    /// - Throws: `DomainError` `storage_failure`.
    public func page(slug: String) throws -> SharePage? {
        guard (22...64).contains(slug.utf8.count),
              slug.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (48...57).contains($0)
                                      || (65...90).contains($0) || (97...122).contains($0) }) else { return nil }
        return try domainCall {
            try pool.read { db -> SharePage? in
                guard let found = try SharePageRepository.find(slug: slug, in: db),
                      let reward = try RewardRepository.find(id: found.rewardID, in: db) else { return nil }
                return SharePage(slug: slug, reward: reward, memberName: found.showsName ? found.memberName : nil)
            }
        }
    }

    /// Whether the member's share pages show their display name (on unless they turned it off).
    /// - Throws: `DomainError.userNotFound`.
    public func showsName(userID: Int64) throws -> Bool {
        guard let shows = try domainCall({ try pool.read { try SharePageRepository.showsName(userID: userID, in: $0) } }) else {
            throw DomainError(.userNotFound, "No user has id \(userID); list users to find the right one")
        }
        return shows
    }

    /// Turns the display name on the member's share pages on or off; pages already shared
    /// follow at once.
    /// - Throws: `DomainError.userNotFound`.
    public func setShowsName(_ shows: Bool, userID: Int64) throws {
        guard try domainCall({ try pool.write { try SharePageRepository.setShowsName(shows, userID: userID, in: $0) } }) else {
            throw DomainError(.userNotFound, "No user has id \(userID); list users to find the right one")
        }
    }
}
