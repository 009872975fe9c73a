import Foundation

/// What a member's calendar feed shows, named without reading its meetups: for each meetup,
/// its id, its `SEQUENCE`, when its row last changed (every change of a meetup's fields moves
/// `updated_at`) and the member's attendance status. Two reads with equal versions give the
/// same feed under the same settings, so a digest of `canonicalText` can be the feed's ETag,
/// decided before the feed is built.
public struct CalendarFeedVersion: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public let meetupID: Int64
        public let sequence: Int
        public let updatedAt: Date
        public let attendanceStatus: AttendanceStatus?

        public init(meetupID: Int64, sequence: Int, updatedAt: Date, attendanceStatus: AttendanceStatus?) {
            self.meetupID = meetupID
            self.sequence = sequence
            self.updatedAt = updatedAt
            self.attendanceStatus = attendanceStatus
        }
    }

    /// The feed's meetups in the order it shows them.
    public let items: [Item]

    public init(items: [Item]) {
        self.items = items
    }

    /// The version of a feed already read.
    public init(entries: [CalendarEntry]) {
        items = entries.map {
            Item(meetupID: $0.meetup.id, sequence: $0.sequence, updatedAt: $0.meetup.updatedAt, attendanceStatus: $0.attendanceStatus)
        }
    }

    /// One line per meetup (`id sequence updated-at status`), for digests.
    public var canonicalText: String {
        var text = ""
        text.reserveCapacity(items.count * 40)
        for item in items {
            text += "\(item.meetupID) \(item.sequence) \(item.updatedAt.timeIntervalSince1970.bitPattern) \(item.attendanceStatus?.rawValue ?? "-")\n"
        }
        return text
    }
}
