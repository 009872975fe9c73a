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

    /// The slug of `reward`'s published page, or nil when it has none. Reading never
    /// publishes: a reward becomes public only through `publish(_:by:)`.
    /// - Throws: `DomainError` `storage_failure`.
    public func slug(for reward: Reward) throws -> String? {
        try domainCall { try pool.read { try SharePageRepository.slug(rewardID: reward.id, in: $0) } }
    }

    /// Publishes `reward`'s public page, `/s/{slug}`: 128 random bits, unrelated to the
    /// reward's id. Only the member who earned the reward publishes it; publishing a published
    /// page is harmless and gives the same slug. After `unpublish(_:by:)` the old slug stays
    /// gone and publishing makes a new one.
    /// - Returns: the slug, and whether this call published the page.
    /// - Throws: `DomainError`: `not_permitted` (not the reward's member), `reward_revoked`.
    public func publish(_ reward: Reward, by actor: Actor) throws -> (slug: String, published: Bool) {
        guard actor.userID == reward.memberID else {
            throw DomainError(.notPermitted, "Only the member who earned reward \(reward.id) publishes its page")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                if let existing = try SharePageRepository.slug(rewardID: reward.id, in: db) { return (existing, false) }
                // Read in the write: a check-in undone a moment ago is seen.
                guard let current = try RewardRepository.find(id: reward.id, in: db), !current.isRevoked else {
                    throw DomainError(.rewardRevoked, "Reward \(reward.id) was revoked when its check-in was undone; it cannot be shared")
                }
                let slug = Crypto.base64URL(Crypto.randomBytes(16))
                try SharePageRepository.insert(slug: slug, rewardID: reward.id, at: now, in: db)
                return (slug, true)
            }
        }
    }

    /// Takes `reward`'s page down: its link answers 410 Gone from now on. Its member or an
    /// admin may; taking down a page that is not published is harmless.
    /// - Returns: whether a page was taken down.
    /// - Throws: `DomainError` `not_permitted`.
    @discardableResult
    public func unpublish(_ reward: Reward, by actor: Actor) throws -> Bool {
        guard actor.userID == reward.memberID || actor.isAdmin else {
            throw DomainError(.notPermitted, "Only the member who earned reward \(reward.id), or an admin, takes its page down")
        }
        let now = clock.now()
        return try domainCall { try pool.write { try SharePageRepository.unpublish(rewardID: reward.id, at: now, in: $0) } }
    }

    /// Whether the page named `slug` is withheld: a moderator hid it, or its member is
    /// suspended (it answers 410 Gone).
    /// - Throws: `DomainError` `storage_failure`.
    public func isWithheld(slug: String) throws -> Bool {
        guard Self.couldBeSlug(slug) else { return false }
        let now = clock.now()
        return try domainCall { try pool.read { try ModerationRepository.sharePageIsWithheld(slug: slug, now: now, in: $0) } }
    }

    /// Whether `slug` named a page its member took down (it answers 410 Gone, like a revoked reward's).
    /// - Throws: `DomainError` `storage_failure`.
    public func wasUnpublished(slug: String) throws -> Bool {
        guard Self.couldBeSlug(slug) else { return false }
        return try domainCall { try pool.read { try SharePageRepository.wasUnpublished(slug: slug, in: $0) } }
    }

    static func couldBeSlug(_ slug: String) -> Bool {
        (22...64).contains(slug.utf8.count)
            && slug.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (48...57).contains($0)
                                      || (65...90).contains($0) || (97...122).contains($0) })
    }

    /// The page named `slug`, or nil when there is none. A slug that cannot be one (wrong
    /// length or alphabet) is nil without asking the database.
    /// - Throws: `DomainError` `storage_failure`.
    public func page(slug: String) throws -> SharePage? {
        guard Self.couldBeSlug(slug) else { return nil }
        let now = clock.now()
        return try domainCall {
            try pool.read { db -> SharePage? in
                guard try !ModerationRepository.sharePageIsWithheld(slug: slug, now: now, in: db),
                      let found = try SharePageRepository.find(slug: slug, in: db),
                      let reward = try RewardRepository.find(id: found.rewardID, in: db) else { return nil }
                return SharePage(slug: slug, reward: reward, memberName: found.showsName ? found.memberName : nil)
            }
        }
    }

    /// Whether the member's share pages show their display name (off for members made since
    /// pages were published on purpose, until they turn it on).
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
