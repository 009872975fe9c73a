import BelayDomain

extension Reward {
    /// Why the reward is this hold, for tables: `milestone #10`, `streak of 4 weeks`, or the
    /// rarity of an ordinary weighted pick.
    var kindLabel: String {
        if let milestone { return "milestone #\(milestone)" }
        if let streakMilestone { return streakMilestone == 1 ? "streak of 1 week" : "streak of \(streakMilestone) weeks" }
        return hold.rarity.rawValue
    }
}
