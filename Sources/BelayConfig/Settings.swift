import BelayCore
import Foundation

/// One setting of `config.json`, declared once: its key, type, built-in default, check, a line
/// of meaning, and the property of `BelayConfiguration` it fills (which `belay config show`
/// also prints it from).
///
/// `SettingDeclaration.all` is the one list of settings. The built-in defaults (and so
/// `config.json`, which a test keeps equal to them), the schema's keys and types, the
/// validator's per-key checks, the configuration a load makes (by walking the declarations,
/// each filling its property) and `config show` are made from it; the README's table is
/// checked against it (every key, its default, and its meaning within the row).
struct SettingDeclaration: Sendable {
    /// The dotted key path, e.g. `server.port`.
    let key: String
    let type: ConfigurationSchema.ValueType
    /// The built-in default, as it is written in `config.json`.
    let defaultValue: JSONValue
    let check: SettingCheck
    /// What the setting does, in one line (the README's table says the same, and more).
    let meaning: String
    /// Whether the value is a file-system path (or a list of paths), resolved against the
    /// directory of the file it is written in.
    let isPath: Bool
    /// Writes the setting's value (of `type`, as the loader has checked) into its property.
    let fill: @Sendable (JSONValue, inout BelayConfiguration) -> Void
    /// The effective value as `config show` prints it (secrets left out).
    let shown: @Sendable (BelayConfiguration) -> JSONValue

    /// A setting whose value `read` turns into `field`'s and `show` back into JSON.
    private static func declared<Value>(
        _ key: String, _ type: ConfigurationSchema.ValueType, _ defaultValue: JSONValue, _ check: SettingCheck, _ meaning: String,
        isPath: Bool = false, field: WritableKeyPath<BelayConfiguration, Value> & Sendable,
        read: @escaping @Sendable (JSONValue) -> Value, show: @escaping @Sendable (Value) -> JSONValue
    ) -> SettingDeclaration {
        SettingDeclaration(key: key, type: type, defaultValue: defaultValue, check: check, meaning: meaning, isPath: isPath,
                           fill: { value, configuration in configuration[keyPath: field] = read(value) },
                           shown: { show($0[keyPath: field]) })
    }

    static func integer(_ key: String, _ value: Int, _ check: SettingCheck, _ meaning: String,
                        field: WritableKeyPath<BelayConfiguration, Int> & Sendable) -> SettingDeclaration {
        declared(key, .integer, .int(Int64(value)), check, meaning, field: field, read: number, show: { .int(Int64($0)) })
    }

    /// A switch written `1` (on) or `0` (off); `refusal` follows the refused number.
    static func flag(_ key: String, _ value: Bool, refusal: String, _ meaning: String,
                     field: WritableKeyPath<BelayConfiguration, Bool> & Sendable) -> SettingDeclaration {
        declared(key, .integer, .int(value ? 1 : 0), .integer(0...1) { "\($0) \(refusal)" }, meaning,
                 field: field, read: { number($0) == 1 }, show: { .int($0 ? 1 : 0) })
    }

    /// Text; `normalised` rewrites it as the property keeps it, `shown` replaces the property's
    /// text in `config show` (for secrets).
    static func string(_ key: String, _ value: String, _ check: SettingCheck, _ meaning: String,
                       field: WritableKeyPath<BelayConfiguration, String> & Sendable,
                       normalised: @escaping @Sendable (String) -> String = { $0 },
                       shown: (@Sendable (String) -> String)? = nil) -> SettingDeclaration {
        declared(key, .string, .string(value), check, meaning, field: field,
                 read: { normalised(text($0)) }, show: { .string(shown?($0) ?? $0) })
    }

    /// Text read into another type: `read` parses what the check let through and `written`
    /// writes the property back as `config show` prints it.
    static func string<Value>(_ key: String, _ value: String, _ check: SettingCheck, _ meaning: String,
                              field: WritableKeyPath<BelayConfiguration, Value> & Sendable,
                              read: @escaping @Sendable (String) -> Value,
                              written: @escaping @Sendable (Value) -> String) -> SettingDeclaration {
        declared(key, .string, .string(value), check, meaning, field: field, read: { read(text($0)) }, show: { .string(written($0)) })
    }

    /// One of an enumeration's cases, written as its raw value; `refusal` follows another word.
    static func choice<Choice: CaseIterable & RawRepresentable & Sendable>(
        _ key: String, _ value: Choice, refusal: String, _ meaning: String,
        field: WritableKeyPath<BelayConfiguration, Choice> & Sendable
    ) -> SettingDeclaration where Choice.RawValue == String {
        declared(key, .string, .string(value.rawValue), .oneOf(Choice.self, refusal: refusal), meaning, field: field,
                 read: { value in
                     // The check refuses any other word, and a load with a refusal throws: the
                     // first case only fills the property of a configuration never returned.
                     guard let choice = Choice(rawValue: text(value)) ?? Choice.allCases.first else {
                         preconditionFailure("\(Choice.self) has no case to choose")
                     }
                     return choice
                 }, show: { .string($0.rawValue) })
    }

    /// A file-system path; relative ones are resolved against the file's directory.
    static func path(_ key: String, _ value: String, _ check: SettingCheck, _ meaning: String,
                     field: WritableKeyPath<BelayConfiguration, String> & Sendable) -> SettingDeclaration {
        declared(key, .string, .string(value), check, meaning, isPath: true, field: field, read: text, show: { .string($0) })
    }

    /// A comma-separated list in one string, empty by default; `item` checks each entry, and
    /// the property keeps the entries trimmed (and `normalised`), empty ones dropped.
    static func list(_ key: String, item: SettingCheck, _ meaning: String,
                     field: WritableKeyPath<BelayConfiguration, [String]> & Sendable,
                     normalised: @escaping @Sendable (String) -> String = { $0 }) -> SettingDeclaration {
        declared(key, .string, .string(""), item, meaning, field: field,
                 read: { listItems(text($0)).map(normalised) }, show: { .string($0.joined(separator: ",")) })
    }

    /// A JSON array of paths, each resolved like a `path`; blank entries are dropped.
    static func paths(_ key: String, _ value: [String], _ meaning: String,
                      field: WritableKeyPath<BelayConfiguration, [String]> & Sendable) -> SettingDeclaration {
        declared(key, .stringList, .array(value.map(JSONValue.string)), .none, meaning, isPath: true, field: field,
                 read: { value in
                     guard case let .array(items) = value else { preconditionFailure("\(key) holds \(value.described), not an array") }
                     return items.compactMap { item in
                         guard case let .string(path) = item, !path.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
                         return path
                     }
                 }, show: { .array($0.map(JSONValue.string)) })
    }

    /// An object whose keys the club chooses; a file that sets it replaces it whole. `entry`
    /// reads one member or says why it is refused (about `key.member`); `whole` checks the
    /// entries read, given how many members there were. `shown` lists the property's entries
    /// in the order `config show` prints them.
    static func map<Key: Hashable, Value>(
        _ key: String, of leaf: ConfigurationSchema.ValueType.Leaf, _ value: [(String, JSONValue)], _ meaning: String,
        field: WritableKeyPath<BelayConfiguration, [Key: Value]> & Sendable,
        entry: @escaping @Sendable (String, JSONValue) -> Result<(Key, Value), SettingRefusal>,
        whole: @escaping @Sendable ([Key: Value], _ members: Int) -> String? = { _, _ in nil },
        shown: @escaping @Sendable ([Key: Value]) -> [(String, JSONValue)]
    ) -> SettingDeclaration {
        @Sendable func members(_ value: JSONValue) -> JSONObject {
            guard case let .object(members) = value else { preconditionFailure("\(key) holds \(value.described), not an object") }
            return members
        }
        @Sendable func read(_ value: JSONValue) -> [Key: Value] {
            var entries: [Key: Value] = [:]
            for member in members(value) {
                if case let .success((entryKey, entryValue)) = entry(member.key, member.value) { entries[entryKey] = entryValue }
            }
            return entries
        }
        let check = SettingCheck.entries { value in
            var refusals: [(member: String?, message: String)] = []
            for member in members(value) {
                if case let .failure(refusal) = entry(member.key, member.value) { refusals.append((member.key, refusal.message)) }
            }
            if refusals.isEmpty, let refusal = whole(read(value), members(value).count) { refusals.append((nil, refusal)) }
            return refusals
        }
        return declared(key, .map(of: leaf), .object(JSONObject(value)), check, meaning, field: field,
                        read: read, show: { .object(JSONObject(shown($0))) })
    }

    /// The integer a setting of type `.integer` holds (the loader has checked the type).
    private static func number(_ value: JSONValue) -> Int {
        guard let number = value.integerValue else { preconditionFailure("an integer setting holds \(value.described)") }
        return number
    }

    /// The text a setting of type `.string` holds (the loader has checked the type).
    private static func text(_ value: JSONValue) -> String {
        guard case let .string(text) = value else { preconditionFailure("a string setting holds \(value.described)") }
        return text
    }

    /// The entries of a comma-separated list, each trimmed, empty entries dropped.
    static func listItems(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// How one setting's value is checked on its own. Rules that read several keys are `custom`:
/// `ConfigurationValidator` checks them on the filled configuration, naming the key.
enum SettingCheck: Sendable {
    case none
    /// An integer in `range`; `refusal` says why another number cannot work.
    case integer(ClosedRange<Int>, refusal: @Sendable (Int) -> String)
    /// One of `words`; `refusal` follows the quoted value.
    case oneOf([String], refusal: String)
    /// Not empty (nor only spaces); `what` says what to give.
    case nonEmpty(what: String)
    /// An http(s) URL with a host, such as `example`.
    case httpURL(example: String)
    /// Empty, or an http(s) URL with a host.
    case httpURLOrEmpty(example: String)
    /// A check of the text: the refusal, or nil when it is fine.
    case text(@Sendable (String) -> String?)
    /// A check of each entry of a comma-separated list, as `text`.
    case eachItem(@Sendable (String) -> String?)
    /// A check of an object's members: each refusal names its member, or none for the whole.
    case entries(@Sendable (JSONValue) -> [(member: String?, message: String)])
    case custom

    /// At least `minimum` (`unit` after the number; `why` in parentheses).
    static func atLeast(_ minimum: Int, _ unit: String, why: String = "") -> SettingCheck {
        .integer(minimum...Int.max) { tooSmall($0, minimum, unit, why) }
    }

    /// At least `minimum` as `atLeast`, and at most `maximum` with `above`'s refusal.
    static func atLeast(_ minimum: Int, _ unit: String, why: String = "", atMost maximum: Int,
                        _ above: @escaping @Sendable (Int) -> String) -> SettingCheck {
        .integer(minimum...maximum) { $0 < minimum ? tooSmall($0, minimum, unit, why) : above($0) }
    }

    private static func tooSmall(_ number: Int, _ minimum: Int, _ unit: String, _ why: String) -> String {
        "\(number) is too small; it must be at least \(minimum) \(unit)\(why.isEmpty ? "" : " (\(why))")"
    }

    /// The words of an enumeration's cases.
    static func oneOf<Words: CaseIterable & RawRepresentable>(_ words: Words.Type, refusal: String) -> SettingCheck
    where Words.RawValue == String {
        .oneOf(words.allCases.map(\.rawValue), refusal: refusal)
    }
}

extension SettingDeclaration {
    private static let yearOfMinutes = 366 * 24 * 60
    private static let fontFile = "the path of a .ttf or .otf font file"

    /// Every setting, in the order of `config.json`.
    static let all: [SettingDeclaration] = server + data + fonts + club + checkIn + rewards + render + backfill + share + appLinks
        + webhooks + meetups + logbook + accounts + moderation + console + auth + mail + rateLimits + push + images

    /// `server`: the HTTP listener.
    private static let server: [SettingDeclaration] = [
        .string("server.host", "127.0.0.1", .nonEmpty(what: "an address such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"),
                "where the API listens", field: \.server.host),
        .integer("server.port", 8080, .integer(0...65535) { "\($0) is not a port (1–65535, or 0 for any free port)" },
                 "port `0` picks a free port and prints it", field: \.server.port),
        .integer("server.threads", 0, .integer(0...Int.max) { "\($0) is not a thread count (1 or more, or 0 for one per core)" },
                 "HTTP worker threads", field: \.server.threads),
        .integer("server.connection_timeout_seconds", 30, .atLeast(1, "second"),
                 "idle keep-alive connections are closed after this", field: \.server.connectionTimeoutSeconds),
        .integer("server.header_timeout_seconds", 10, .atLeast(1, "second"),
                 "a request's line and headers must arrive within this", field: \.server.headerTimeoutSeconds),
        .integer("server.shutdown_grace_seconds", 10, .atLeast(0, "second"),
                 "after SIGTERM, requests in flight get this long to finish", field: \.server.shutdownGraceSeconds),
        .integer("server.max_connections", 8192, .atLeast(1, "connection"), "connections served at once, in all and from one address",
                 field: \.server.maxConnections),
        .integer("server.max_connections_per_ip", 256, .atLeast(1, "connection"), "connections served at once, in all and from one address",
                 field: \.server.maxConnectionsPerIP),
        .integer("server.max_body_bytes", 65536, .atLeast(1024, "bytes", why: "room for a share event's JSON body"),
                 "larger request bodies are answered 413", field: \.server.maxBodyBytes),
        .string("server.public_base_url", "http://127.0.0.1:8080", .httpURL(example: "https://belay.example"),
                "the address the app reaches; image URLs and share links start with it", field: \.server.publicBaseURL),
        .list("server.trusted_proxies", item: .eachItem { address in
                  ConfigurationValidator.isNumericAddress(address) ? nil
                      : "\(JSONOutput.quoted(address)) is not a numeric IP address; list the proxies' addresses, e.g. \"127.0.0.1,::1\""
              }, "numeric addresses of reverse proxies in front", field: \.server.trustedProxies),
    ]

    /// Where the data is: the directories, the SQLite file, the PostgreSQL server.
    private static let data: [SettingDeclaration] = [
        .path("data_directory", "./data", .nonEmpty(what: "the directory for the database and rendered images, e.g. ./data"),
              "the database, rendered images and backups live here", field: \.dataDirectory),
        .path("database_path", "", .none, "the SQLite file", field: \.databasePath),
        .choice("database_durability", BelayConfiguration.Durability.full,
                refusal: "is not a durability (full: every acknowledged write survives power loss; normal: faster, but the last writes before a power loss can be lost)",
                "what a commit guarantees when it returns", field: \.databaseDurability),
        .string("database.url", "", .custom, "puts the data on a PostgreSQL server that several nodes share",
                field: \.database.url, normalised: { $0.trimmingCharacters(in: .whitespaces) }, shown: PasswordRedaction.redacted),
        .integer("database.max_connections", 8, .atLeast(1, "connection"), "PostgreSQL connections one process keeps open at most for reads",
                 field: \.database.maxConnections),
        .integer("database.writer_connections", 2, .atLeast(1, "connection"), "PostgreSQL connections one process writes on, each with its thread",
                 field: \.database.writerConnections),
        .integer("database.statement_timeout_ms", 5000, .atLeast(0, "milliseconds", why: "0 sets no limit"),
                 "the longest one statement may run on PostgreSQL", field: \.database.statementTimeoutMilliseconds),
        .string("database.backup_url", "", .text { url in
                    url.isEmpty || (url.hasPrefix("s3://") && url.count > 5) ? nil
                        : "\(JSONOutput.quoted(url)) is not s3://bucket/prefix/, or \"\" for no scheduled backups"
                }, "where `belay serve` sends a SQLite club's scheduled backups", field: \.database.backupURL),
        .integer("database.backup_every_hours", 0, .atLeast(0, "hours", why: "0 turns scheduled backups off"),
                 "how often `belay serve` backs the SQLite database up into `database.backup_url`", field: \.database.backupEveryHours),
        .integer("database.backup_keep", 7, .atLeast(1, "backup"), "the newest backups kept there; older ones are deleted",
                 field: \.database.backupKeep),
        .path("assets_directory", "./Assets", .nonEmpty(what: "the directory of backgrounds and hold artworks, e.g. ./Assets"),
              "hold and background artwork with their catalogues", field: \.assetsDirectory),
        .path("migrations_directory", "./Migrations", .nonEmpty(what: "the directory of NNNN_name.sql migrations, e.g. ./Migrations"),
              "forward-only SQL migrations", field: \.migrationsDirectory),
    ]

    /// `fonts`: the text fallback chain.
    private static let fonts: [SettingDeclaration] = [
        .path("fonts.bold", "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf", .nonEmpty(what: fontFile), "the text fallback chain",
              field: \.fonts.bold),
        .path("fonts.regular", "/usr/share/fonts/opentype/inter/Inter-Regular.otf", .nonEmpty(what: fontFile), "the text fallback chain",
              field: \.fonts.regular),
        .paths("fonts.fallbacks", debianFallbacks, "font files tried in order after Inter and before the emoji font", field: \.fonts.fallbacks),
        .path("fonts.emoji", "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", .nonEmpty(what: fontFile), "the text fallback chain",
              field: \.fonts.emoji),
        .path("fonts.last_resort", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", .nonEmpty(what: fontFile), "the text fallback chain",
              field: \.fonts.lastResort),
    ]

    /// `club`: who the club is and where it lives.
    private static let club: [SettingDeclaration] = [
        .string("club.name", "Belay Climbing Club", .nonEmpty(what: "the club's name as members know it"), "the club's name as members know it",
                field: \.club.name),
        .string("club.time_zone", "Asia/Seoul", .text { zone in
                    TimeZone(identifier: zone) != nil ? nil
                        : "\(JSONOutput.quoted(zone)) is not a known IANA time zone (e.g. Asia/Seoul, Europe/Berlin, UTC)"
                }, "the zone of new meetups and of `backfill.daily_at`", field: \.club.timeZone),
        .string("club.locale", "ko_KR", .text { locale in
                    guard !Locale.availableIdentifiers.contains(locale) else { return nil }
                    var message = "\(JSONOutput.quoted(locale)) is not a known locale (e.g. ko_KR, en_US)"
                    let underscored = locale.replacingOccurrences(of: "-", with: "_")
                    if underscored != locale, Locale.availableIdentifiers.contains(underscored) {
                        message += "; did you mean \(JSONOutput.quoted(underscored))?"
                    }
                    return message
                }, "dates on stickers are drawn in the meetup's zone and this locale", field: \.club.locale),
        .string("club.share_link_base_url", "",
                .httpURLOrEmpty(example: "https://belay.example/s/, or \"\" for Belay's own share pages"),
                "base of the share link", field: \.club.shareLinkBaseURL),
        .path("club.logo", "", .text { logo in
                  logo.isEmpty || FileManager.default.isReadableFile(atPath: logo) ? nil
                      : "\(JSONOutput.quoted(logo)) does not exist or cannot be read; name a PNG of the club's mark, or \"\" for a monogram of the club's name"
              }, "a PNG of the club's mark, drawn beside the club's name on stories and share cards", field: \.club.logo),
        .string("club.contact_email", "", .text { address in
                    address.isEmpty || (address.contains("@") && !address.contains(where: { $0.isWhitespace })) ? nil
                        : "\(JSONOutput.quoted(address)) is not an email address; give one such as \"moderators@club.example\", or \"\" for none"
                }, "where members write to the club: a moderator's notice names it as the address to appeal to", field: \.club.contactEmail),
    ]

    /// `check_in`: when and how members check in.
    private static let checkIn: [SettingDeclaration] = [
        .integer("check_in.opens_minutes_before_start", 30, .integer(0...yearOfMinutes) { opens in
                     opens < 0
                         ? "\(opens) would open check-in only after the meetup has started (and after it closes, for a short meetup); give 0 or more minutes before the start"
                         : "\(opens) minutes is more than a year; give the minutes before the start at which check-in opens"
                 }, "the check-in window", field: \.checkIn.opensMinutesBeforeStart),
        .integer("check_in.closes_minutes_after_end", 120, .integer(0...yearOfMinutes) { closes in
                     closes < 0
                         ? "\(closes) would close the check-in window before the meetup ends (before it opens, for a short meetup); give 0 or more minutes after the end"
                         : "\(closes) minutes is more than a year; give the minutes after the end at which check-in closes"
                 }, "the check-in window", field: \.checkIn.closesMinutesAfterEnd),
        .integer("check_in.code_step_seconds", 30, .integer(30...60) {
                     "\($0) seconds is outside 30–60: shorter codes expire while being typed, longer ones can be passed on to someone not there"
                 }, "how often the rotating check-in code changes", field: \.checkIn.codeStepSeconds),
        .integer("check_in.max_wrong_attempts", 5, .atLeast(1, "attempt"), "wrong codes before a member is refused `too_many_attempts`",
                 field: \.checkIn.maxWrongAttempts),
        .integer("check_in.retention_days", 7, .atLeast(1, "day", why: "a retried check-in must still find its idempotency key"),
                 "days check-in idempotency keys and wrong-code counters are kept", field: \.checkIn.retentionDays),
    ]

    /// `rewards`: which hold a check-in earns.
    private static let rewards: [SettingDeclaration] = [
        .map("rewards.milestones", of: .string, [
            ("1", .string("jug-gold")), ("10", .string("crimp-silver")), ("25", .string("sloper-emerald")),
            ("50", .string("pinch-obsidian")), ("100", .string("volume-aurora")),
        ], "the hold for a member's Nth check-in", field: \.rewards.milestones,
             entry: { milestone($0, $1, counting: "a check-in count", example: "10") }, shown: shownMilestones),
        .map("rewards.streak_milestones", of: .string, [], "weeks in a row → the hold for the check-in that first makes a member's weekly streak that long",
             field: \.rewards.streakMilestones,
             entry: { milestone($0, $1, counting: "a number of weeks in a row", example: "4") }, shown: shownMilestones),
        .map("rewards.rarity_weights", of: .integer, [
            ("common", .int(60)), ("uncommon", .int(25)), ("rare", .int(12)), ("epic", .int(3)),
        ], "the weighted pick otherwise", field: \.rewards.rarityWeights, entry: { rarity, value in
            guard let weight = value.integerValue else { return .failure(SettingRefusal("expected an integer, found \(value.described)")) }
            if rarity.trimmingCharacters(in: .whitespaces).isEmpty { return .failure(SettingRefusal("a rarity needs a name, e.g. \"common\"")) }
            if weight < 0 { return .failure(SettingRefusal("\(weight) is negative; a weight is 0 (never picked) or more")) }
            return .success((rarity, weight))
        }, whole: { weights, members in
            if members == 0 { return "is empty; give each rarity a weight, e.g. {\"common\": 60, \"rare\": 12}" }
            return weights.values.reduce(0, +) == 0 ? "every weight is 0, so no hold could be picked; give at least one rarity a weight above 0" : nil
        }, shown: { weights in
            weights.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { ($0.key, .int(Int64($0.value))) }
        }),
        .path("rewards.badge_keys_directory", "", .none,
              "the badge signing keys and member secret; empty: `data_directory/badge-keys`, made at the first start. Set: a copy of one directory on every node, which must already hold the keys (`belay badges rotate-key` makes them)",
              field: \.rewards.badgeKeysDirectory),
    ]

    /// One member of a milestone map: a whole number from 1 and the hold it earns.
    private static func milestone(_ key: String, _ value: JSONValue, counting what: String, example: String) -> Result<(Int, String), SettingRefusal> {
        guard let count = Int(key), count >= 1, String(count) == key else {
            return .failure(SettingRefusal("\(JSONOutput.quoted(key)) is not \(what); keys are whole numbers from 1, e.g. \"\(example)\""))
        }
        guard case let .string(hold) = value, !hold.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(SettingRefusal("must name a hold id from Assets/holds/catalog.json, e.g. \"jug-gold\""))
        }
        return .success((count, hold))
    }

    /// A milestone map as `config show` prints it, by count.
    private static let shownMilestones: @Sendable ([Int: String]) -> [(String, JSONValue)] = { milestones in
        milestones.sorted { $0.key < $1.key }.map { (String($0.key), .string($0.value)) }
    }

    /// `render`: image rendering.
    private static let render: [SettingDeclaration] = [
        .integer("render.workers", 2, .custom, "render worker threads in `belay serve` and `belay worker`", field: \.render.workers),
        .choice("render.story_format", BelayConfiguration.StoryFormat.png, refusal: "is not a story format (png or jpeg)",
                "the story image as PNG or JPEG", field: \.render.storyFormat),
        .integer("render.jpeg_quality", 90, .integer(1...100) { "\($0) is not a JPEG quality (1–100)" }, "the story image as PNG or JPEG",
                 field: \.render.jpegQuality),
        .integer("render.max_image_side", 8192, .atLeast(1920, "pixels", why: "the story image is 1080x1920"), "larger artwork is refused",
                 field: \.render.maxImageSide),
        .integer("render.max_decoded_bytes", 67_108_864, .atLeast(1080 * 1920 * 4, "bytes", why: "one decoded 1080x1920 RGBA story image"),
                 "larger artwork is refused", field: \.render.maxDecodedBytes),
        .integer("render.max_attempts", 5, .atLeast(1, "attempt"), "failed renders retry with doubling back-off", field: \.render.maxAttempts),
        .integer("render.retry_base_seconds", 30, .atLeast(1, "second"), "failed renders retry with doubling back-off",
                 field: \.render.retryBaseSeconds),
        .flag("render.achievement_line", true,
              refusal: "is not 1 (stories and share cards lead with the day's achievement, e.g. \"12th check-in\") or 0 (no such line)",
              "stories and share cards lead with what the day meant", field: \.render.achievementLine),
    ]

    /// `backfill`: the scheduled reward backfill.
    private static let backfill: [SettingDeclaration] = [
        .string("backfill.daily_at", "", .text { text in
                    text.isEmpty || BelayConfiguration.TimeOfDay(text) != nil ? nil
                        : "\(JSONOutput.quoted(text)) is not a time of day HH:MM (00:00–23:59), or \"\" for no daily run"
                }, "schedule of the backfill inside `belay serve`",
                field: \.backfill.dailyAt, read: BelayConfiguration.TimeOfDay.init, written: { $0?.description ?? "" }),
        .integer("backfill.every_minutes", 0, .atLeast(0, "minutes", why: "0 turns the periodic run off"),
                 "schedule of the backfill inside `belay serve`", field: \.backfill.everyMinutes),
        .integer("backfill.jobs", 2, .atLeast(1, "job"), "parallel renders", field: \.backfill.jobs),
        .integer("backfill.lease_seconds", 60, .atLeast(1, "second"), "how long a crashed backfill's lease outlives it",
                 field: \.backfill.leaseSeconds),
    ]

    /// `share`: Stories and share events.
    private static let share: [SettingDeclaration] = [
        .string("share.instagram_app_id", "", .text(facebookAppID), "Facebook App ID for Stories links", field: \.share.instagramAppID),
        .string("share.facebook_app_id", "", .text(facebookAppID), "Facebook App ID for Stories links", field: \.share.facebookAppID),
        .choice("share.stories_background", BelayConfiguration.StoriesBackground.image,
                refusal: "is neither \"image\" (the gradient as a PNG under the sticker) nor \"colors\" (only the two colours)",
                "what Instagram/Facebook Stories get under the sticker", field: \.share.storiesBackground),
        .integer("share.stories_background_width", 720, storiesBackgroundSide, "size of that background PNG",
                 field: \.share.storiesBackgroundWidth),
        .integer("share.stories_background_height", 1280, storiesBackgroundSide, "size of that background PNG",
                 field: \.share.storiesBackgroundHeight),
        .integer("share.max_events_per_reward", 50, .atLeast(1, "event"), "share events one member may record for one reward",
                 field: \.share.maxEventsPerReward),
        .integer("share.events_retention_days", 400, .atLeast(1, "day", why: "older events are counted per day, so the day in progress must stay"),
                 "days share events are kept one by one", field: \.share.eventsRetentionDays),
    ]

    /// `app_links`: the club's apps.
    private static let appLinks: [SettingDeclaration] = [
        .list("app_links.ios_app_ids", item: .eachItem { id in
                  ConfigurationValidator.isAppleAppID(id) ? nil
                      : "\(JSONOutput.quoted(id)) is not an app id TEAMID.bundle.id (a 10-character team id, a dot, the bundle id), e.g. \"A1B2C3D4E5.club.belay.app\""
              }, "so share links open the iOS app", field: \.appLinks.iosAppIDs),
        .string("app_links.android_package", "", .text { id in
                    id.isEmpty || ConfigurationValidator.isAndroidPackage(id) ? nil
                        : "\(JSONOutput.quoted(id)) is not an Android application id such as club.belay.app"
                }, "the Android app and its signing certificates' SHA-256", field: \.appLinks.androidPackage),
        .list("app_links.android_sha256_fingerprints", item: .eachItem { fingerprint in
                  ConfigurationValidator.isSHA256Fingerprint(fingerprint.uppercased()) ? nil
                      : "\(JSONOutput.quoted(fingerprint.uppercased())) is not a SHA-256 certificate fingerprint (32 hex pairs joined by colons, as keytool -list prints it)"
              }, "the Android app and its signing certificates' SHA-256",
              field: \.appLinks.androidSHA256Fingerprints, normalised: { $0.uppercased() }),
        .string("app_links.app_store_url", "", .httpURLOrEmpty(example: "https://apps.apple.com/app/id1234567890"),
                "store pages linked from share pages", field: \.appLinks.appStoreURL),
        .string("app_links.play_store_url", "", .httpURLOrEmpty(example: "https://play.google.com/store/apps/details?id=club.belay.app"),
                "store pages linked from share pages", field: \.appLinks.playStoreURL),
    ]

    /// `webhooks`: signed webhook delivery.
    private static let webhooks: [SettingDeclaration] = [
        .integer("webhooks.workers", 1, .atLeast(1, "worker"), "webhook delivery threads in `belay serve`", field: \.webhooks.workers),
        .integer("webhooks.timeout_seconds", 10, .atLeast(1, "second"), "one delivery attempt, connecting included",
                 field: \.webhooks.timeoutSeconds),
        .integer("webhooks.max_attempts", 10, .atLeast(1, "attempt"), "a failed attempt is retried after 10 s, 30 s, 90 s, … (×3 each time)",
                 field: \.webhooks.maxAttempts),
        .integer("webhooks.retry_base_seconds", 10, .atLeast(1, "second"), "a failed attempt is retried after 10 s, 30 s, 90 s, … (×3 each time)",
                 field: \.webhooks.retryBaseSeconds),
        .integer("webhooks.disable_after_hours", 24, .atLeast(1, "hour"), "an endpoint failing this long without one success is disabled",
                 field: \.webhooks.disableAfterHours),
        .integer("webhooks.poll_milliseconds", 250, .atLeast(10, "milliseconds"),
                 "how often the server looks for events written by other processes", field: \.webhooks.pollMilliseconds),
        .flag("webhooks.allow_private_addresses", false,
              refusal: "is not 0 (refuse loopback, link-local and private addresses) or 1 (allow them, for a receiver on the club's own network)",
              "`1` lets endpoints be on loopback, link-local or private addresses", field: \.webhooks.allowPrivateAddresses),
        .integer("webhooks.retention_days", 30, .atLeast(1, "day", why: "an endpoint's log must show at least its last day"),
                 "days delivered and given-up deliveries (and then their events) are kept", field: \.webhooks.retentionDays),
    ]

    /// `calendar`, `meetups` and `waitlist`.
    private static let meetups: [SettingDeclaration] = [
        .integer("calendar.alarm_minutes_before", 60, .integer(0...10_080) {
                     "\($0) is not a number of minutes from 0 (no reminder) to 10080 (a week before)"
                 }, "the reminder (`VALARM`) in calendar feeds", field: \.calendar.alarmMinutesBefore),
        .string("meetups.created_by", "members", .oneOf(
                    ["members", "hosts"],
                    refusal: "is neither \"members\" (any member creates and hosts meetups) nor \"hosts\" (only hosts and admins)"),
                "who creates meetups", field: \.meetups.createdBy),
        .integer("meetups.complete_every_seconds", 60, .atLeast(0, "seconds", why: "0 turns it off"),
                 "how often `belay serve` marks meetups whose check-in window closed `completed`", field: \.meetups.completeEverySeconds),
        .integer("waitlist.claim_minutes", 0, .atLeast(0, "minutes", why: "0 promotes the first waitlisted member at once"),
                 "`0` promotes the first waitlisted member into a freed place at once", field: \.waitlist.claimMinutes),
        .integer("waitlist.cutoff_minutes", 120, .atLeast(0, "minutes"), "from this long before the start no offers are made",
                 field: \.waitlist.cutoffMinutes),
    ]

    /// `logbook`: the story's climbing line and gym rankings.
    private static let logbook: [SettingDeclaration] = [
        .integer("logbook.story_refresh_seconds", 120, .integer(10...86_400) { "\($0) is not a number of seconds from 10 to 86400" },
                 "ticks logged after a reward's story was drawn redraw it at most this often", field: \.logbook.storyRefreshSeconds),
        .integer("logbook.ranking_best", 10, .integer(1...100) { "\($0) is not a number of sends from 1 to 100" },
                 "a gym's ranking sums each member's this many hardest sends", field: \.logbook.rankingBest),
        .integer("logbook.ranking_days", 60, .integer(1...3_660) { "\($0) is not a number of days from 1 to 3660" },
                 "over this many days", field: \.logbook.rankingDays),
        .integer("logbook.project_ending_days", 3, .integer(0...30) { "\($0) is not a number of days from 0 to 30" },
                 "a member who tried a problem and has not sent it is told this many days before its expected removal (0: never)",
                 field: \.logbook.projectEndingDays),
    ]

    /// `accounts`: sign-up and sessions.
    private static let accounts: [SettingDeclaration] = [
        .string("accounts.sign_up", "open", .oneOf(
                    ["open", "invite", "closed"],
                    refusal: "is not \"open\" (anyone who signs in gets an account), \"invite\" (a first sign-in needs an invite code) or \"closed\" (only accounts an admin made)"),
                "a first sign-in creates the account (`open`), needs an invite code (`invite`), or is refused unless an admin made the account (`closed`)",
                field: \.accounts.signUp),
        .integer("accounts.access_token_minutes", 60, .atLeast(1, "minute"), "an access token's life", field: \.accounts.accessTokenMinutes),
        .integer("accounts.refresh_token_days", 60, .atLeast(1, "day"), "a session ends when its refresh token goes unused this many days",
                 field: \.accounts.refreshTokenDays),
        .integer("accounts.email_code_minutes", 10, .atLeast(1, "minute"), "how long a mailed code and link work",
                 field: \.accounts.emailCodeMinutes),
        .integer("accounts.max_wrong_email_codes", 5, .atLeast(1, "attempt"), "wrong codes that void it", field: \.accounts.maxWrongEmailCodes),
        .integer("accounts.recent_sign_in_minutes", 10, .atLeast(1, "minute"), "how fresh a sign-in must be to delete the account",
                 field: \.accounts.recentSignInMinutes),
        .string("accounts.terms_version", "", .text { version in
                    version.count <= 40 && !version.contains(where: { $0.isWhitespace || $0.isNewline }) ? nil
                        : "\(JSONOutput.quoted(version)) is not a terms version (1–40 characters without spaces, such as \"2026-12\"), or \"\" for no terms"
                }, "the version of the club's terms every member must accept before changing anything; raising it asks everyone again",
                field: \.accounts.termsVersion),
        .string("accounts.terms_url", "", .text { address in
                    // `{locale}` becomes the member's language (ko, ja or en).
                    let url = URL(string: address.replacingOccurrences(of: "{locale}", with: "en"))
                    return address.isEmpty || (["http", "https"].contains(url?.scheme?.lowercased() ?? "") && !(url?.host ?? "").isEmpty) ? nil
                        : "\(JSONOutput.quoted(address)) is not an http(s) URL such as https://club.example/{locale}/terms, or \"\" for none"
                }, "where members read the terms",
                field: \.accounts.termsURL),
    ]

    /// `console`: the web console's sign-in.
    private static let console: [SettingDeclaration] = [
        .choice("console.admin_second_factor", BelayConfiguration.Console.AdminSecondFactor.optional,
                refusal: "is not \"optional\" (admins may enrol an authenticator) or \"required\" (admins enrol before any other console page)",
                "whether admins must enrol an authenticator app (TOTP) before any other console page and before the app signs them in (`required`) or may (`optional`)",
                field: \.console.adminSecondFactor),
    ]

    /// `moderation`: reports and the automatic hide.
    private static let moderation: [SettingDeclaration] = [
        .integer("moderation.auto_hide_reports", 5, .atLeast(0, "reports", why: "0 never hides automatically"),
                 "distinct members whose reports of one meetup, member or page within the window hide it until a moderator looks",
                 field: \.moderation.autoHideReports),
        .integer("moderation.auto_hide_window_hours", 24, .atLeast(1, "hour"), "the window of the automatic hide",
                 field: \.moderation.autoHideWindowHours),
        .integer("moderation.reports_per_member_per_day", 20, .atLeast(0, "reports", why: "0 switches the limit off"),
                 "new reports one member may file in 24 hours", field: \.moderation.reportsPerMemberPerDay),
        .path("moderation.blocked_terms_file", "", .custom,
              "words the club does not allow in titles, descriptions, names and handles, one per line", field: \.moderation.blockedTermsFile),
        .integer("moderation.new_member_days", 0, .atLeast(0, "days", why: "0 switches the rule off"),
                 "members whose account is younger than this cannot put links in meetup descriptions", field: \.moderation.newMemberDays),
    ]

    /// `auth`: identity providers.
    private static let auth: [SettingDeclaration] = [
        .list("auth.apple.client_ids", item: .none, "the app's bundle ids and Services ids accepted as the token's `aud`",
              field: \.auth.apple.clientIDs),
        .string("auth.apple.jwks_url", "https://appleid.apple.com/auth/keys", .httpURL(example: "https://appleid.apple.com/auth/keys"),
                "Apple's keys and endpoints", field: \.auth.apple.jwksURL),
        .string("auth.apple.team_id", "", .none, "the team's Sign in with Apple key", field: \.auth.apple.teamID),
        .string("auth.apple.key_id", "", .none, "the team's Sign in with Apple key", field: \.auth.apple.keyID),
        .path("auth.apple.private_key_file", "", .custom, "the team's Sign in with Apple key", field: \.auth.apple.privateKeyFile),
        .string("auth.apple.token_url", "https://appleid.apple.com/auth/token", .httpURL(example: "https://appleid.apple.com/auth/token"),
                "Apple's keys and endpoints", field: \.auth.apple.tokenURL),
        .string("auth.apple.revoke_url", "https://appleid.apple.com/auth/revoke", .httpURL(example: "https://appleid.apple.com/auth/revoke"),
                "Apple's keys and endpoints", field: \.auth.apple.revokeURL),
        .list("auth.google.client_ids", item: .none, "the OAuth client ids accepted as `aud`", field: \.auth.google.clientIDs),
        .string("auth.google.jwks_url", "https://www.googleapis.com/oauth2/v3/certs", .httpURL(example: "https://www.googleapis.com/oauth2/v3/certs"),
                "the OAuth client ids accepted as `aud`", field: \.auth.google.jwksURL),
    ]

    /// `mail`: outgoing mail over SMTP, or the development outbox.
    private static let mail: [SettingDeclaration] = [
        .choice("mail.transport", BelayConfiguration.Mail.Transport.auto,
                refusal: "is not a mail transport (auto, smtp, outbox or off)",
                "`auto`: SMTP when `smtp_url` is set, else the development outbox (files under `data_directory/mail-outbox` and the log) while `server.public_base_url` is on this machine or a private network; `smtp`, `outbox` or `off` to choose",
                field: \.mail.transport),
        .string("mail.smtp_url", "", .text { url in
                    let parsed = URL(string: url)
                    let scheme = parsed?.scheme?.lowercased() ?? ""
                    return url.isEmpty || (["smtp", "smtps"].contains(scheme) && !(parsed?.host ?? "").isEmpty) ? nil
                        : "\(JSONOutput.quoted(PasswordRedaction.redacted(url))) is not smtps://host:465 or smtp://host:587, or \"\" for no mail"
                }, "`smtps://host:465` or `smtp://host:587` (STARTTLS)",
                field: \.mail.smtpURL, shown: PasswordRedaction.redacted),
        .string("mail.username", "", .none, "SMTP login and the sender", field: \.mail.username),
        // The password is never shown; an empty one stays empty so the output says whether one is set.
        .string("mail.password", "", .none, "SMTP login and the sender", field: \.mail.password, shown: { $0.isEmpty ? "" : "********" }),
        .string("mail.from", "", .custom, "SMTP login and the sender", field: \.mail.from),
        .flag("mail.require_tls", true,
              refusal: "is not 1 (send only over TLS) or 0 (allow plain SMTP to a relay on this machine)",
              "`0` allows plain SMTP, for a relay on the same machine", field: \.mail.requireTLS),
    ]

    /// `rate_limits`: how much one caller may ask.
    private static let rateLimits: [SettingDeclaration] = [
        .integer("rate_limits.auth_per_address_per_minute", 30, .atLeast(0, "requests", why: "0 switches the limit off"),
                 "requests to `/v1/auth/*` from one client address per minute", field: \.rateLimits.authPerAddressPerMinute),
        .integer("rate_limits.auth_per_email_per_hour", 5, .atLeast(0, "messages", why: "0 switches the limit off"),
                 "sign-in mails to one address per hour", field: \.rateLimits.authPerEmailPerHour),
        .integer("rate_limits.writes_per_member_per_minute", 240, .atLeast(0, "requests", why: "0 switches the limit off"),
                 "changes (POST, PUT, PATCH, DELETE) one member may make per minute", field: \.rateLimits.writesPerMemberPerMinute),
        .integer("rate_limits.share_events_per_member_per_minute", 30, .atLeast(0, "requests", why: "0 switches the limit off"),
                 "share events one member may post per minute", field: \.rateLimits.shareEventsPerMemberPerMinute),
        .integer("rate_limits.public_per_address_per_minute", 600, .atLeast(0, "requests", why: "0 switches the limit off"),
                 "requests to share pages, badge files and hold artwork per client address per minute",
                 field: \.rateLimits.publicPerAddressPerMinute),
    ]

    /// `push`: notices through APNs and FCM.
    private static let push: [SettingDeclaration] = [
        .integer("push.reminder_minutes_before", 120, .atLeast(0, "minutes", why: "0 sends no reminders", atMost: 10_080) {
                     "\($0) minutes is more than a week; give 0 to 10080"
                 }, "a meetup's reminder goes out this long before it starts", field: \.push.reminderMinutesBefore),
        .integer("push.offer_warning_minutes", 5, .atLeast(0, "minutes", why: "0 sends no warning", atMost: 120) {
                     "\($0) minutes is more than 120; give 0 to 120"
                 }, "a member holding a waitlist offer is warned this long before it runs out", field: \.push.offerWarningMinutes),
        .integer("push.retention_days", 30, .atLeast(1, "day"), "sent notices are deleted after this many days", field: \.push.retentionDays),
        .path("push.ca_file", "", .none, "a CA bundle trusted for APNs and FCM instead of the system's", field: \.push.caFile),
        .path("push.apns.key_file", "", .custom, "the team's APNs token key (`.p8`)", field: \.push.apns.keyFile),
        .string("push.apns.key_id", "", .none, "its 10-character id", field: \.push.apns.keyID),
        .string("push.apns.team_id", "", .none, "the team id", field: \.push.apns.teamID),
        .string("push.apns.url", "https://api.push.apple.com", .httpURL(example: "https://api.push.apple.com"),
                "APNs' production and sandbox hosts", field: \.push.apns.url),
        .string("push.apns.sandbox_url", "https://api.sandbox.push.apple.com", .httpURL(example: "https://api.sandbox.push.apple.com"),
                "APNs' production and sandbox hosts", field: \.push.apns.sandboxURL),
        .path("push.fcm.service_account_file", "", .none, "the Firebase service account's JSON key", field: \.push.fcm.serviceAccountFile),
        .string("push.fcm.url", "https://fcm.googleapis.com", .httpURL(example: "https://fcm.googleapis.com"), "FCM's address",
                field: \.push.fcm.url),
    ]

    /// `images`: where reward images are kept and how they are served.
    private static let images: [SettingDeclaration] = [
        .choice("images.store", BelayConfiguration.Images.Store.directory,
                refusal: "is not an image store (directory: files under data_directory; s3: a bucket of an S3-compatible object store, set in images.s3)",
                "`directory` keeps images under `data_directory`; `s3` in a bucket every node shares", field: \.images.store),
        .string("images.public_base_url", "", .httpURLOrEmpty(example: "https://images.club.example/"),
                "with `s3`: image requests are redirected here (a CDN or public bucket) followed by the object's key",
                field: \.images.publicBaseURL),
        .string("images.s3.endpoint", "", .httpURLOrEmpty(example: "https://s3.eu-central-1.amazonaws.com, or \"\" for AWS in images.s3.region"),
                "the store's address; empty: AWS S3 in `images.s3.region`", field: \.images.s3.endpoint),
        .string("images.s3.bucket", "", .custom, "the bucket", field: \.images.s3.bucket),
        .string("images.s3.region", "us-east-1", .nonEmpty(what: "the bucket's region, e.g. eu-central-1 (auto for Cloudflare R2)"),
                "the signing region (`auto` for R2)", field: \.images.s3.region),
        .string("images.s3.prefix", "", .text { prefix in
                    prefix.hasPrefix("/") ? "\(JSONOutput.quoted(prefix)) starts with a slash; give a key prefix such as \"belay/\"" : nil
                }, "put before every key, e.g. `club/`", field: \.images.s3.prefix,
                normalised: { $0.isEmpty || $0.hasSuffix("/") ? $0 : $0 + "/" }),
        .string("images.s3.access_key_id", "", .none, "the access key; empty: `AWS_ACCESS_KEY_ID`", field: \.images.s3.accessKeyID),
        .path("images.s3.secret_access_key_file", "", .text { file in
                  file.isEmpty || FileManager.default.isReadableFile(atPath: file) ? nil
                      : "\(JSONOutput.quoted(file)) does not exist or cannot be read; name a file holding the secret access key, or \"\" to use AWS_SECRET_ACCESS_KEY"
              }, "a file holding the secret key; empty: `AWS_SECRET_ACCESS_KEY`", field: \.images.s3.secretAccessKeyFile),
        .flag("images.s3.path_style", false,
              refusal: "is not 1 (the bucket in the path: MinIO, Ceph RGW) or 0 (the bucket in the host name: AWS, R2)",
              "`1` puts the bucket in the path (MinIO, Ceph RGW)", field: \.images.s3.pathStyle),
        .integer("images.s3.presign_seconds", 900, .atLeast(1, "second", atMost: 604_800) { "\($0) seconds is more than the 7 days a presigned URL may last" },
                 "how long the presigned URL an image request is redirected to works", field: \.images.s3.presignSeconds),
        .flag("images.s3.proxy", false,
              refusal: "is not 1 (Belay reads the image from the bucket and sends it) or 0 (a redirect)",
              "`1` sends images through Belay instead of redirecting", field: \.images.s3.proxy),
        .integer("images.s3.timeout_seconds", 30, .atLeast(1, "second"), "one request to the store, connecting included",
                 field: \.images.s3.timeoutSeconds),
        .path("images.s3.ca_file", "", .text { file in
                  file.isEmpty || FileManager.default.isReadableFile(atPath: file) ? nil
                      : "\(JSONOutput.quoted(file)) does not exist or cannot be read; name a PEM bundle of the store's certificate authority, or \"\" for the system's"
              }, "a CA bundle trusted for the store instead of the system's", field: \.images.s3.caFile),
        .integer("images.s3.max_attempts", 4, .atLeast(1, "attempt"), "tries of a request the store failed with 500, 503 or no answer",
                 field: \.images.s3.maxAttempts),
    ]

    /// A Facebook App ID: digits, or empty when not set up.
    private static let facebookAppID: @Sendable (String) -> String? = { id in
        id.isEmpty || id.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil
            : "\(JSONOutput.quoted(id)) is not a Facebook App ID (digits only, from developers.facebook.com), or \"\" when not set up"
    }

    /// Debian's `fonts-noto-cjk` (its Medium weight comes from `fonts-noto-cjk-extra`),
    /// `fonts-nanum` and `fonts-noto-core`.
    private static let debianFallbacks: [String] = {
        let scripts = ["Arabic", "Hebrew", "Thai", "Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam", "Gujarati",
                       "Gurmukhi", "Oriya", "Sinhala", "Khmer", "Lao", "Myanmar", "Georgian", "Armenian", "Ethiopic"]
        var files = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"]
        files += scripts.map { "/usr/share/fonts/truetype/noto/NotoSans\($0)-Regular.ttf" }
        files += ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf"]
        return files
    }()

    private static let storiesBackgroundSide = SettingCheck.integer(1...4096) {
        "\($0) px is not a size from 1 to 4096 px (Meta asks for at most 720x1280 at 9:16)"
    }
}
