import Foundation

/// What calendar feeds take from configuration.
public struct CalendarSettings: Sendable {
    /// Minutes before the start a reminder goes off; 0 for none.
    public var alarmMinutesBefore: Int
    /// The domain part of every event's `UID` (the host of `server.public_base_url`).
    public var uidDomain: String
    /// A link to the meetup put in `URL`, nil for none.
    public var meetupURL: (@Sendable (Int64) -> String)?

    public init(alarmMinutesBefore: Int, uidDomain: String, meetupURL: (@Sendable (Int64) -> String)? = nil) {
        self.alarmMinutesBefore = alarmMinutesBefore
        self.uidDomain = uidDomain
        self.meetupURL = meetupURL
    }
}
