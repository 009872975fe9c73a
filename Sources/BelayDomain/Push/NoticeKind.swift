/// A kind of notice Belay sends to members' phones, declared once with everything that
/// differs between kinds: its name in the API and the outbox, how soon it goes out, and whether
/// a member gets it without asking and may switch it off (`PUT /v1/me/notifications`). Its
/// words are BelayPush's (`NoticeWording`); the catalogue of kinds a club's Belay sends is
/// `NoticeKinds` (`PushPolicy.kinds`).
///
/// Two kinds are the same kind when their names are.
public struct NoticeKind: Sendable, Hashable, CustomStringConvertible {
    /// The name in the API, the outbox and the app's payload (`waitlist_offer`).
    public let rawValue: String
    /// How soon it goes out when many notices are due at once (the README's table says why each).
    public let priority: NoticePriority
    /// Whether a member who never chose gets it.
    public let isOnByDefault: Bool
    /// Whether a member may switch it (the API lists only these).
    public let isSwitchable: Bool

    public init(_ rawValue: String, priority: NoticePriority, onByDefault: Bool = true, switchable: Bool = true) {
        self.rawValue = rawValue
        self.priority = priority
        self.isOnByDefault = onByDefault
        self.isSwitchable = switchable
    }

    public var description: String { rawValue }

    public static func == (lhs: NoticeKind, rhs: NoticeKind) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

// Belay's kinds. The priorities: a member at the wall waiting to share, or with a claim window
// running out, goes first (high); a plan the member made that changed, or a moderator acting
// on them, next (normal); reminders, fan-outs to followers and the logbook's news keep for
// minutes (low).
extension NoticeKind {
    /// Moved from the waitlist to going.
    public static let waitlistPromoted = NoticeKind("waitlist_promoted", priority: .high)
    /// Offered a freed place, to claim before a time.
    public static let waitlistOffer = NoticeKind("waitlist_offer", priority: .high)
    /// The offer runs out in a few minutes.
    public static let waitlistOfferExpiring = NoticeKind("waitlist_offer_expiring", priority: .high)
    /// The offer ran out unclaimed.
    public static let waitlistOfferExpired = NoticeKind("waitlist_offer_expired", priority: .normal)
    /// A meetup the member is going to starts soon.
    public static let meetupReminder = NoticeKind("meetup_reminder", priority: .low)
    /// Check-in has opened.
    public static let checkInOpen = NoticeKind("check_in_open", priority: .normal)
    /// The meetup's time or place changed.
    public static let meetupChanged = NoticeKind("meetup_changed", priority: .normal)
    /// The meetup was cancelled.
    public static let meetupCancelled = NoticeKind("meetup_cancelled", priority: .normal)
    /// The member's sticker is ready to share.
    public static let rewardReady = NoticeKind("reward_ready", priority: .high)
    /// A new meetup at a gym or by a host the member follows (at most one a day per gym or
    /// host; later ones that day are told with the next).
    public static let newMeetup = NoticeKind("new_meetup", priority: .low)
    /// The member's hardest send yet on an axis (off until the member switches it on).
    public static let personalBest = NoticeKind("personal_best", priority: .low, onByDefault: false)
    /// A problem the member tried and has not sent comes down in a few days.
    public static let projectEnding = NoticeKind("project_ending", priority: .low)
    /// The club's moderators acted on something the member reported.
    public static let reportOutcome = NoticeKind("report_outcome", priority: .low)
    /// The club's moderators warned the member, suspended them or hid what they wrote, naming
    /// the rule and where to appeal: always sent, never switchable.
    public static let moderation = NoticeKind("moderation", priority: .normal, switchable: false)
    /// `belay push test`: always sent, never switchable; high, since someone is reading its answers.
    public static let test = NoticeKind("test", priority: .high, switchable: false)
}
