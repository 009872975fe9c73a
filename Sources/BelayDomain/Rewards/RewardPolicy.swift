import Foundation

/// How rewards are chosen, from `config.json`'s `rewards` section.
///
/// A member's Nth check-in (counting their checked-in attendances in check-in order) gets
/// `milestones[N]` when configured; any other check-in gets a rarity tier picked with
/// `rarityWeights`, then a hold of that tier uniformly, among holds that are neither
/// retired nor milestone-only. A check-in that makes the member's weekly streak (see
/// `WeeklyStreak`) reach N weeks for the first time gets `streakMilestones[N]` when there is
/// no check-in milestone for it. The pick is seeded from (member, meetup) with SHA-256, so a
/// backfill reproduces it exactly.
public struct RewardPolicy: Sendable, Hashable {
    /// Check-in number → hold id.
    public var milestones: [Int: String]
    /// Weeks in a row → hold id.
    public var streakMilestones: [Int: String]
    /// Relative weight of each rarity tier; a tier with weight 0 is never picked.
    public var rarityWeights: [HoldRarity: Int]

    public init(milestones: [Int: String], rarityWeights: [HoldRarity: Int], streakMilestones: [Int: String]) {
        self.milestones = milestones
        self.streakMilestones = streakMilestones
        self.rarityWeights = rarityWeights
    }

    /// Checks the milestones and weights.
    /// - Throws: `DomainError` (`invalid_input`) naming the impossible entry.
    public func validate() throws {
        for (number, hold) in milestones {
            guard number >= 1 else {
                throw DomainError.invalid("milestones", "milestone numbers start at 1 (got \(number))")
            }
            guard !hold.isEmpty else {
                throw DomainError.invalid("milestones", "milestone \(number) names no hold")
            }
        }
        for (weeks, hold) in streakMilestones {
            guard weeks >= 1 else {
                throw DomainError.invalid("streak_milestones", "streak milestones are weeks in a row, from 1 (got \(weeks))")
            }
            guard !hold.isEmpty else {
                throw DomainError.invalid("streak_milestones", "the streak milestone of \(weeks) weeks names no hold")
            }
        }
        for (rarity, weight) in rarityWeights where weight < 0 {
            throw DomainError.invalid("rarity_weights", "the weight of \(rarity.rawValue) must be 0 or more (got \(weight))")
        }
        guard rarityWeights.values.contains(where: { $0 > 0 }) else {
            throw DomainError.invalid("rarity_weights", "at least one rarity needs a weight above 0")
        }
    }
}
