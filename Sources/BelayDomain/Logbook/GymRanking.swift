import Foundation

/// A gym's ranking: the members who opted in, by the sum of their hardest sends there over a
/// period (each problem counted once), ties going to who got there first.
public struct GymRanking: Sendable {
    public struct Entry: Sendable {
        public let rank: Int
        public let userID: Int64
        /// The sum of the counted sends' scores (the lowest score of each grade).
        public let points: Int
        /// The sends counted (at most `best`), hardest first.
        public let counted: [Tick]
        /// When the member's last counted send was climbed: ties go to the earlier.
        public let reachedAt: Date
    }

    public let gymID: Int64
    /// Sends counted per member.
    public let best: Int
    /// The first day counted (YYYY-MM-DD in the gym's zone).
    public let from: String
    public let entries: [Entry]

    /// Ranks `sends` (topped ticks of members who opted in): each member's `best` hardest, a
    /// problem counted once (its best style), a level or grade tick each on its own.
    static func make(gymID: Int64, sends: [Tick], best: Int, from: String) -> GymRanking {
        let byMember = Dictionary(grouping: sends, by: \.userID)
        var rows: [(userID: Int64, points: Int, counted: [Tick], reachedAt: Date)] = []
        for (userID, ticks) in byMember {
            var seenProblems = Set<Int64>()
            let hardestFirst = ticks.sorted { ($0.range.lowest, $1.climbedAt) > ($1.range.lowest, $0.climbedAt) }
            let counted = hardestFirst.filter { tick in
                guard let problem = tick.problemID else { return true }
                return seenProblems.insert(problem).inserted
            }.prefix(best)
            guard let reached = counted.map(\.climbedAt).max() else { continue }
            rows.append((userID, counted.reduce(0) { $0 + $1.range.lowest }, Array(counted), reached))
        }
        rows.sort { ($0.points, $1.reachedAt.timeIntervalSince1970, $1.userID) > ($1.points, $0.reachedAt.timeIntervalSince1970, $0.userID) }
        let entries = rows.enumerated().map { index, row in
            Entry(rank: index + 1, userID: row.userID, points: row.points, counted: row.counted, reachedAt: row.reachedAt)
        }
        return GymRanking(gymID: gymID, best: best, from: from, entries: entries)
    }
}
