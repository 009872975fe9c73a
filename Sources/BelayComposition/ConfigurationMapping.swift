import BelayAPI
import BelayCore
import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRender
import BelayRepresentations
import BelaySQLite
import BelayStorage
import BelayPush
import BelayText
import BelayWebhooks
import Foundation

extension DomainSettings {
    /// The domain's policies from `config.json`.
    /// - Throws: `ApplicationError` naming the key when a value passes the file's rules but
    ///   not the domain's (a rarity the catalogue does not have).
    public init(configuration: BelayConfiguration) throws {
        var weights: [HoldRarity: Int] = [:]
        for (name, weight) in configuration.rewards.rarityWeights {
            guard let rarity = HoldRarity(rawValue: name) else {
                let known = HoldRarity.allCases.map(\.rawValue).joined(separator: ", ")
                throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): rewards.rarity_weights.\(name)",
                                                       message: "not a rarity of the hold catalogue (\(known))"))
            }
            weights[rarity] = weight
        }
        let signUp: SignUpMode = try Self.choice(configuration.accounts.signUp, key: "accounts.sign_up", configuration)
        let meetupCreators: MeetupCreators = try Self.choice(configuration.meetups.createdBy, key: "meetups.created_by", configuration)
        self.init(
            checkIn: CheckInPolicy(opensMinutesBeforeStart: configuration.checkIn.opensMinutesBeforeStart,
                                   closesMinutesAfterEnd: configuration.checkIn.closesMinutesAfterEnd,
                                   codeStepSeconds: configuration.checkIn.codeStepSeconds,
                                   maxWrongAttempts: configuration.checkIn.maxWrongAttempts),
            rewards: RewardPolicy(milestones: configuration.rewards.milestones, rarityWeights: weights,
                                  streakMilestones: configuration.rewards.streakMilestones),
            renderJobs: RenderJobPolicy(maxAttempts: configuration.render.maxAttempts,
                                        retryBaseSeconds: configuration.render.retryBaseSeconds,
                                        leaseSeconds: configuration.backfill.leaseSeconds),
            clubTimeZone: configuration.club.zone,
            webhooks: WebhookPolicy(configuration: configuration),
            waitlist: WaitlistPolicy(claimMinutes: configuration.waitlist.claimMinutes, cutoffMinutes: configuration.waitlist.cutoffMinutes),
            accounts: AccountPolicy(
                signUp: signUp,
                accessTokenLifetime: TimeInterval(configuration.accounts.accessTokenMinutes * 60),
                refreshTokenIdleLifetime: TimeInterval(configuration.accounts.refreshTokenDays * 86_400),
                emailCodeLifetime: TimeInterval(configuration.accounts.emailCodeMinutes * 60),
                maxWrongEmailCodes: configuration.accounts.maxWrongEmailCodes,
                recentSignInWindow: TimeInterval(configuration.accounts.recentSignInMinutes * 60),
                defaultLocale: MemberLocale(identifier: configuration.club.locale) ?? .en,
                adminSecondFactor: AdminSecondFactorRule(rawValue: configuration.console.adminSecondFactor.rawValue) ?? .optional),
            meetupCreators: meetupCreators,
            maxShareEventsPerReward: configuration.share.maxEventsPerReward,
            push: PushPolicy(reminderMinutesBefore: configuration.push.reminderMinutesBefore,
                             offerWarningMinutes: configuration.push.offerWarningMinutes,
                             publicBaseURL: configuration.server.publicBaseURL,
                             defaultLocale: MemberLocale(identifier: configuration.club.locale) ?? .en,
                             retentionDays: configuration.push.retentionDays),
            moderation: ModerationPolicy(autoHideReports: configuration.moderation.autoHideReports,
                                         autoHideWindow: TimeInterval(configuration.moderation.autoHideWindowHours * 3_600),
                                         reportsPerMemberPerDay: configuration.moderation.reportsPerMemberPerDay,
                                         termsVersion: configuration.accounts.termsVersion, termsURL: configuration.accounts.termsURL)
        )
        logbook = LogbookPolicy(storyRefreshSeconds: configuration.logbook.storyRefreshSeconds, rankingBest: configuration.logbook.rankingBest,
                                rankingDays: configuration.logbook.rankingDays, projectEndingDays: configuration.logbook.projectEndingDays)
        moderation.appealAddress = configuration.club.contactEmail.isEmpty ? nil : configuration.club.contactEmail
        moderation.newMemberDays = configuration.moderation.newMemberDays
        moderation.defaultLocale = MemberLocale(identifier: configuration.club.locale) ?? .en
        let push = configuration.push
        self.push.holdNames = (try? LocalizedHoldNames(assetsDirectory: configuration.assetsDirectory)) ?? LocalizedHoldNames()
        self.push.platforms = Set((push.apns.isConfigured ? [DevicePlatform.ios] : []) + (push.fcm.isConfigured ? [.android] : []))
        let blockedTerms = configuration.moderation.blockedTermsFile
        if !blockedTerms.isEmpty {
            do {
                contentScreen = try BlockedTerms(contentsOfFile: blockedTerms)
            } catch {
                throw ApplicationError(.invalidSetting(key: "moderation.blocked_terms_file",
                                                       message: "\(blockedTerms) could not be read as UTF-8 words, one per line: \(error)"))
            }
        }
    }
}

extension CheckInRetention {
    /// Pruning of check-in idempotency keys and wrong-code counters after
    /// `check_in.retention_days`.
    /// - Throws: `ApplicationError` naming the key when the value cannot work.
    public convenience init(configuration: BelayConfiguration, pool: any DatabaseStore, clock: any TimeSource) throws {
        do {
            try self.init(pool: pool, clock: clock, retentionDays: configuration.checkIn.retentionDays)
        } catch let error as DomainError {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): check_in.retention_days",
                                                   message: error.message))
        }
    }
}

extension WebhookRetention {
    /// Pruning of finished webhook deliveries and their events after `webhooks.retention_days`.
    /// - Throws: `ApplicationError` naming the key when the value cannot work.
    public convenience init(configuration: BelayConfiguration, pool: any DatabaseStore, clock: any TimeSource) throws {
        do {
            try self.init(pool: pool, clock: clock, retentionDays: configuration.webhooks.retentionDays)
        } catch let error as DomainError {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): webhooks.retention_days",
                                                   message: error.message))
        }
    }
}

extension ShareEventRetention {
    /// Counting share events into daily totals and pruning them after
    /// `share.events_retention_days`, days named in `club.time_zone`.
    /// - Throws: `ApplicationError` naming the key when the value cannot work.
    public convenience init(configuration: BelayConfiguration, pool: any DatabaseStore, clock: any TimeSource) throws {
        do {
            try self.init(pool: pool, clock: clock, clubTimeZone: configuration.club.zone,
                          retentionDays: configuration.share.eventsRetentionDays)
        } catch let error as DomainError {
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): share.events_retention_days",
                                                   message: error.message))
        }
    }
}

extension WebhookPolicy {
    /// Webhook retries and address rules from `config.json`'s `webhooks` section. An attempt
    /// holds its delivery for the request timeout and half a minute more.
    public init(configuration: BelayConfiguration) {
        let webhooks = configuration.webhooks
        self.init(maxAttempts: webhooks.maxAttempts, retryBaseSeconds: webhooks.retryBaseSeconds,
                  disableAfterSeconds: webhooks.disableAfterHours * 3600, leaseSeconds: webhooks.timeoutSeconds + 30,
                  attemptSeconds: webhooks.timeoutSeconds, allowPrivateAddresses: webhooks.allowPrivateAddresses)
    }
}

extension ServerSettings {
    /// The HTTP listener from `config.json`'s `server` section.
    public init(configuration: BelayConfiguration) {
        let server = configuration.server
        self.init(host: server.host, port: server.port, threads: server.threads,
                  connectionTimeoutSeconds: server.connectionTimeoutSeconds, headerTimeoutSeconds: server.headerTimeoutSeconds,
                  maxConnections: server.maxConnections,
                  maxConnectionsPerIP: server.maxConnectionsPerIP, maxBodyBytes: server.maxBodyBytes)
    }
}

extension Presentation {
    /// Links, names and App IDs from `config.json` (`server.public_base_url`, `club`, `share`).
    public init(configuration: BelayConfiguration) {
        self.init(clubZone: configuration.club.zone, clubName: configuration.club.name, clubLocale: configuration.club.locale,
                  publicBaseURL: PublicBaseURL(configuration.server.publicBaseURL),
                  shareLinkBaseURL: configuration.club.shareLinkBaseURL, instagramAppID: configuration.share.instagramAppID,
                  facebookAppID: configuration.share.facebookAppID,
                  storyFileExtension: configuration.render.storyFormat == .jpeg ? "jpg" : "png")
        fontCoverage = try? FontCoverage(fonts: FontSettings(configuration: configuration))
        if configuration.share.storiesBackground == .image {
            storyBackgrounds = StoryBackgrounds(
                dataDirectory: configuration.dataDirectory, width: configuration.share.storiesBackgroundWidth,
                height: configuration.share.storiesBackgroundHeight)
        }
    }
}

extension DatabaseConfiguration {
    /// The SQLite settings from `config.json` (`database_durability`); the rest keep their defaults.
    public init(configuration: BelayConfiguration) {
        self.init(durability: configuration.databaseDurability == .normal ? .normal : .full)
    }
}

extension SharePageSettings {
    /// The club's name, locale and apps from `config.json` (`club`, `app_links`).
    public init(configuration: BelayConfiguration) {
        let links = configuration.appLinks
        self.init(clubName: configuration.club.name, clubLocale: configuration.club.locale, iosAppIDs: links.iosAppIDs,
                  androidPackage: links.androidPackage, androidSHA256Fingerprints: links.androidSHA256Fingerprints,
                  appStoreURL: links.appStoreURL, playStoreURL: links.playStoreURL)
    }
}

extension WebhookDeliveryWorker {
    /// The webhook workers of this process from `config.json`'s `webhooks` section: libcurl
    /// with the configured timeout and address rule, lease owners named `host:pid:webhook-N`,
    /// threads at background priority (like the render workers: requests first).
    public static func make(configuration: BelayConfiguration, domain: DomainServices,
                            log: @escaping @Sendable (String) -> Void) -> WebhookDeliveryWorker {
        let webhooks = configuration.webhooks
        let identity = WorkerIdentity.current
        return WebhookDeliveryWorker(
            service: domain.webhooks,
            transport: CurlWebhookTransport(timeoutSeconds: webhooks.timeoutSeconds, allowPrivateAddresses: webhooks.allowPrivateAddresses),
            clock: domain.clock, threads: webhooks.workers, ownerPrefix: "\(identity.host):\(identity.pid)",
            pollSeconds: Double(webhooks.pollMilliseconds) / 1000,
            isGone: { owner in WorkerIdentity.parse(owner: owner).map(identity.knowsIsGone) ?? false },
            lowPriority: true, log: log)
    }
}

extension PushDeliveryWorker {
    /// The push notice worker of this process from `config.json`'s `push` section, or nil when
    /// neither APNs nor FCM is configured (then no notice is ever queued).
    /// - Throws: `ApplicationError` naming the setting when a key file cannot be used.
    public static func make(configuration: BelayConfiguration, domain: DomainServices, registry: MetricsRegistry,
                            log: @escaping @Sendable (String) -> Void,
                            alarm: (@Sendable (String) -> Void)? = nil) throws -> PushDeliveryWorker? {
        let push = configuration.push
        let unworded = NoticeWording.belay.unworded(domain.push.policy.kinds)
        // A kind declared without words is a programmer's error: stop before any notice goes out blank.
        precondition(unworded.isEmpty, "notice kinds without words in NoticeWording: \(unworded.map(\.rawValue).joined(separator: ", "))")
        var gateways: [DevicePlatform: any PushGateway] = [:]
        if push.apns.isConfigured {
            do {
                gateways[.ios] = try APNsClient(settings: APNsSettings(keyFile: push.apns.keyFile, keyID: push.apns.keyID, teamID: push.apns.teamID,
                                                                       url: push.apns.url, sandboxURL: push.apns.sandboxURL, caFile: push.caFile),
                                                clock: domain.clock)
            } catch {
                throw ApplicationError(.invalidSetting(key: "push.apns.key_file", message: "\(error)"))
            }
        }
        if push.fcm.isConfigured {
            do {
                gateways[.android] = try FCMClient(settings: FCMSettings(serviceAccountFile: push.fcm.serviceAccountFile, url: push.fcm.url,
                                                                         caFile: push.caFile), clock: domain.clock)
            } catch {
                throw ApplicationError(.invalidSetting(key: "push.fcm.service_account_file", message: "\(error)"))
            }
        }
        guard !gateways.isEmpty else { return nil }
        let identity = WorkerIdentity.current
        return PushDeliveryWorker(service: domain.push, gateways: gateways, clock: domain.clock, owner: "\(identity.host):\(identity.pid):push",
                                  metrics: PushMetrics(registry: registry), log: log, alarm: alarm)
    }
}

extension CalendarSettings {
    /// Calendar feeds from `config.json`: the reminder from `calendar.alarm_minutes_before`, event
    /// `UID`s in the domain of `server.public_base_url`.
    public init(configuration: BelayConfiguration) {
        let host = URLComponents(string: configuration.server.publicBaseURL)?.host ?? "belay.local"
        self.init(alarmMinutesBefore: configuration.calendar.alarmMinutesBefore, uidDomain: host)
    }
}

extension BadgeSettings {
    /// The issuer from `config.json`: `server.public_base_url`, `club.name`, keys in
    /// `rewards.badge_keys_directory` (which must hold them) or else made under `data_directory`.
    public init(configuration: BelayConfiguration) {
        let shared = configuration.rewards.badgeKeysDirectory
        self.init(publicBaseURL: configuration.server.publicBaseURL, clubName: configuration.club.name,
                  keysDirectory: shared.isEmpty
                      ? URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true).appendingPathComponent("badge-keys", isDirectory: true)
                      : URL(fileURLWithPath: shared, isDirectory: true),
                  makesKeys: shared.isEmpty)
    }
}

extension StoryFormat {
    /// The story's encoding from `render.story_format` and `render.jpeg_quality`; `format`
    /// and `quality` replace them when given (`belay render story --format --quality`).
    public init(configuration: BelayConfiguration, format: BelayConfiguration.StoryFormat? = nil, quality: Int? = nil) {
        switch format ?? configuration.render.storyFormat {
        case .png: self = .png
        case .jpeg: self = .jpeg(quality: quality ?? configuration.render.jpegQuality)
        }
    }
}

extension RenderPipelineSettings {
    /// The pipeline's settings from `config.json`.
    public init(configuration: BelayConfiguration) {
        let story: StoryImageFormat = switch StoryFormat(configuration: configuration) {
        case .png: .png
        case .jpeg(let quality): .jpeg(quality: quality)
        }
        self.init(dataDirectory: configuration.dataDirectory, assetsDirectory: configuration.assetsDirectory,
                  clubLocale: configuration.club.locale, clubName: configuration.club.name, clubLogoPath: configuration.club.logo,
                  achievementLine: configuration.render.achievementLine, storyFormat: story, workers: max(configuration.render.workers, 1))
        // The catalogue's names are optional: without a readable catalogue, holds keep their names.
        holdNames = (try? LocalizedHoldNames(assetsDirectory: configuration.assetsDirectory)) ?? LocalizedHoldNames()
    }
}

extension FontSettings {
    /// The fallback chain from `config.json`'s `fonts` section.
    public init(configuration: BelayConfiguration) {
        let fonts = configuration.fonts
        self.init(bold: fonts.bold, regular: fonts.regular, fallbacks: fonts.fallbacks, emoji: fonts.emoji, lastResort: fonts.lastResort)
    }
}

extension ImageLimits {
    /// The limits on artwork read, from `render.max_image_side` and `render.max_decoded_bytes`.
    public init(configuration: BelayConfiguration) {
        self.init(maxSide: configuration.render.maxImageSide, maxDecodedBytes: configuration.render.maxDecodedBytes)
    }
}

extension RenderSettings {
    /// A renderer's fonts and input limits from `config.json`, for every renderer Belay
    /// makes: the render workers, the backfill, collections, share cards and `belay render`.
    /// - Parameters:
    ///   - png: how PNGs are compressed (`belay render` lets the operator choose).
    ///   - parallelism: cores one render may use; 1 where several renders run at once.
    public init(configuration: BelayConfiguration, png: PNGSettings = .default, parallelism: Int = 1) {
        self.init(fonts: FontSettings(configuration: configuration), limits: ImageLimits(configuration: configuration),
                  png: png, parallelism: parallelism)
    }
}

extension BackfillSchedule {
    /// `backfill.daily_at` (in `club.time_zone`) or `backfill.every_minutes`; off when both are unset.
    public init(configuration: BelayConfiguration) {
        self.init(dailyAt: configuration.backfill.dailyAt.map { (hour: $0.hour, minute: $0.minute) },
                  everyMinutes: configuration.backfill.everyMinutes, timeZone: configuration.club.zone)
    }
}

extension DomainSettings {
    /// The case of `T` that the setting `key` names: a word the domain does not know is refused
    /// at start, never read as another case.
    /// - Throws: `ApplicationError.invalidSetting` naming the key, the word and the known words.
    static func choice<T: RawRepresentable & CaseIterable>(_ word: String, key: String, _ configuration: BelayConfiguration) throws -> T
    where T.RawValue == String {
        guard let value = T(rawValue: word) else {
            let known = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ApplicationError(.invalidSetting(key: "\(configuration.sourceFile ?? "config.json"): \(key)",
                                                   message: "\"\(word)\" is not one of \(known); write one of them"))
        }
        return value
    }
}
