import Foundation

/// How far a member has come: holds collected out of the catalogue (overall and per
/// rarity), the next milestone, and the weekly streak.
public struct MemberProgress: Sendable, Hashable {
    /// Collected and total holds of one rarity.
    public struct RarityCount: Sendable, Hashable {
        public let rarity: HoldRarity
        /// Distinct catalogue holds of this rarity the member has (revoked rewards not counted).
        public let collected: Int
        /// Holds of this rarity in the catalogue (retired ones left out).
        public let total: Int
    }

    /// The next check-in count that earns a special hold.
    public struct NextMilestone: Sendable, Hashable {
        /// The Nth check-in.
        public let checkIn: Int
        public let holdID: String
        /// Check-ins still to go.
        public let remaining: Int
    }

    public let checkIns: Int
    public let collected: Int
    public let total: Int
    /// Every rarity of the catalogue, commonest first.
    public let byRarity: [RarityCount]
    /// Nil when every milestone is reached.
    public let nextMilestone: NextMilestone?
    public let streak: WeeklyStreak
}

/// Weeks in a row (Monday to Sunday, in the club's zone) with at least one check-in, as
/// Strava counts them: the week in progress keeps the streak alive until it ends without one.
public struct WeeklyStreak: Sendable, Hashable {
    /// The streak now: weeks in a row up to this week, or up to last week while this week has
    /// no check-in yet; 0 when neither has one.
    public let current: Int
    /// The longest run of weeks ever.
    public let longest: Int
    /// Whether this week already has a check-in (so the current streak includes it).
    public let thisWeekDone: Bool

    public init(current: Int, longest: Int, thisWeekDone: Bool) {
        self.current = current
        self.longest = longest
        self.thisWeekDone = thisWeekDone
    }

    /// The streak of check-ins at `instants`, seen at `now` in `zone`.
    public static func of(_ instants: [Date], now: Date, zone: TimeZone) -> WeeklyStreak {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        // Weeks as whole numbers: the day number of the week's Monday, divided by 7.
        func week(_ date: Date) -> Int {
            let start = calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? date
            let c = calendar.dateComponents([.year, .month, .day], from: start)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0) ?? .gmt
            let midnight = utc.date(from: DateComponents(year: c.year, month: c.month, day: c.day)) ?? start
            return Int((midnight.timeIntervalSince1970 / 86_400).rounded()) / 7
        }
        let weeks = Set(instants.map(week))
        let thisWeek = week(now)
        var longest = 0, run = 0, previous: Int?
        for value in weeks.sorted() {
            run = previous.map { value == $0 + 1 ? run + 1 : 1 } ?? 1
            longest = max(longest, run)
            previous = value
        }
        let done = weeks.contains(thisWeek)
        var cursor = done ? thisWeek : thisWeek - 1
        var current = 0
        while weeks.contains(cursor) {
            current += 1
            cursor -= 1
        }
        return WeeklyStreak(current: current, longest: longest, thisWeekDone: done)
    }
}
