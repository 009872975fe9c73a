import Foundation

/// A meetup a member was checked in to, with its check-in window: a tick climbed inside the
/// window belongs to it.
struct CheckedInMeetup: Sendable {
    let id: Int64
    let timeZone: String
    let opensAt: Date
    let closesAt: Date

    /// The latest-starting of `meetups` whose window holds `instant`.
    static func holding(_ instant: Date, in meetups: [CheckedInMeetup]) -> CheckedInMeetup? {
        meetups.first { $0.opensAt <= instant && instant <= $0.closesAt }
    }
}
