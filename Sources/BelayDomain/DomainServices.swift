import BelayCore
import BelayStorage
import Foundation

/// Every domain service over one database, sharing one clock and one set of settings.
///
/// Build it once at start-up (the server, the CLI, the pipeline) and hand the services to
/// the code that needs them. All services are thread-safe.
public struct DomainServices: Sendable {
    public let pool: any DatabaseStore
    public let clock: any TimeSource
    public let settings: DomainSettings
    public let users: UserService
    public let meetups: MeetupService
    public let attendance: AttendanceService
    public let checkIns: CheckInService
    public let catalog: CatalogService
    public let rewards: RewardService
    public let renderJobs: RenderJobQueue
    public let shares: ShareService
    /// Public pages of shared rewards.
    public let sharePages: SharePageService
    /// Named leases (one backfill at a time across processes).
    public let leases: LeaseService
    /// The backfill's scoped queries and queueing.
    public let backfill: BackfillService
    /// Webhook endpoints and the delivery queue.
    public let webhooks: WebhookService
    /// Calendar feed tokens and the meetups feeds show.
    public let calendar: CalendarService
    /// Members' collection progress and weekly streaks.
    public let progress: ProgressService
    /// Signing in, sessions, profiles and leaving.
    public let accounts: AccountService
    /// Invite codes for sign-up by invite.
    public let invites: InviteService
    /// Console sign-ins' second factor (TOTP and recovery codes).
    public let secondFactors: SecondFactorService
    /// Members' devices, their choices of notices, and the push notice outbox.
    public let push: PushService
    /// Front-desk kiosk links showing a meetup's check-in code.
    public let kiosks: KioskService
    /// Gyms, their colour circuits and managers.
    public let gyms: GymService
    /// The problems on gyms' walls.
    public let problems: ProblemService
    /// What members climbed: ticks, logbooks and summaries.
    public let logbook: LogbookService
    /// Blocks, host bans and the club's terms.
    public let safety: SafetyService
    /// Members' reports.
    public let reports: ReportService
    /// The moderators' queue, actions and log.
    public let moderation: ModerationService

    /// - Parameter webhookPayloads: writes the `data` of webhook events (the API's
    ///   representations); the default writes ids only.
    /// - Throws: `DomainError` (`invalid_input`) when a setting is impossible.
    public init(pool: any DatabaseStore, clock: any TimeSource = SystemTimeSource(), settings: DomainSettings,
                webhookPayloads: any WebhookPayloadEncoding = WebhookIdentifiersEncoding()) throws {
        try settings.validate()
        let notices = PushNoticeWriter(policy: settings.push)
        let emitter = WebhookEmitter(encoder: webhookPayloads)
        // The one place changes' subscribers are registered: webhooks and notices, beside each other.
        let changes = ChangeFeed(subscribers: [emitter, notices])
        let waitlist = WaitlistRules(policy: settings.waitlist, events: changes)
        self.pool = pool
        self.clock = clock
        self.settings = settings
        let awarder = RewardAwarder(policy: settings.rewards, clubTimeZone: settings.clubTimeZone)
        users = UserService(pool: pool, clock: clock)
        meetups = MeetupService(pool: pool, clock: clock, checkInPolicy: settings.checkIn, events: changes, waitlist: waitlist,
                                creators: settings.meetupCreators, clubTimeZone: settings.clubTimeZone, screen: settings.contentScreen,
                                newMemberDays: settings.moderation.newMemberDays)
        attendance = AttendanceService(pool: pool, clock: clock, events: changes, waitlist: waitlist)
        checkIns = CheckInService(pool: pool, clock: clock, checkInPolicy: settings.checkIn, awarder: awarder, events: changes)
        catalog = CatalogService(pool: pool, clock: clock)
        rewards = RewardService(pool: pool, clock: clock, awarder: awarder)
        renderJobs = RenderJobQueue(pool: pool, clock: clock, policy: settings.renderJobs, events: changes)
        shares = ShareService(pool: pool, clock: clock, clubTimeZone: settings.clubTimeZone, maxEventsPerReward: settings.maxShareEventsPerReward)
        sharePages = SharePageService(pool: pool, clock: clock)
        leases = LeaseService(pool: pool, clock: clock)
        backfill = BackfillService(pool: pool, clock: clock, queue: renderJobs)
        webhooks = WebhookService(pool: pool, clock: clock, policy: settings.webhooks, emitter: emitter)
        calendar = CalendarService(pool: pool, clock: clock)
        accounts = AccountService(pool: pool, clock: clock, policy: settings.accounts, events: changes, screen: settings.contentScreen)
        invites = InviteService(pool: pool, clock: clock)
        secondFactors = SecondFactorService(pool: pool, clock: clock, policy: settings.accounts)
        push = PushService(pool: pool, clock: clock, writer: notices, checkInPolicy: settings.checkIn, logbook: settings.logbook)
        kiosks = KioskService(pool: pool, clock: clock, checkInPolicy: settings.checkIn)
        gyms = GymService(pool: pool, clock: clock)
        problems = ProblemService(pool: pool, clock: clock)
        logbook = LogbookService(pool: pool, clock: clock, checkInPolicy: settings.checkIn, clubTimeZone: settings.clubTimeZone,
                                 policy: settings.logbook, events: changes)
        safety = SafetyService(pool: pool, clock: clock, policy: settings.moderation)
        reports = ReportService(pool: pool, clock: clock, policy: settings.moderation, events: changes)
        moderation = ModerationService(pool: pool, clock: clock, policy: settings.moderation, events: changes)
        progress = ProgressService(pool: pool, clock: clock, milestones: settings.rewards.milestones,
                                   streakMilestones: settings.rewards.streakMilestones, clubTimeZone: settings.clubTimeZone)
    }
}
