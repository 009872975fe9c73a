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
    /// The shortest streak milestone longer than the member's longest streak; nil when there
    /// is none left (or none configured).
    public let nextStreakMilestone: NextStreakMilestone?

    /// The next streak length that earns a special hold.
    public struct NextStreakMilestone: Sendable, Hashable {
        /// Weeks in a row.
        public let weeks: Int
        public let holdID: String
        /// Weeks still to go from the current streak.
        public let remaining: Int
    }
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
        let weeks = ClubWeeks(zone: zone)
        let numbers = Set(instants.map(weeks.number))
        let thisWeek = weeks.number(of: now)
        let done = numbers.contains(thisWeek)
        return WeeklyStreak(current: ClubWeeks.run(endingAt: done ? thisWeek : thisWeek - 1, in: numbers),
                            longest: ClubWeeks.longestRun(in: numbers), thisWeekDone: done)
    }

    /// The streak lengths a check-in at `instant` reaches for the first time, given the
    /// member's check-ins `before` it: every N with the longest run before it shorter than N and
    /// the run ending in its week (counting it) at least N. Reward rules use the largest; a
    /// backfill replaying the same history finds the same.
    static func lengthsReached(by instant: Date, before: [Date], zone: TimeZone) -> ClosedRange<Int>? {
        let weeks = ClubWeeks(zone: zone)
        var numbers = Set(before.map(weeks.number))
        let longestBefore = ClubWeeks.longestRun(in: numbers)
        let week = weeks.number(of: instant)
        numbers.insert(week)
        let runNow = ClubWeeks.run(endingAt: week, in: numbers)
        return runNow > longestBefore ? (longestBefore + 1)...runNow : nil
    }
}

/// Weeks (Monday to Sunday in a zone) as whole numbers, so that consecutive weeks differ by one.
struct ClubWeeks {
    private var calendar: Calendar
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .gmt
        return calendar
    }()

    init(zone: TimeZone) {
        calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
    }

    /// The day number of the week's Monday (in the zone), divided by 7.
    func number(of date: Date) -> Int {
        let start = calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? date
        let c = calendar.dateComponents([.year, .month, .day], from: start)
        let midnight = Self.utc.date(from: DateComponents(year: c.year, month: c.month, day: c.day)) ?? start
        return Int((midnight.timeIntervalSince1970 / 86_400).rounded()) / 7
    }

    /// How many weeks in a row of `weeks` end at `week` (0 when `week` is not among them).
    static func run(endingAt week: Int, in weeks: Set<Int>) -> Int {
        var cursor = week, count = 0
        while weeks.contains(cursor) {
            count += 1
            cursor -= 1
        }
        return count
    }

    /// The longest run of consecutive weeks.
    static func longestRun(in weeks: Set<Int>) -> Int {
        var longest = 0, run = 0, previous: Int?
        for value in weeks.sorted() {
            run = previous.map { value == $0 + 1 ? run + 1 : 1 } ?? 1
            longest = max(longest, run)
            previous = value
        }
        return longest
    }
}
