import Foundation

/// A recurring series as the hosts' list shows it: the first meetup's title and place, its
/// span, and how many of its meetups are still to come.
public struct MeetupSeriesSummary: Sendable, Hashable {
    /// The series' id: the id of its first meetup.
    public let seriesID: Int64
    /// The first meetup's title (a later one may have been changed alone).
    public let title: String
    /// The first meetup's place.
    public let placeName: String
    /// The first meetup's IANA zone, in which its weekday and time are read.
    public let timeZone: String
    /// The start of the series' first meetup.
    public let firstStartsAt: Date
    /// The start of its last meetup.
    public let lastStartsAt: Date
    /// Every meetup of the series, whatever its status.
    public let meetups: Int
    /// Its meetups still scheduled (started or not).
    public let scheduled: Int
    /// Its cancelled meetups.
    public let cancelled: Int
    /// The start of the soonest scheduled meetup not yet started; nil when none is left.
    public let nextStartsAt: Date?

    /// A summary as the repository reads it.
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
