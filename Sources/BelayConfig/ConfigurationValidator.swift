import BelayCore
import Foundation

/// Reads the merged, type-checked tree into a `BelayConfiguration` and refuses impossible
/// values, naming each key and where its value came from.
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

    private mutating func atLeast(_ minimum: Int, _ path: String, unit: String, why: String = "") -> Int {
        let number = integer(path)
        if number < minimum {
            refuse(path, "\(number) is too small; it must be at least \(minimum) \(unit)\(why.isEmpty ? "" : " (\(why))")")
        }
        return number
    }

    private mutating func nonEmpty(_ path: String, what: String) -> String {
        let text = string(path)
        if text.trimmingCharacters(in: .whitespaces).isEmpty { refuse(path, "must not be empty; give \(what)") }
        return text
    }

    private mutating func httpURL(_ path: String, example: String) -> String {
        let text = string(path)
        let url = URL(string: text)
        if url == nil || !["http", "https"].contains(url?.scheme?.lowercased() ?? "") || (url?.host ?? "").isEmpty {
            refuse(path, "\(JSONOutput.quoted(text)) is not an http(s) URL such as \(example)")
        }
        return text
    }

    /// A comma-separated list of numeric IPv4 or IPv6 addresses.
    private mutating func numericAddresses(_ path: String) -> [String] {
        let addresses = list(path)
        for address in addresses where !Self.isNumericAddress(address) {
            refuse(path, "\(JSONOutput.quoted(address)) is not a numeric IP address; list the proxies' addresses, e.g. \"127.0.0.1,::1\"")
        }
        return addresses
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

    private mutating func appID(_ path: String) -> String {
        let text = string(path)
        if !text.isEmpty, !text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            refuse(path, "\(JSONOutput.quoted(text)) is not a Facebook App ID (digits only, from developers.facebook.com), or \"\" when not set up")
        }
        return text
    }

    mutating func configuration(sourceFile: String?) -> BelayConfiguration {
        // server
        let port = integer("server.port")
        if !(0...65535).contains(port) { refuse("server.port", "\(port) is not a port (1–65535, or 0 for any free port)") }
        var threads = integer("server.threads")
        if threads < 0 { refuse("server.threads", "\(threads) is not a thread count (1 or more, or 0 for one per core)") }
        if threads == 0 { threads = max(1, ProcessInfo.processInfo.activeProcessorCount) }
        let server = BelayConfiguration.Server(
            host: nonEmpty("server.host", what: "an address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"),
            port: port,
            threads: threads,
            connectionTimeoutSeconds: atLeast(1, "server.connection_timeout_seconds", unit: "second"),
            headerTimeoutSeconds: atLeast(1, "server.header_timeout_seconds", unit: "second"),
            shutdownGraceSeconds: atLeast(0, "server.shutdown_grace_seconds", unit: "second"),
            maxConnections: atLeast(1, "server.max_connections", unit: "connection"),
            maxConnectionsPerIP: atLeast(1, "server.max_connections_per_ip", unit: "connection"),
            maxBodyBytes: atLeast(1024, "server.max_body_bytes", unit: "bytes", why: "room for a share event's JSON body"),
            publicBaseURL: httpURL("server.public_base_url", example: "https://belay.example"),
            trustedProxies: numericAddresses("server.trusted_proxies")
        )

        // paths
        let dataDirectory = nonEmpty("data_directory", what: "the directory for the database and rendered images, e.g. ./data")
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
        } else if !databaseURL.isEmpty {
            databasePath = databaseURL
        }
        let database = BelayConfiguration.DatabaseServer(
            url: serverURL,
            maxConnections: atLeast(1, "database.max_connections", unit: "connection"),
            writerConnections: atLeast(1, "database.writer_connections", unit: "connection"),
            statementTimeoutMilliseconds: atLeast(0, "database.statement_timeout_ms", unit: "milliseconds", why: "0 sets no limit"))
        let durabilityName = string("database_durability")
        let durability = BelayConfiguration.Durability(rawValue: durabilityName)
        if durability == nil {
            refuse("database_durability", "\(JSONOutput.quoted(durabilityName)) is not a durability (full: every acknowledged write survives power loss; normal: faster, but the last writes before a power loss can be lost)")
        }
        let fonts = BelayConfiguration.Fonts(
            bold: nonEmpty("fonts.bold", what: "the path of a .ttf or .otf font file"),
            regular: nonEmpty("fonts.regular", what: "the path of a .ttf or .otf font file"),
            fallbacks: strings("fonts.fallbacks").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty },
            emoji: nonEmpty("fonts.emoji", what: "the path of a .ttf or .otf font file"),
            lastResort: nonEmpty("fonts.last_resort", what: "the path of a .ttf or .otf font file")
        )

        // club
        let timeZone = string("club.time_zone")
        if TimeZone(identifier: timeZone) == nil {
            refuse("club.time_zone", "\(JSONOutput.quoted(timeZone)) is not a known IANA time zone (e.g. Asia/Seoul, Europe/Berlin, UTC)")
        }
        let locale = string("club.locale")
        if !Locale.availableIdentifiers.contains(locale) {
            var message = "\(JSONOutput.quoted(locale)) is not a known locale (e.g. ko_KR, en_US)"
            let underscored = locale.replacingOccurrences(of: "-", with: "_")
            if underscored != locale, Locale.availableIdentifiers.contains(underscored) { message += "; did you mean \(JSONOutput.quoted(underscored))?" }
            refuse("club.locale", message)
        }
        let logo = string("club.logo")
        if !logo.isEmpty, !FileManager.default.isReadableFile(atPath: logo) {
            refuse("club.logo", "\(JSONOutput.quoted(logo)) does not exist or cannot be read; name a PNG of the club's mark, or \"\" for a monogram of the club's name")
        }
        let club = BelayConfiguration.Club(
            name: nonEmpty("club.name", what: "the club's name as members know it"),
            timeZone: timeZone,
            locale: locale,
            shareLinkBaseURL: string("club.share_link_base_url").isEmpty
                ? "" : httpURL("club.share_link_base_url", example: "https://belay.example/s/, or \"\" for Belay's own share pages"),
            logo: logo
        )

        // check_in
        let opens = integer("check_in.opens_minutes_before_start")
        let closes = integer("check_in.closes_minutes_after_end")
        let yearOfMinutes = 366 * 24 * 60
        if opens < 0 {
            refuse("check_in.opens_minutes_before_start", "\(opens) would open check-in only after the meetup has started (and after it closes, for a short meetup); give 0 or more minutes before the start")
        } else if opens > yearOfMinutes {
            refuse("check_in.opens_minutes_before_start", "\(opens) minutes is more than a year; give the minutes before the start at which check-in opens")
        }
        if closes < 0 {
            refuse("check_in.closes_minutes_after_end", "\(closes) would close the check-in window before the meetup ends (before it opens, for a short meetup); give 0 or more minutes after the end")
        } else if closes > yearOfMinutes {
            refuse("check_in.closes_minutes_after_end", "\(closes) minutes is more than a year; give the minutes after the end at which check-in closes")
        }
        let step = integer("check_in.code_step_seconds")
        if !(30...60).contains(step) {
            refuse("check_in.code_step_seconds", "\(step) seconds is outside 30–60: shorter codes expire while being typed, longer ones can be passed on to someone not there")
        }
        let checkIn = BelayConfiguration.CheckIn(
            opensMinutesBeforeStart: opens,
            closesMinutesAfterEnd: closes,
            codeStepSeconds: step,
            maxWrongAttempts: atLeast(1, "check_in.max_wrong_attempts", unit: "attempt"),
            retentionDays: atLeast(1, "check_in.retention_days", unit: "day",
                                   why: "a retried check-in must still find its idempotency key")
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

        // render
        let formatName = string("render.story_format")
        let format = BelayConfiguration.StoryFormat(rawValue: formatName)
        if format == nil { refuse("render.story_format", "\(JSONOutput.quoted(formatName)) is not a story format (png or jpeg)") }
        let quality = integer("render.jpeg_quality")
        if !(1...100).contains(quality) { refuse("render.jpeg_quality", "\(quality) is not a JPEG quality (1–100)") }
        let achievementLine = integer("render.achievement_line")
        if !(0...1).contains(achievementLine) {
            refuse("render.achievement_line", "\(achievementLine) is not 1 (stories and share cards lead with the day's achievement, e.g. \"12th check-in\") or 0 (no such line)")
        }
        let render = BelayConfiguration.Render(
            // With the data on PostgreSQL, an API node may leave rendering to `belay worker` nodes.
            workers: database.isPostgreSQL
                ? atLeast(0, "render.workers", unit: "workers", why: "0 leaves rendering to `belay worker` nodes")
                : atLeast(1, "render.workers", unit: "worker", why: "with none, no image would ever be rendered; on PostgreSQL (database.url) an API node may have 0 and leave rendering to `belay worker` nodes"),
            storyFormat: format ?? .png,
            jpegQuality: quality,
            maxImageSide: atLeast(1920, "render.max_image_side", unit: "pixels", why: "the story image is 1080x1920"),
            maxDecodedBytes: atLeast(1080 * 1920 * 4, "render.max_decoded_bytes", unit: "bytes", why: "one decoded 1080x1920 RGBA story image"),
            maxAttempts: atLeast(1, "render.max_attempts", unit: "attempt"),
            retryBaseSeconds: atLeast(1, "render.retry_base_seconds", unit: "second"),
            achievementLine: achievementLine == 1
        )

        // backfill
        let dailyText = string("backfill.daily_at")
        let dailyAt = BelayConfiguration.TimeOfDay(dailyText)
        if !dailyText.isEmpty, dailyAt == nil {
            refuse("backfill.daily_at", "\(JSONOutput.quoted(dailyText)) is not a time of day HH:MM (00:00–23:59), or \"\" for no daily run")
        }
        let backfill = BelayConfiguration.Backfill(
            dailyAt: dailyAt,
            everyMinutes: atLeast(0, "backfill.every_minutes", unit: "minutes", why: "0 turns the periodic run off"),
            jobs: atLeast(1, "backfill.jobs", unit: "job"),
            leaseSeconds: atLeast(1, "backfill.lease_seconds", unit: "second")
        )

        var share = BelayConfiguration.Share(instagramAppID: appID("share.instagram_app_id"), facebookAppID: appID("share.facebook_app_id"))
        let storiesBackground = string("share.stories_background")
        if let mode = BelayConfiguration.StoriesBackground(rawValue: storiesBackground) {
            share.storiesBackground = mode
        } else {
            refuse("share.stories_background", "\(JSONOutput.quoted(storiesBackground)) is neither \"image\" (the gradient as a PNG under the sticker) nor \"colors\" (only the two colours)")
        }
        for (path, keyPath) in [("share.stories_background_width", \BelayConfiguration.Share.storiesBackgroundWidth),
                                ("share.stories_background_height", \BelayConfiguration.Share.storiesBackgroundHeight)] {
            let pixels = integer(path)
            if !(1...4096).contains(pixels) { refuse(path, "\(pixels) px is not a size from 1 to 4096 px (Meta asks for at most 720x1280 at 9:16)") }
            share[keyPath: keyPath] = pixels
        }
        share.maxEventsPerReward = atLeast(1, "share.max_events_per_reward", unit: "event")
        share.eventsRetentionDays = atLeast(1, "share.events_retention_days", unit: "day",
                                            why: "older events are counted per day, so the day in progress must stay")

        // app_links
        let iosAppIDs = list("app_links.ios_app_ids")
        for id in iosAppIDs where !Self.isAppleAppID(id) {
            refuse("app_links.ios_app_ids", "\(JSONOutput.quoted(id)) is not an app id TEAMID.bundle.id (a 10-character team id, a dot, the bundle id), e.g. \"A1B2C3D4E5.club.belay.app\"")
        }
        let androidPackage = string("app_links.android_package")
        if !androidPackage.isEmpty, !Self.isAndroidPackage(androidPackage) {
            refuse("app_links.android_package", "\(JSONOutput.quoted(androidPackage)) is not an Android application id such as club.belay.app")
        }
        let fingerprints = list("app_links.android_sha256_fingerprints").map { $0.uppercased() }
        for fingerprint in fingerprints where !Self.isSHA256Fingerprint(fingerprint) {
            refuse("app_links.android_sha256_fingerprints", "\(JSONOutput.quoted(fingerprint)) is not a SHA-256 certificate fingerprint (32 hex pairs joined by colons, as keytool -list prints it)")
        }
        let appLinks = BelayConfiguration.AppLinks(
            iosAppIDs: iosAppIDs, androidPackage: androidPackage, androidSHA256Fingerprints: fingerprints,
            appStoreURL: string("app_links.app_store_url").isEmpty ? "" : httpURL("app_links.app_store_url", example: "https://apps.apple.com/app/id1234567890"),
            playStoreURL: string("app_links.play_store_url").isEmpty ? "" : httpURL("app_links.play_store_url", example: "https://play.google.com/store/apps/details?id=club.belay.app"))

        // webhooks
        let allowPrivate = integer("webhooks.allow_private_addresses")
        if !(0...1).contains(allowPrivate) {
            refuse("webhooks.allow_private_addresses", "\(allowPrivate) is not 0 (refuse loopback, link-local and private addresses) or 1 (allow them, for a receiver on the club's own network)")
        }
        let webhooks = BelayConfiguration.Webhooks(
            workers: atLeast(1, "webhooks.workers", unit: "worker"),
            timeoutSeconds: atLeast(1, "webhooks.timeout_seconds", unit: "second"),
            maxAttempts: atLeast(1, "webhooks.max_attempts", unit: "attempt"),
            retryBaseSeconds: atLeast(1, "webhooks.retry_base_seconds", unit: "second"),
            disableAfterHours: atLeast(1, "webhooks.disable_after_hours", unit: "hour"),
            pollMilliseconds: atLeast(10, "webhooks.poll_milliseconds", unit: "milliseconds"),
            allowPrivateAddresses: allowPrivate == 1,
            retentionDays: atLeast(1, "webhooks.retention_days", unit: "day", why: "an endpoint's log must show at least its last day")
        )

        // calendar
        let alarm = integer("calendar.alarm_minutes_before")
        if !(0...10_080).contains(alarm) {
            refuse("calendar.alarm_minutes_before", "\(alarm) is not a number of minutes from 0 (no reminder) to 10080 (a week before)")
        }
        let calendar = BelayConfiguration.Calendar(alarmMinutesBefore: alarm)
        let createdBy = string("meetups.created_by")
        if !["members", "hosts"].contains(createdBy) {
            refuse("meetups.created_by", "\(JSONOutput.quoted(createdBy)) is neither \"members\" (any member creates and hosts meetups) nor \"hosts\" (only hosts and admins)")
        }
        let meetups = BelayConfiguration.Meetups(
            createdBy: createdBy,
            completeEverySeconds: atLeast(0, "meetups.complete_every_seconds", unit: "seconds", why: "0 turns it off"))

        // accounts, auth, mail, rate limits
        let signUp = string("accounts.sign_up")
        if !["open", "invite", "closed"].contains(signUp) {
            refuse("accounts.sign_up", "\(JSONOutput.quoted(signUp)) is not \"open\" (anyone who signs in gets an account), \"invite\" (a first sign-in needs an invite code) or \"closed\" (only accounts an admin made)")
        }
        let accessMinutes = atLeast(1, "accounts.access_token_minutes", unit: "minute")
        let refreshDays = atLeast(1, "accounts.refresh_token_days", unit: "day")
        let accounts = BelayConfiguration.Accounts(
            signUp: signUp, accessTokenMinutes: accessMinutes, refreshTokenDays: refreshDays,
            emailCodeMinutes: atLeast(1, "accounts.email_code_minutes", unit: "minute"),
            maxWrongEmailCodes: atLeast(1, "accounts.max_wrong_email_codes", unit: "attempt"),
            recentSignInMinutes: atLeast(1, "accounts.recent_sign_in_minutes", unit: "minute"))
        if accessMinutes > refreshDays * 1440 {
            refuse("accounts.access_token_minutes", "\(accessMinutes) minutes is longer than a session lasts (accounts.refresh_token_days); make it shorter")
        }
        let apple = BelayConfiguration.Auth.Apple(
            clientIDs: list("auth.apple.client_ids"), jwksURL: httpURL("auth.apple.jwks_url", example: "https://appleid.apple.com/auth/keys"),
            teamID: string("auth.apple.team_id"), keyID: string("auth.apple.key_id"), privateKeyFile: string("auth.apple.private_key_file"),
            tokenURL: httpURL("auth.apple.token_url", example: "https://appleid.apple.com/auth/token"),
            revokeURL: httpURL("auth.apple.revoke_url", example: "https://appleid.apple.com/auth/revoke"))
        let appleKeyParts = [apple.teamID, apple.keyID, apple.privateKeyFile].filter { !$0.isEmpty }.count
        if appleKeyParts != 0 && appleKeyParts != 3 {
            refuse("auth.apple.private_key_file", "team_id, key_id and private_key_file go together (the key Apple gave the team for Sign in with Apple); set all three or none")
        }
        let google = BelayConfiguration.Auth.Google(
            clientIDs: list("auth.google.client_ids"), jwksURL: httpURL("auth.google.jwks_url", example: "https://www.googleapis.com/oauth2/v3/certs"))
        let smtpURL = string("mail.smtp_url")
        let smtpScheme = URL(string: smtpURL)?.scheme?.lowercased() ?? ""
        if !smtpURL.isEmpty, !["smtp", "smtps"].contains(smtpScheme) || (URL(string: smtpURL)?.host ?? "").isEmpty {
            refuse("mail.smtp_url", "\(JSONOutput.quoted(PasswordRedaction.redacted(smtpURL))) is not smtps://host:465 or smtp://host:587, or \"\" for no mail")
        }
        let from = string("mail.from")
        if !smtpURL.isEmpty, !from.contains("@") {
            refuse("mail.from", "\(JSONOutput.quoted(from)) is not a sender address; give one such as \"Belay <no-reply@club.example>\"")
        }
        let requireTLS = integer("mail.require_tls")
        if !(0...1).contains(requireTLS) {
            refuse("mail.require_tls", "\(requireTLS) is not 1 (send only over TLS) or 0 (allow plain SMTP to a relay on this machine)")
        }
        let mail = BelayConfiguration.Mail(smtpURL: smtpURL, username: string("mail.username"), password: string("mail.password"),
                                           from: from, requireTLS: requireTLS == 1)
        let rateLimits = BelayConfiguration.RateLimits(
            authPerAddressPerMinute: atLeast(0, "rate_limits.auth_per_address_per_minute", unit: "requests", why: "0 switches the limit off"),
            authPerEmailPerHour: atLeast(0, "rate_limits.auth_per_email_per_hour", unit: "messages", why: "0 switches the limit off"),
            writesPerMemberPerMinute: atLeast(0, "rate_limits.writes_per_member_per_minute", unit: "requests", why: "0 switches the limit off"),
            shareEventsPerMemberPerMinute: atLeast(0, "rate_limits.share_events_per_member_per_minute", unit: "requests", why: "0 switches the limit off"),
            publicPerAddressPerMinute: atLeast(0, "rate_limits.public_per_address_per_minute", unit: "requests", why: "0 switches the limit off"))
        let apns = BelayConfiguration.Push.APNs(
            keyFile: string("push.apns.key_file"), keyID: string("push.apns.key_id"), teamID: string("push.apns.team_id"),
            url: httpURL("push.apns.url", example: "https://api.push.apple.com"),
            sandboxURL: httpURL("push.apns.sandbox_url", example: "https://api.sandbox.push.apple.com"))
        let apnsKeyParts = [apns.keyFile, apns.keyID, apns.teamID].filter { !$0.isEmpty }.count
        if apnsKeyParts != 0 && apnsKeyParts != 3 {
            refuse("push.apns.key_file", "key_file, key_id and team_id go together (the .p8 key Apple gave the team for APNs, its 10-character key id, and the team id); set all three or none")
        }
        let reminderMinutes = atLeast(0, "push.reminder_minutes_before", unit: "minutes", why: "0 sends no reminders")
        if reminderMinutes > 10_080 { refuse("push.reminder_minutes_before", "\(reminderMinutes) minutes is more than a week; give 0 to 10080") }
        let warningMinutes = atLeast(0, "push.offer_warning_minutes", unit: "minutes", why: "0 sends no warning")
        if warningMinutes > 120 { refuse("push.offer_warning_minutes", "\(warningMinutes) minutes is more than 120; give 0 to 120") }
        let push = BelayConfiguration.Push(
            reminderMinutesBefore: reminderMinutes, offerWarningMinutes: warningMinutes,
            retentionDays: atLeast(1, "push.retention_days", unit: "day"), caFile: string("push.ca_file"), apns: apns,
            fcm: BelayConfiguration.Push.FCM(serviceAccountFile: string("push.fcm.service_account_file"),
                                             url: httpURL("push.fcm.url", example: "https://fcm.googleapis.com")))
        let waitlist = BelayConfiguration.Waitlist(
            claimMinutes: atLeast(0, "waitlist.claim_minutes", unit: "minutes", why: "0 promotes the first waitlisted member at once"),
            cutoffMinutes: atLeast(0, "waitlist.cutoff_minutes", unit: "minutes"))

        return BelayConfiguration(
            server: server,
            dataDirectory: dataDirectory,
            databasePath: databasePath,
            databaseDurability: durability ?? .full,
            database: database,
            assetsDirectory: nonEmpty("assets_directory", what: "the directory of backgrounds and hold artworks, e.g. ./Assets"),
            migrationsDirectory: nonEmpty("migrations_directory", what: "the directory of NNNN_name.sql migrations, e.g. ./Migrations"),
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
            waitlist: waitlist,
            accounts: accounts,
            auth: BelayConfiguration.Auth(apple: apple, google: google),
            mail: mail,
            rateLimits: rateLimits,
            push: push,
            sourceFile: sourceFile
        )
    }
}
