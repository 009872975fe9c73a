import Foundation

/// Everything the domain needs from configuration, as plain values. BelayComposition
/// fills it from `config.json` (`DomainSettings(configuration:)`); nothing here has a default,
/// so the domain runs on the club's settings or on none.
public struct DomainSettings: Sendable {
    public var checkIn: CheckInPolicy
    public var rewards: RewardPolicy
    public var renderJobs: RenderJobPolicy
    /// Webhook retries, disabling and which addresses may be called.
    public var webhooks: WebhookPolicy
    /// Instant promotion or offers with a claim window.
    public var waitlist: WaitlistPolicy
    /// The club's time zone: share statistics are grouped by day in it.
    public var clubTimeZone: TimeZone
    /// Sign-up, sessions and emailed codes.
    public var accounts: AccountPolicy
    /// Who may create meetups.
    public var meetupCreators: MeetupCreators
    /// Share events one member may record for one reward.
    public var maxShareEventsPerReward: Int
    /// Push notices: when reminders go out, what links say, how deliveries are retried.
    public var push: PushPolicy
    /// The story's climbing line and gym rankings.
    public var logbook = LogbookPolicy()
    /// Reports, the automatic hide and the club's terms.
    public var moderation: ModerationPolicy
    /// The club's blocked words, checked in titles, descriptions, names and handles; nil: none.
    public var contentScreen: (any ContentScreen)? = nil

    public init(checkIn: CheckInPolicy, rewards: RewardPolicy, renderJobs: RenderJobPolicy, clubTimeZone: TimeZone,
                webhooks: WebhookPolicy, waitlist: WaitlistPolicy, accounts: AccountPolicy, meetupCreators: MeetupCreators,
                maxShareEventsPerReward: Int, push: PushPolicy, moderation: ModerationPolicy = .standard) {
        self.moderation = moderation
        self.checkIn = checkIn
        self.rewards = rewards
        self.renderJobs = renderJobs
        self.clubTimeZone = clubTimeZone
        self.webhooks = webhooks
        self.waitlist = waitlist
        self.accounts = accounts
        self.meetupCreators = meetupCreators
        self.maxShareEventsPerReward = maxShareEventsPerReward
        self.push = push
    }

    /// Validates every policy.
    /// - Throws: the first policy's `DomainError`.
    public func validate() throws {
        try checkIn.validate()
        try rewards.validate()
        try renderJobs.validate()
        try webhooks.validate()
        try waitlist.validate()
        try accounts.validate()
        try push.validate()
        try moderation.validate()
    }
}
