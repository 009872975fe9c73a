/// What share statistics can be summed per, instead of per meetup, day and target.
public enum ShareStatisticGrouping: String, Sendable, CaseIterable {
    /// One row per club-zone day, over every meetup and target.
    case day
    /// One row per normalised target, over every meetup and day.
    case target
    /// One row per meetup, over every day and target.
    case meetup
}
