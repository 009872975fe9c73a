import BelayCore
import Foundation

/// The catalogue as the reward rules see it: eligible holds by rarity and backgrounds, in
/// id order so that picks do not depend on row order.
struct CatalogSnapshot: Sendable {
    let generation: Int64
    let holdsByID: [String: Hold]
    /// Not retired, not milestone-only, sorted by id.
    let pickableByRarity: [HoldRarity: [Hold]]
    /// Not retired, sorted by id.
    let backgrounds: [Background]

    init(generation: Int64, holds: [Hold], backgrounds: [Background]) {
        self.generation = generation
        holdsByID = Dictionary(uniqueKeysWithValues: holds.map { ($0.id, $0) })
        pickableByRarity = Dictionary(grouping: holds.filter { !$0.isRetired && !$0.milestoneOnly }.sorted { $0.id < $1.id },
                                      by: \.rarity)
        self.backgrounds = backgrounds.filter { !$0.isRetired }.sorted { $0.id < $1.id }
    }
}

/// The reward rules as a pure function (see `RewardPolicy`).
struct RewardPicker: Sendable {
    struct Pick: Equatable {
        let holdID: String
        let backgroundID: String
        let milestone: Int?
        /// Weeks in a row, when the pick is a streak milestone.
        var streakMilestone: Int? = nil
    }

    let policy: RewardPolicy

    /// The hold and background for a member's check-in number `checkInNumber` at a meetup
    /// that makes their streak reach `streakLengths` weeks for the first time, or nil when the
    /// catalogue has no eligible hold or background.
    func pick(memberID: Int64, meetupID: Int64, checkInNumber: Int, streakLengths: ClosedRange<Int>? = nil,
              catalog: CatalogSnapshot) -> Pick? {
        guard !catalog.backgrounds.isEmpty else { return nil }
        let digest = Crypto.sha256(Array("belay-reward-v1:\(memberID):\(meetupID)".utf8))
        let background = catalog.backgrounds[Int(Crypto.uint64(digest, at: 16) % UInt64(catalog.backgrounds.count))]

        if let milestoneHold = policy.milestones[checkInNumber], let hold = catalog.holdsByID[milestoneHold], !hold.isRetired {
            return Pick(holdID: hold.id, backgroundID: background.id, milestone: checkInNumber)
        }
        if let lengths = streakLengths,
           let weeks = policy.streakMilestones.keys.filter({ lengths.contains($0) && catalog.holdsByID[policy.streakMilestones[$0] ?? ""]?.isRetired == false }).max(),
           let holdID = policy.streakMilestones[weeks] {
            return Pick(holdID: holdID, backgroundID: background.id, milestone: nil, streakMilestone: weeks)
        }
        let tiers = HoldRarity.allCases.compactMap { rarity -> (HoldRarity, UInt64)? in
            let weight = policy.rarityWeights[rarity] ?? 0
            guard weight > 0, let holds = catalog.pickableByRarity[rarity], !holds.isEmpty else { return nil }
            return (rarity, UInt64(weight))
        }
        let total = tiers.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return nil }
        var roll = Crypto.uint64(digest, at: 0) % total
        var chosen = tiers[tiers.count - 1].0
        for (rarity, weight) in tiers {
            if roll < weight { chosen = rarity; break }
            roll -= weight
        }
        let holds = catalog.pickableByRarity[chosen]!
        let hold = holds[Int(Crypto.uint64(digest, at: 8) % UInt64(holds.count))]
        return Pick(holdID: hold.id, backgroundID: background.id, milestone: nil)
    }
}
