import BelayCore
import Foundation

/// What a notice's words are made of, in the language of the device it goes to: names,
/// numbers and instants, never sentences. The writer stores them with the notice; BelayPush
/// words them when the notice is sent (`NoticeWording`), so the domain decides who is told
/// what, and the push module how it reads on each platform.
public struct NoticeFacts: Sendable, Hashable {
    /// The name of one fact. A kind declared outside Belay declares its own keys beside it.
    public struct Key: Sendable, Hashable {
        public let name: String
        public init(_ name: String) { self.name = name }
    }

    /// The facts as they are stored, by name.
    public private(set) var object: JSONObject

    public init(_ object: JSONObject = JSONObject()) {
        self.object = object
    }

    /// What a meetup notice says about its meetup: its title, its place, when it starts and
    /// the zone its times are told in.
    public init(meetupTitle: String, placeName: String, startsAt: Date, timeZone: String) {
        self.init()
        self[text: .meetupTitle] = meetupTitle
        self[text: .placeName] = placeName
        self[instant: .startsAt] = startsAt
        self[text: .timeZone] = timeZone
    }

    /// A fact that is text; nil when the notice has none.
    public subscript(text key: Key) -> String? {
        get { object[key.name]?.stringValue }
        set { object[key.name] = newValue.map(JSONValue.string) }
    }

    /// A fact that is a whole number.
    public subscript(number key: Key) -> Int? {
        get {
            guard case let .number(number)? = object[key.name], let value = number.int64Value else { return nil }
            return Int(value)
        }
        set { object[key.name] = newValue.map { .int(Int64($0)) } }
    }

    /// A fact that is an instant, stored to the millisecond.
    public subscript(instant key: Key) -> Date? {
        get {
            guard case let .number(number)? = object[key.name], let milliseconds = number.int64Value else { return nil }
            return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
        }
        set { object[key.name] = newValue.map { .int(Int64(($0.timeIntervalSince1970 * 1_000).rounded())) } }
    }

    /// The zone the notice's times are told in (`timeZone`); UTC when it has none.
    public var zone: TimeZone { self[text: .timeZone].flatMap(TimeZone.init(identifier:)) ?? .gmt }
}

/// The facts Belay's own kinds are worded from.
extension NoticeFacts.Key {
    public static let meetupTitle = Self("meetup_title")
    public static let placeName = Self("place_name")
    /// When the meetup starts.
    public static let startsAt = Self("starts_at")
    /// The IANA zone the meetup's times are told in.
    public static let timeZone = Self("time_zone")
    /// When a waitlist offer runs out.
    public static let offerEndsAt = Self("offer_ends_at")
    /// How many minutes before an offer runs out its warning goes.
    public static let warningMinutes = Self("warning_minutes")
    /// The name of the hold a reward is of, in the device's language.
    public static let holdName = Self("hold_name")
    /// Places left at a new meetup.
    public static let placesLeft = Self("places_left")
    /// How many new meetups were folded into this notice since the member's last one.
    public static let folded = Self("folded")
    /// A grade as the member reads it (`V5`, `6c+`).
    public static let grade = Self("grade")
    /// A gym's name in the device's language.
    public static let gymName = Self("gym_name")
    /// A problem's name, or its wall, colour and grade.
    public static let problem = Self("problem")
    /// The day a problem comes down (`2026-12-12`).
    public static let removalDay = Self("removal_day")
    /// What the moderators did (`ModerationActionKind`'s raw value).
    public static let action = Self("action")
    /// The rule a moderator named.
    public static let rule = Self("rule")
    /// Where a member appeals a moderator's decision.
    public static let appealAddress = Self("appeal_address")
}
