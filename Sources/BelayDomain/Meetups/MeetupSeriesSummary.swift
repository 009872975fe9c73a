import Foundation

/// A recurring series as the hosts' list shows it: the first meetup's title and place, its
/// span, and how many of its meetups are still to come.
public struct MeetupSeriesSummary: Sendable, Hashable {
    /// The series' id: the id of its first meetup.
    public let seriesID: Int64
    public let title: String
    public let placeName: String
    public let timeZone: String
    public let firstStartsAt: Date
    public let lastStartsAt: Date
    /// Every meetup of the series, whatever its status.
    public let meetups: Int
    public let scheduled: Int
    public let cancelled: Int
    /// The start of the soonest scheduled meetup not yet started; nil when none is left.
    public let nextStartsAt: Date?

    public init(seriesID: Int64, title: String, placeName: String, timeZone: String, firstStartsAt: Date, lastStartsAt: Date,
                meetups: Int, scheduled: Int, cancelled: Int, nextStartsAt: Date?) {
        self.seriesID = seriesID
        self.title = title
        self.placeName = placeName
        self.timeZone = timeZone
        self.firstStartsAt = firstStartsAt
        self.lastStartsAt = lastStartsAt
        self.meetups = meetups
        self.scheduled = scheduled
        self.cancelled = cancelled
        self.nextStartsAt = nextStartsAt
    }
}
