/// Share counts for one meetup, day and target, or summed over whichever of them a
/// `ShareStatisticGrouping` leaves out (those are nil).
public struct ShareStatisticGroup: Sendable, Hashable {
    /// The meetup, unless summed over meetups.
    public var meetupID: Int64?
    /// The meetup's title, with `meetupID`.
    public var meetupTitle: String?
    /// `yyyy-MM-dd` in the club's time zone.
    public var day: String?
    /// The normalised target, unless summed over targets.
    public var target: ShareTarget?
    /// All events, and those completed, failed (an error) and dismissed (neither).
    public var events = 0
    public var completed = 0
    public var failed = 0
    public var dismissed = 0

    /// One statistic as it is, nothing summed.
    public init(_ statistic: ShareStatistic) {
        self.init(statistic, keeping: nil)
        add(statistic)
    }

    private init(_ statistic: ShareStatistic, keeping grouping: ShareStatisticGrouping?) {
        if grouping == nil || grouping == .meetup { meetupID = statistic.meetupID; meetupTitle = statistic.meetupTitle }
        if grouping == nil || grouping == .day { day = statistic.day }
        if grouping == nil || grouping == .target { target = statistic.target }
    }

    private mutating func add(_ statistic: ShareStatistic) {
        events += statistic.events
        completed += statistic.completed
        failed += statistic.failed
        dismissed += statistic.dismissed
    }

    /// `statistics` summed per `grouping` (nil: one group per statistic), ordered by meetup,
    /// day and target.
    public static func groups(_ statistics: [ShareStatistic], by grouping: ShareStatisticGrouping?) -> [ShareStatisticGroup] {
        guard let grouping else { return statistics.map(ShareStatisticGroup.init) }
        var groups: [ShareStatisticGroup] = []
        var positions: [ShareStatisticGroup: Int] = [:]
        for statistic in statistics {
            let key = ShareStatisticGroup(statistic, keeping: grouping)
            if let position = positions[key] {
                groups[position].add(statistic)
            } else {
                positions[key] = groups.count
                var group = key
                group.add(statistic)
                groups.append(group)
            }
        }
        return groups.sorted { ($0.meetupID ?? 0, $0.day ?? "", $0.target?.rawValue ?? "") < ($1.meetupID ?? 0, $1.day ?? "", $1.target?.rawValue ?? "") }
    }
}
