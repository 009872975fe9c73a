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

    private func integer(_ path: String) -> Int {
        if case let .integer(number)? = value(path) { return number }
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
            refuse(path, "\(JSONValue.quoted(text)) is not an http(s) URL such as \(example)")
        }
        return text
    }

    private mutating func appID(_ path: String) -> String {
        let text = string(path)
        if !text.isEmpty, !text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            refuse(path, "\(JSONValue.quoted(text)) is not a Facebook App ID (digits only, from developers.facebook.com), or \"\" when not set up")
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
            maxConnections: atLeast(1, "server.max_connections", unit: "connection"),
            maxConnectionsPerIP: atLeast(1, "server.max_connections_per_ip", unit: "connection"),
            maxBodyBytes: atLeast(1024, "server.max_body_bytes", unit: "bytes", why: "room for a share event's JSON body"),
            publicBaseURL: httpURL("server.public_base_url", example: "https://belay.example")
        )

        // paths
        let dataDirectory = nonEmpty("data_directory", what: "the directory for the database and rendered images, e.g. ./data")
        var databasePath = string("database_path")
        if databasePath.isEmpty, !dataDirectory.isEmpty {
            databasePath = (dataDirectory as NSString).appendingPathComponent("belay.sqlite3")
        }
        let durabilityName = string("database_durability")
        let durability = BelayConfiguration.Durability(rawValue: durabilityName)
        if durability == nil {
            refuse("database_durability", "\(JSONValue.quoted(durabilityName)) is not a durability (full: every acknowledged write survives power loss; normal: faster, but the last writes before a power loss can be lost)")
        }
        let fonts = BelayConfiguration.Fonts(
            bold: nonEmpty("fonts.bold", what: "the path of a .ttf or .otf font file"),
            regular: nonEmpty("fonts.regular", what: "the path of a .ttf or .otf font file"),
            emoji: nonEmpty("fonts.emoji", what: "the path of a .ttf or .otf font file"),
            lastResort: nonEmpty("fonts.last_resort", what: "the path of a .ttf or .otf font file")
        )

        // club
        let timeZone = string("club.time_zone")
        if TimeZone(identifier: timeZone) == nil {
            refuse("club.time_zone", "\(JSONValue.quoted(timeZone)) is not a known IANA time zone (e.g. Asia/Seoul, Europe/Berlin, UTC)")
        }
        let locale = string("club.locale")
        if !Locale.availableIdentifiers.contains(locale) {
            var message = "\(JSONValue.quoted(locale)) is not a known locale (e.g. ko_KR, en_US)"
            let underscored = locale.replacingOccurrences(of: "-", with: "_")
            if underscored != locale, Locale.availableIdentifiers.contains(underscored) { message += "; did you mean \(JSONValue.quoted(underscored))?" }
            refuse("club.locale", message)
        }
        let club = BelayConfiguration.Club(
            name: nonEmpty("club.name", what: "the club's name as members know it"),
            timeZone: timeZone,
            locale: locale,
            shareLinkBaseURL: httpURL("club.share_link_base_url", example: "https://belay.example/rewards/")
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
            maxWrongAttempts: atLeast(1, "check_in.max_wrong_attempts", unit: "attempt")
        )

        // rewards
        var milestones: [Int: String] = [:]
        if case let .object(members)? = value("rewards.milestones") {
            for member in members {
                let path = "rewards.milestones.\(member.key)"
                guard let count = Int(member.key), count >= 1, String(count) == member.key else {
                    refuse(path, "\(JSONValue.quoted(member.key)) is not a check-in count; keys are whole numbers from 1, e.g. \"10\"")
                    continue
                }
                guard case let .string(hold) = member.value, !hold.trimmingCharacters(in: .whitespaces).isEmpty else {
                    refuse(path, "must name a hold id from Assets/holds/catalog.json, e.g. \"jug-gold\"")
                    continue
                }
                milestones[count] = hold
            }
        }
        var weights: [String: Int] = [:]
        if case let .object(members)? = value("rewards.rarity_weights") {
            for member in members {
                let path = "rewards.rarity_weights.\(member.key)"
                guard case let .integer(weight) = member.value else { continue }
                if member.key.trimmingCharacters(in: .whitespaces).isEmpty { refuse(path, "a rarity needs a name, e.g. \"common\""); continue }
                if weight < 0 { refuse(path, "\(weight) is negative; a weight is 0 (never picked) or more"); continue }
                weights[member.key] = weight
            }
            if !members.isEmpty, weights.values.reduce(0, +) == 0, problems.allSatisfy({ !$0.key.hasPrefix("rewards.rarity_weights") }) {
                refuse("rewards.rarity_weights", "every weight is 0, so no hold could be picked; give at least one rarity a weight above 0")
            }
            if members.isEmpty { refuse("rewards.rarity_weights", "is empty; give each rarity a weight, e.g. {\"common\": 60, \"rare\": 12}") }
        }
        let rewards = BelayConfiguration.Rewards(milestones: milestones, rarityWeights: weights)

        // render
        let formatName = string("render.story_format")
        let format = BelayConfiguration.StoryFormat(rawValue: formatName)
        if format == nil { refuse("render.story_format", "\(JSONValue.quoted(formatName)) is not a story format (png or jpeg)") }
        let quality = integer("render.jpeg_quality")
        if !(1...100).contains(quality) { refuse("render.jpeg_quality", "\(quality) is not a JPEG quality (1–100)") }
        let render = BelayConfiguration.Render(
            workers: atLeast(1, "render.workers", unit: "worker", why: "with none, no image would ever be rendered"),
            storyFormat: format ?? .png,
            jpegQuality: quality,
            maxImageSide: atLeast(1920, "render.max_image_side", unit: "pixels", why: "the story image is 1080x1920"),
            maxDecodedBytes: atLeast(1080 * 1920 * 4, "render.max_decoded_bytes", unit: "bytes", why: "one decoded 1080x1920 RGBA story image"),
            maxAttempts: atLeast(1, "render.max_attempts", unit: "attempt"),
            retryBaseSeconds: atLeast(1, "render.retry_base_seconds", unit: "second")
        )

        // backfill
        let dailyText = string("backfill.daily_at")
        let dailyAt = BelayConfiguration.TimeOfDay(dailyText)
        if !dailyText.isEmpty, dailyAt == nil {
            refuse("backfill.daily_at", "\(JSONValue.quoted(dailyText)) is not a time of day HH:MM (00:00–23:59), or \"\" for no daily run")
        }
        let backfill = BelayConfiguration.Backfill(
            dailyAt: dailyAt,
            everyMinutes: atLeast(0, "backfill.every_minutes", unit: "minutes", why: "0 turns the periodic run off"),
            jobs: atLeast(1, "backfill.jobs", unit: "job"),
            leaseSeconds: atLeast(1, "backfill.lease_seconds", unit: "second")
        )

        let share = BelayConfiguration.Share(instagramAppID: appID("share.instagram_app_id"), facebookAppID: appID("share.facebook_app_id"))

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
            allowPrivateAddresses: allowPrivate == 1
        )

        // calendar
        let alarm = integer("calendar.alarm_minutes_before")
        if !(0...10_080).contains(alarm) {
            refuse("calendar.alarm_minutes_before", "\(alarm) is not a number of minutes from 0 (no reminder) to 10080 (a week before)")
        }
        let calendar = BelayConfiguration.Calendar(alarmMinutesBefore: alarm)
        let meetups = BelayConfiguration.Meetups(
            completeEverySeconds: atLeast(0, "meetups.complete_every_seconds", unit: "seconds", why: "0 turns it off"))
        let waitlist = BelayConfiguration.Waitlist(
            claimMinutes: atLeast(0, "waitlist.claim_minutes", unit: "minutes", why: "0 promotes the first waitlisted member at once"),
            cutoffMinutes: atLeast(0, "waitlist.cutoff_minutes", unit: "minutes"))

        return BelayConfiguration(
            server: server,
            dataDirectory: dataDirectory,
            databasePath: databasePath,
            databaseDurability: durability ?? .full,
            assetsDirectory: nonEmpty("assets_directory", what: "the directory of backgrounds and hold artworks, e.g. ./Assets"),
            migrationsDirectory: nonEmpty("migrations_directory", what: "the directory of NNNN_name.sql migrations, e.g. ./Migrations"),
            fonts: fonts,
            club: club,
            checkIn: checkIn,
            rewards: rewards,
            render: render,
            backfill: backfill,
            share: share,
            webhooks: webhooks,
            calendar: calendar,
            meetups: meetups,
            waitlist: waitlist,
            sourceFile: sourceFile
        )
    }
}
