/// The kinds of notice Belay sends to members' phones. Each is on unless the member switches
/// it off (`PUT /v1/me/notifications`); the raw values are part of the API.
public enum NoticeKind: String, Sendable, CaseIterable, Codable {
    /// Moved from the waitlist to going.
    case waitlistPromoted = "waitlist_promoted"
    /// Offered a freed place, to claim before a time.
    case waitlistOffer = "waitlist_offer"
    /// The offer runs out in a few minutes.
    case waitlistOfferExpiring = "waitlist_offer_expiring"
    /// The offer ran out unclaimed.
    case waitlistOfferExpired = "waitlist_offer_expired"
    /// A meetup the member is going to starts soon.
    case meetupReminder = "meetup_reminder"
    /// Check-in has opened.
    case checkInOpen = "check_in_open"
    /// The meetup's time or place changed.
    case meetupChanged = "meetup_changed"
    /// The meetup was cancelled.
    case meetupCancelled = "meetup_cancelled"
    /// The member's sticker is ready to share.
    case rewardReady = "reward_ready"
    /// A new meetup at a gym or by a host the member follows (at most one a day per gym or
    /// host; later ones that day are told with the next).
    case newMeetup = "new_meetup"
    /// The member's hardest send yet on an axis (off until the member switches it on).
    case personalBest = "personal_best"
    /// A problem the member tried and has not sent comes down in a few days.
    case projectEnding = "project_ending"
    /// The club's moderators acted on something the member reported.
    case reportOutcome = "report_outcome"
    /// The club's moderators warned the member, suspended them or hid what they wrote, naming
    /// the rule and where to appeal: always sent, never switchable.
    case moderation = "moderation"
    /// `belay push test`: always sent, never switchable.
    case test = "test"

    /// The kinds a member can switch, in the order the API lists them.
    public static let switchable: [NoticeKind] = allCases.filter { $0 != .test && $0 != .moderation }

    /// Whether a member who never chose gets this kind: every kind but a personal best, which
    /// a member asks for.
    public var isOnByDefault: Bool { self != .personalBest }

    /// How soon it goes out when many notices are due at once (the README's table says why each).
    public var priority: NoticePriority {
        switch self {
        // The member is at the wall waiting to share, or has a claim window running out.
        case .rewardReady, .waitlistOffer, .waitlistOfferExpiring, .waitlistPromoted: .high
        // Someone ran `belay push test` and is reading its answers.
        case .test: .high
        // A plan the member made changed: the meetup moved, was cancelled, opened check-in, or
        // the place they were offered went to someone else; a moderator acted on them.
        case .meetupChanged, .meetupCancelled, .checkInOpen, .waitlistOfferExpired, .moderation: .normal
        // Reminders (hours ahead), fan-outs to followers and the logbook's news keep for minutes.
        case .meetupReminder, .newMeetup, .personalBest, .projectEnding, .reportOutcome: .low
        }
    }
}
