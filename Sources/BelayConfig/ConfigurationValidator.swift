import BelayCore
import Foundation

/// Reads the merged, type-checked tree into a `BelayConfiguration` and refuses impossible
/// values, naming each key and where its value came from: each setting's own check comes from
/// its declaration (`SettingDeclaration.all`); the rules here are those that read several keys,
/// and the reward maps.
struct ConfigurationValidator {
    let tree: JSONValue
    let sources: [String: String]
    private(set) var problems: [ConfigurationError.Problem] = []

    init(tree: JSONValue, sources: [String: String]) {
        self.tree = tree
        self.sources = sources
    }

    private func value(_ path: String) -> JSONValue? {
        var node: JSONValue? = tree
        for part in path.split(separator: ".") { node = node?[String(part)] }
        return node
    }

    private func string(_ path: String) -> String {
        if case let .string(text)? = value(path) { return text }
        return ""
    }

    /// The case of `T` the setting at `path` names. Its declaration (`.oneOf(T.self, …)`) has
    /// refused any other word, and a load with a refusal throws instead of returning the
    /// configuration: `T`'s first case only fills the field of one that is never used.
    private func choice<T: RawRepresentable & CaseIterable>(_ path: String, as type: T.Type = T.self) -> T where T.RawValue == String {
        if let value = T(rawValue: string(path)) { return value }
        guard let placeholder = T.allCases.first else { preconditionFailure("\(T.self) has no case to choose") }
        return placeholder
    }

    private func strings(_ path: String) -> [String] {
        guard case let .array(items)? = value(path) else { return [] }
        return items.compactMap { item in
            if case let .string(text) = item { return text }
            return nil
        }
    }

    private func integer(_ path: String) -> Int {
        if let number = value(path)?.integerValue { return number }
        return 0
    }

    private mutating func refuse(_ path: String, _ message: String) {
        let source = sources[path] ?? sources[String(path.prefix(while: { $0 != "." }))] ?? sources.first(where: { path.hasPrefix($0.key + ".") })?.value ?? "built-in default"
        problems.append(.init(source: source, key: path, message: message))
    }

    /// Runs the declaration's own check of `setting`.
    private mutating func check(_ setting: SettingDeclaration) {
        let key = setting.key
        switch setting.check {
        case .none, .custom:
            break
        case let .integer(range, refusal):
            let number = integer(key)
            if !range.contains(number) { refuse(key, refusal(number)) }
        case let .oneOf(words, refusal):
            let text = string(key)
            if !words.contains(text) { refuse(key, "\(JSONOutput.quoted(text)) \(refusal)") }
        case let .nonEmpty(what):
            if string(key).trimmingCharacters(in: .whitespaces).isEmpty { refuse(key, "must not be empty; give \(what)") }
        case let .httpURL(example):
            httpURL(key, example: example)
        case let .httpURLOrEmpty(example):
            if !string(key).isEmpty { httpURL(key, example: example) }
        case let .text(rule):
            if let refusal = rule(string(key)) { refuse(key, refusal) }
        case let .eachItem(rule):
            for item in list(key) { if let refusal = rule(item) { refuse(key, refusal) } }
        }
    }

    /// The integer at `path`, refused below `minimum` (for rules that depend on other keys).
    private mutating func atLeast(_ minimum: Int, _ path: String, unit: String, why: String) -> Int {
        let number = integer(path)
        if number < minimum {
            refuse(path, "\(number) is too small; it must be at least \(minimum) \(unit) (\(why))")
        }
        return number
    }

    private mutating func httpURL(_ path: String, example: String) {
        let text = string(path)
        let url = URL(string: text)
        if url == nil || !["http", "https"].contains(url?.scheme?.lowercased() ?? "") || (url?.host ?? "").isEmpty {
            refuse(path, "\(JSONOutput.quoted(text)) is not an http(s) URL such as \(example)")
        }
    }

    static func isNumericAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// A comma-separated list, each entry trimmed, empty entries dropped.
    private func list(_ path: String) -> [String] {
        string(path).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func isAppleAppID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10, parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else { return false }
        return parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") } && !parts[1].isEmpty
    }

    static func isAndroidPackage(_ id: String) -> Bool {
        let segments = id.split(separator: ".", omittingEmptySubsequences: false)
        return segments.count >= 2 && segments.allSatisfy { segment in
            guard let first = segment.first, first.isASCII, first.isLetter else { return false }
            return segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
    }

    static func isSHA256Fingerprint(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 32 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// Checks every setting on its own (`SettingDeclaration.check`), then the rules that read
    /// several keys, and reads the tree into a configuration.
    mutating func configuration(sourceFile: String?) -> BelayConfiguration {
        for setting in SettingDeclaration.all { check(setting) }

        // server
        var threads = integer("server.threads")
        if threads == 0 { threads = max(1, ProcessInfo.processInfo.activeProcessorCount) }
        let server = BelayConfiguration.Server(
            host: string("server.host"),
            port: integer("server.port"),
            threads: threads,
            connectionTimeoutSeconds: integer("server.connection_timeout_seconds"),
            headerTimeoutSeconds: integer("server.header_timeout_seconds"),
            shutdownGraceSeconds: integer("server.shutdown_grace_seconds"),
            maxConnections: integer("server.max_connections"),
            maxConnectionsPerIP: integer("server.max_connections_per_ip"),
            maxBodyBytes: integer("server.max_body_bytes"),
            publicBaseURL: string("server.public_base_url"),
            trustedProxies: list("server.trusted_proxies")
        )

        // paths: an empty database_path is the file in data_directory; database.url is a
        // PostgreSQL URL, a file path that replaces database_path, or empty.
        let dataDirectory = string("data_directory")
        var databasePath = string("database_path")
        if databasePath.isEmpty, !dataDirectory.isEmpty {
            databasePath = (dataDirectory as NSString).appendingPathComponent("belay.sqlite3")
        }
        let databaseURL = string("database.url").trimmingCharacters(in: .whitespaces)
        var serverURL = ""
        if BelayConfiguration.DatabaseServer.isServerURL(databaseURL) {
            serverURL = databaseURL
        } else if databaseURL.contains("://") {
            refuse("database.url", "\(JSONOutput.quoted(PasswordRedaction.redacted(databaseURL))) is neither a postgres:// or postgresql:// URL nor a file path; leave it empty for SQLite at database_path")
        } else if databaseURL.firstMatch(of: /^[A-Za-z_]+\s*=/) != nil {
            // libpq's `host=… password=…` form: never taken for a file name (nor shown with its password).
            refuse("database.url", "\(JSONOutput.quoted(PasswordRedaction.redacted(databaseURL))) is a libpq keyword string; Belay takes the URL form: postgresql://USER:PASSWORD@HOST:5432/DBNAME (with ?sslmode=require and other keywords as query parameters; percent-encode special characters in the password)")
        } else if !databaseURL.isEmpty {
            databasePath = databaseURL
        }
        let database = BelayConfiguration.DatabaseServer(
            url: serverURL,
            maxConnections: integer("database.max_connections"),
            writerConnections: integer("database.writer_connections"),
            statementTimeoutMilliseconds: integer("database.statement_timeout_ms"),
            backupURL: string("database.backup_url"), backupEveryHours: integer("database.backup_every_hours"),
            backupKeep: integer("database.backup_keep"))
        if database.backupEveryHours > 0 {
            if database.backupURL.isEmpty {
                refuse("database.backup_url", "must name s3://bucket/prefix/ when database.backup_every_hours is set; or set database.backup_every_hours to 0")
            } else if database.isPostgreSQL {
                refuse("database.backup_every_hours", "backs up the SQLite file only; on PostgreSQL use the server's own tools (pg_dump, base backups), and set it to 0")
            }
        }
        let fonts = BelayConfiguration.Fonts(
            bold: string("fonts.bold"),
            regular: string("fonts.regular"),
            fallbacks: strings("fonts.fallbacks").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
            emoji: string("fonts.emoji"),
            lastResort: string("fonts.last_resort")
        )
        let club = BelayConfiguration.Club(
            name: string("club.name"),
            timeZone: string("club.time_zone"),
            locale: string("club.locale"),
            shareLinkBaseURL: string("club.share_link_base_url"),
            logo: string("club.logo"),
            contactEmail: string("club.contact_email")
        )
        let checkIn = BelayConfiguration.CheckIn(
            opensMinutesBeforeStart: integer("check_in.opens_minutes_before_start"),
            closesMinutesAfterEnd: integer("check_in.closes_minutes_after_end"),
            codeStepSeconds: integer("check_in.code_step_seconds"),
            maxWrongAttempts: integer("check_in.max_wrong_attempts"),
            retentionDays: integer("check_in.retention_days")
        )

        // rewards
        func milestoneMap(_ key: String, counting what: String, example: String) -> [Int: String] {
            var milestones: [Int: String] = [:]
            guard case let .object(members)? = value(key) else { return milestones }
            for member in members {
                let path = "\(key).\(member.key)"
                guard let count = Int(member.key), count >= 1, String(count) == member.key else {
                    refuse(path, "\(JSONOutput.quoted(member.key)) is not \(what); keys are whole numbers from 1, e.g. \"\(example)\"")
                    continue
                }
                guard case let .string(hold) = member.value, !hold.trimmingCharacters(in: .whitespaces).isEmpty else {
                    refuse(path, "must name a hold id from Assets/holds/catalog.json, e.g. \"jug-gold\"")
                    continue
                }
                milestones[count] = hold
            }
            return milestones
        }
        let milestones = milestoneMap("rewards.milestones", counting: "a check-in count", example: "10")
        let streakMilestones = milestoneMap("rewards.streak_milestones", counting: "a number of weeks in a row", example: "4")
        var weights: [String: Int] = [:]
        if case let .object(members)? = value("rewards.rarity_weights") {
            for member in members {
                let path = "rewards.rarity_weights.\(member.key)"
                guard let weight = member.value.integerValue else { continue }
                if member.key.trimmingCharacters(in: .whitespaces).isEmpty { refuse(path, "a rarity needs a name, e.g. \"common\""); continue }
                if weight < 0 { refuse(path, "\(weight) is negative; a weight is 0 (never picked) or more"); continue }
                weights[member.key] = weight
            }
            if !members.isEmpty, weights.values.reduce(0, +) == 0, problems.allSatisfy({ !$0.key.hasPrefix("rewards.rarity_weights") }) {
                refuse("rewards.rarity_weights", "every weight is 0, so no hold could be picked; give at least one rarity a weight above 0")
            }
            if members.isEmpty { refuse("rewards.rarity_weights", "is empty; give each rarity a weight, e.g. {\"common\": 60, \"rare\": 12}") }
        }
        let rewards = BelayConfiguration.Rewards(milestones: milestones, streakMilestones: streakMilestones, rarityWeights: weights)

        // render: with the data on PostgreSQL, an API node may leave rendering to `belay worker` nodes.
        let render = BelayConfiguration.Render(
            workers: database.isPostgreSQL
                ? atLeast(0, "render.workers", unit: "workers", why: "0 leaves rendering to `belay worker` nodes")
                : atLeast(1, "render.workers", unit: "worker", why: "with none, no image would ever be rendered; on PostgreSQL (database.url) an API node may have 0 and leave rendering to `belay worker` nodes"),
            storyFormat: choice("render.story_format"),
            jpegQuality: integer("render.jpeg_quality"),
            maxImageSide: integer("render.max_image_side"),
            maxDecodedBytes: integer("render.max_decoded_bytes"),
            maxAttempts: integer("render.max_attempts"),
            retryBaseSeconds: integer("render.retry_base_seconds"),
            achievementLine: integer("render.achievement_line") == 1
        )
        let backfill = BelayConfiguration.Backfill(
            dailyAt: BelayConfiguration.TimeOfDay(string("backfill.daily_at")),
            everyMinutes: integer("backfill.every_minutes"),
            jobs: integer("backfill.jobs"),
            leaseSeconds: integer("backfill.lease_seconds")
        )
        let share = BelayConfiguration.Share(
            instagramAppID: string("share.instagram_app_id"),
            facebookAppID: string("share.facebook_app_id"),
            storiesBackground: choice("share.stories_background"),
            storiesBackgroundWidth: integer("share.stories_background_width"),
            storiesBackgroundHeight: integer("share.stories_background_height"),
            maxEventsPerReward: integer("share.max_events_per_reward"),
            eventsRetentionDays: integer("share.events_retention_days"))
        let appLinks = BelayConfiguration.AppLinks(
            iosAppIDs: list("app_links.ios_app_ids"), androidPackage: string("app_links.android_package"),
            androidSHA256Fingerprints: list("app_links.android_sha256_fingerprints").map { $0.uppercased() },
            appStoreURL: string("app_links.app_store_url"), playStoreURL: string("app_links.play_store_url"))
        let webhooks = BelayConfiguration.Webhooks(
            workers: integer("webhooks.workers"),
            timeoutSeconds: integer("webhooks.timeout_seconds"),
            maxAttempts: integer("webhooks.max_attempts"),
            retryBaseSeconds: integer("webhooks.retry_base_seconds"),
            disableAfterHours: integer("webhooks.disable_after_hours"),
            pollMilliseconds: integer("webhooks.poll_milliseconds"),
            allowPrivateAddresses: integer("webhooks.allow_private_addresses") == 1,
            retentionDays: integer("webhooks.retention_days")
        )
        let calendar = BelayConfiguration.Calendar(alarmMinutesBefore: integer("calendar.alarm_minutes_before"))
        let logbook = BelayConfiguration.Logbook(
            storyRefreshSeconds: integer("logbook.story_refresh_seconds"), rankingBest: integer("logbook.ranking_best"),
            rankingDays: integer("logbook.ranking_days"))
        let meetups = BelayConfiguration.Meetups(
            createdBy: string("meetups.created_by"), completeEverySeconds: integer("meetups.complete_every_seconds"))

        // accounts, auth, mail, rate limits, push
        let accounts = BelayConfiguration.Accounts(
            signUp: string("accounts.sign_up"), accessTokenMinutes: integer("accounts.access_token_minutes"),
            refreshTokenDays: integer("accounts.refresh_token_days"), emailCodeMinutes: integer("accounts.email_code_minutes"),
            maxWrongEmailCodes: integer("accounts.max_wrong_email_codes"), recentSignInMinutes: integer("accounts.recent_sign_in_minutes"),
            termsVersion: string("accounts.terms_version"), termsURL: string("accounts.terms_url"))
        if !accounts.termsVersion.isEmpty && accounts.termsURL.isEmpty {
            refuse("accounts.terms_url", "accounts.terms_version is set, so members must be able to read the terms: give their https:// address")
        }
        let moderation = BelayConfiguration.Moderation(
            autoHideReports: integer("moderation.auto_hide_reports"), autoHideWindowHours: integer("moderation.auto_hide_window_hours"),
            reportsPerMemberPerDay: integer("moderation.reports_per_member_per_day"),
            blockedTermsFile: string("moderation.blocked_terms_file"),
            newMemberDays: integer("moderation.new_member_days"))
        if !moderation.blockedTermsFile.isEmpty && !FileManager.default.isReadableFile(atPath: moderation.blockedTermsFile) {
            refuse("moderation.blocked_terms_file", "\(JSONOutput.quoted(moderation.blockedTermsFile)) cannot be read; give a UTF-8 text file with one word per line, or \"\" for no list")
        }
        if accounts.accessTokenMinutes > accounts.refreshTokenDays * 1440 {
            refuse("accounts.access_token_minutes", "\(accounts.accessTokenMinutes) minutes is longer than a session lasts (accounts.refresh_token_days); make it shorter")
        }
        let apple = BelayConfiguration.Auth.Apple(
            clientIDs: list("auth.apple.client_ids"), jwksURL: string("auth.apple.jwks_url"),
            teamID: string("auth.apple.team_id"), keyID: string("auth.apple.key_id"), privateKeyFile: string("auth.apple.private_key_file"),
            tokenURL: string("auth.apple.token_url"), revokeURL: string("auth.apple.revoke_url"))
        let appleKeyParts = [apple.teamID, apple.keyID, apple.privateKeyFile].filter { !$0.isEmpty }.count
        if appleKeyParts != 0 && appleKeyParts != 3 {
            refuse("auth.apple.private_key_file", "team_id, key_id and private_key_file go together (the key Apple gave the team for Sign in with Apple); set all three or none")
        }
        let google = BelayConfiguration.Auth.Google(clientIDs: list("auth.google.client_ids"), jwksURL: string("auth.google.jwks_url"))
        let smtpURL = string("mail.smtp_url")
        let from = string("mail.from")
        if !smtpURL.isEmpty, !from.contains("@") {
            refuse("mail.from", "\(JSONOutput.quoted(from)) is not a sender address; give one such as \"Belay <no-reply@club.example>\"")
        }
        let mail = BelayConfiguration.Mail(smtpURL: smtpURL, username: string("mail.username"), password: string("mail.password"),
                                           from: from, requireTLS: integer("mail.require_tls") == 1)
        let rateLimits = BelayConfiguration.RateLimits(
            authPerAddressPerMinute: integer("rate_limits.auth_per_address_per_minute"),
            authPerEmailPerHour: integer("rate_limits.auth_per_email_per_hour"),
            writesPerMemberPerMinute: integer("rate_limits.writes_per_member_per_minute"),
            shareEventsPerMemberPerMinute: integer("rate_limits.share_events_per_member_per_minute"),
            publicPerAddressPerMinute: integer("rate_limits.public_per_address_per_minute"))
        let apns = BelayConfiguration.Push.APNs(
            keyFile: string("push.apns.key_file"), keyID: string("push.apns.key_id"), teamID: string("push.apns.team_id"),
            url: string("push.apns.url"), sandboxURL: string("push.apns.sandbox_url"))
        let apnsKeyParts = [apns.keyFile, apns.keyID, apns.teamID].filter { !$0.isEmpty }.count
        if apnsKeyParts != 0 && apnsKeyParts != 3 {
            refuse("push.apns.key_file", "key_file, key_id and team_id go together (the .p8 key Apple gave the team for APNs, its 10-character key id, and the team id); set all three or none")
        }
        let push = BelayConfiguration.Push(
            reminderMinutesBefore: integer("push.reminder_minutes_before"), offerWarningMinutes: integer("push.offer_warning_minutes"),
            retentionDays: integer("push.retention_days"), caFile: string("push.ca_file"), apns: apns,
            fcm: BelayConfiguration.Push.FCM(serviceAccountFile: string("push.fcm.service_account_file"), url: string("push.fcm.url")))
        let imageStore = BelayConfiguration.Images.Store(rawValue: string("images.store")) ?? .directory
        var prefix = string("images.s3.prefix")
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        let images = BelayConfiguration.Images(
            store: imageStore, publicBaseURL: string("images.public_base_url"),
            s3: BelayConfiguration.Images.S3(
                endpoint: string("images.s3.endpoint"), bucket: string("images.s3.bucket"), region: string("images.s3.region"),
                prefix: prefix, accessKeyID: string("images.s3.access_key_id"),
                secretAccessKeyFile: string("images.s3.secret_access_key_file"), pathStyle: integer("images.s3.path_style") == 1,
                presignSeconds: integer("images.s3.presign_seconds"), proxy: integer("images.s3.proxy") == 1,
                timeoutSeconds: integer("images.s3.timeout_seconds"), maxAttempts: integer("images.s3.max_attempts"),
                caFile: string("images.s3.ca_file")))
        if imageStore == .s3 && images.s3.bucket.trimmingCharacters(in: .whitespaces).isEmpty {
            refuse("images.s3.bucket", "must not be empty when images.store is \"s3\"; give the bucket's name, e.g. \"club-images\"")
        }
        let waitlist = BelayConfiguration.Waitlist(
            claimMinutes: integer("waitlist.claim_minutes"), cutoffMinutes: integer("waitlist.cutoff_minutes"))

        return BelayConfiguration(
            server: server,
            dataDirectory: dataDirectory,
            databasePath: databasePath,
            databaseDurability: choice("database_durability"),
            database: database,
            assetsDirectory: string("assets_directory"),
            migrationsDirectory: string("migrations_directory"),
            fonts: fonts,
            club: club,
            checkIn: checkIn,
            rewards: rewards,
            render: render,
            backfill: backfill,
            share: share,
            appLinks: appLinks,
            webhooks: webhooks,
            calendar: calendar,
            meetups: meetups,
            logbook: logbook,
            waitlist: waitlist,
            accounts: accounts,
            moderation: moderation,
            auth: BelayConfiguration.Auth(apple: apple, google: google),
            mail: mail,
            rateLimits: rateLimits,
            push: push,
            images: images,
            sourceFile: sourceFile
        )
    }
}
