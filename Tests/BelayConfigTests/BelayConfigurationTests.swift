import BelayCore
import Foundation
import Testing
@testable import BelayConfig
import BelayTestSupport

/// Writes `json` as `name` in `directory` and returns its path.
private func write(_ json: String, to directory: TemporaryDirectory, as name: String = "config.json") throws -> String {
    let path = directory.file(name)
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Loads with no environment, so the machine's own BELAY_* variables never leak in.
private func load(_ file: String?, env: [String: String] = [:], cwd: String) throws(ConfigurationError) -> BelayConfiguration {
    try BelayConfiguration.load(configFile: file, environment: env, currentDirectory: cwd)
}

/// The problem lines of a refused configuration.
private func problems(_ body: () throws -> Void) -> [String] {
    do {
        try body()
        return []
    } catch let error as ConfigurationError {
        return error.problems.map(\.description)
    } catch {
        return ["unexpected error: \(error)"]
    }
}

@Suite struct BelayConfigurationLoadingTests {
    @Test func repositoryConfigFileHoldsExactlyTheBuiltInDefaults() throws {
        let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fromFile = try load(repositoryRoot.appendingPathComponent("config.json").path, cwd: "/")
        var defaults = BelayConfiguration.builtInDefaults(relativeTo: repositoryRoot.path)
        defaults.sourceFile = fromFile.sourceFile
        #expect(fromFile == defaults)
        let fileTree = try JSONParser.parse(String(contentsOf: repositoryRoot.appendingPathComponent("config.json"), encoding: .utf8))
        #expect(fileTree == ConfigurationSchema.shared.defaults)
    }

    /// Each key is declared once, with a meaning of one line, and everything made from the
    /// declarations (the schema, the defaults, `config show`) has exactly those keys.
    @Test func everySettingIsDeclaredOnceWithAOneLineMeaning() throws {
        let keys = SettingDeclaration.all.map(\.key)
        #expect(Set(keys).count == keys.count, "a key is declared twice")
        for setting in SettingDeclaration.all {
            #expect(!setting.meaning.isEmpty && !setting.meaning.contains("\n"), "\(setting.key)'s meaning is not one line")
        }
        #expect(BelayConfiguration.keys == keys)
        let shown = try JSONParser.parse(BelayConfiguration.builtInDefaults(relativeTo: "/srv/belay").formattedJSON())
        func leaves(_ value: JSONValue, _ path: String) -> [String] {
            guard case let .object(members) = value, !keys.contains(path) else { return [path] }
            return members.flatMap { leaves($0.value, path.isEmpty ? $0.key : path + "." + $0.key) }
        }
        #expect(leaves(shown, "") == keys, "config show prints exactly the declared keys, in their order")
    }

    /// The configuration is built by walking the declarations: every property of
    /// `BelayConfiguration` (but `sourceFile`) is filled by exactly one declaration, so none keeps
    /// the blank value it starts from, and no setting is read anywhere by a spelling of its key.
    @Test func everyPropertyIsFilledByExactlyOneDeclaration() throws {
        func leaves(_ value: Any, _ path: String = "") -> [String: String] {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .struct, !mirror.children.isEmpty else { return [path: String(describing: value)] }
            var found: [String: String] = [:]
            for child in mirror.children {
                found.merge(leaves(child.value, path.isEmpty ? child.label ?? "?" : "\(path).\(child.label ?? "?")")) { first, _ in first }
            }
            return found
        }
        let blank = leaves(BelayConfiguration())
        var filledBy: [String: String] = [:]
        for setting in SettingDeclaration.all {
            var samples: [JSONValue]
            switch setting.type {
            case .integer: samples = [.int(7), .int(1)]
            case .string: samples = [.string("x-sample"), .string("07:30")]
            case .stringList: samples = [.array([.string("/x-sample")])]
            case .map(of: .string): samples = [.object(JSONObject([("3", .string("x-sample"))]))]
            case .map(of: .integer): samples = [.object(JSONObject([("x-sample", .int(5))]))]
            case .section: samples = []
            }
            if case let .oneOf(words, _) = setting.check { samples += words.map(JSONValue.string) }
            var changed: Set<String> = []
            for sample in samples where changed.isEmpty {
                var configuration = BelayConfiguration()
                setting.fill(sample, &configuration)
                changed = Set(leaves(configuration).filter { blank[$0.key] != $0.value }.keys)
            }
            #expect(changed.count == 1, "\(setting.key) fills \(changed.sorted()), not one property")
            for property in changed {
                #expect(filledBy[property] == nil, "\(property) is filled by both \(filledBy[property] ?? "") and \(setting.key)")
                filledBy[property] = setting.key
            }
        }
        let unfilled = Set(blank.keys).subtracting(filledBy.keys).subtracting(["sourceFile"])
        #expect(unfilled.isEmpty, "properties no declaration fills: \(unfilled.sorted())")
    }

    /// A setting is wired by its declaration alone: a throwaway one, declared here in place of
    /// `server.port` and filling its property, has its default, is read from the file and from
    /// `BELAY_THROWAWAY_KNOB`, is checked, is shown by `config show`, and a misspelling of it is
    /// refused with a suggestion; nothing else was written for it.
    @Test func aThrowawaySettingIsWiredByItsDeclarationAlone() throws {
        let knob = SettingDeclaration.integer("throwaway.knob", 42, .atLeast(1, "knob"), "a throwaway setting of this test",
                                              field: \.server.port)
        let settings = SettingDeclaration.all.filter { $0.key != "server.port" } + [knob]
        let directory = try TemporaryDirectory()
        func loaded(_ json: String?, environment: [String: String] = [:]) throws -> BelayConfiguration {
            var loader = ConfigurationLoader(environment: environment, currentDirectory: directory.path, settings: settings)
            return try loader.load(configFile: try json.map { try write($0, to: directory) }, lookForDefaultFile: false)
        }
        func refusals(_ json: String) -> [String] { problems { _ = try loaded(json) } }

        #expect(try loaded(nil).server.port == 42)
        let fromFile = try loaded(#"{"throwaway": {"knob": 7}}"#)
        #expect(fromFile.server.port == 7)
        #expect(knob.shown(fromFile) == .int(7))
        #expect(try loaded(nil, environment: ["BELAY_THROWAWAY_KNOB": "9"]).server.port == 9)
        #expect(refusals(#"{"throwaway": {"knob": 0}}"#).contains { $0.contains("throwaway.knob") && $0.contains("too small") })
        #expect(refusals(#"{"throwaway": {"nkob": 7}}"#).contains { $0.contains("did you mean \"throwaway.knob\"") })
        #expect(refusals(#"{"server": {"port": 7}}"#).contains { $0.contains("server.port") && $0.contains("unknown key") })
    }

    /// The README's table of settings (under "Configuration") names every setting and no other,
    /// each row's meaning says what the key's declaration says (and may say more),
    /// and where a row gives its defaults as literals (`8080`, or "empty"), they are the built-in ones.
    @Test func theREADMEsTableOfSettingsIsTheSettings() throws {
        let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Configuration\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        func literals(_ cell: Substring) -> [String] {
            cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
        }
        let schema = ConfigurationSchema.shared
        var documented: [String] = []
        var compared = 0
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces)[...] }
            guard cells.count >= 4 else { continue }
            let keys = literals(cells[1]).filter { !$0.contains(" ") }
            documented += keys
            let defaults = literals(cells[2])
            let cellSaysEmpty = cells[2].hasPrefix("empty")
            for key in keys {
                guard let meaning = SettingDeclaration.all.first(where: { $0.key == key })?.meaning else { continue }
                #expect(cells[3].contains(meaning), "README: \(key)'s row does not say its declared meaning, \"\(meaning)\"")
            }
            for (index, key) in keys.enumerated() {
                guard let value = Self.defaultText(at: key, in: schema.defaults) else { continue }
                if defaults.count == keys.count && !cellSaysEmpty {
                    #expect(defaults[index] == value, "README: \(key)'s default is `\(defaults[index])`, built in `\(value)`")
                    compared += 1
                } else if cellSaysEmpty && defaults.isEmpty && keys.count == 1 {
                    #expect(value.isEmpty, "README: \(key)'s default is empty, built in `\(value)`")
                    compared += 1
                }
            }
        }
        let settings = schema.leaves.map(\.path)
        let undocumented = settings.filter { !documented.contains($0) }
        let unknown = documented.filter { !settings.contains($0) }
        #expect(undocumented.isEmpty, "settings missing from the README's table: \(undocumented)")
        #expect(unknown.isEmpty, "keys in the README's table that are not settings: \(unknown)")
        #expect(compared > 40, "only \(compared) defaults were compared: has the table's form changed?")
    }

    /// The built-in default at `path` as the README writes it: a string as is, an integer in digits;
    /// nil for lists and maps (described in words).
    private static func defaultText(at path: String, in tree: JSONValue) -> String? {
        var node = tree
        for key in path.split(separator: ".") {
            guard case let .object(members) = node, let next = members[String(key)] else { return nil }
            node = next
        }
        switch node {
        case let .string(text): return text
        case let .number(number): return number.text
        default: return nil
        }
    }

    @Test func builtInDefaultsMatchTheDocumentedValues() {
        let config = BelayConfiguration.builtInDefaults(relativeTo: "/srv/belay")
        #expect(config.server.host == "127.0.0.1")
        #expect(config.server.port == 8080)
        #expect(config.server.threads == max(1, ProcessInfo.processInfo.activeProcessorCount))
        #expect(config.dataDirectory == "/srv/belay/data")
        #expect(config.databasePath == "/srv/belay/data/belay.sqlite3")
        #expect(config.assetsDirectory == "/srv/belay/Assets")
        #expect(config.migrationsDirectory == "/srv/belay/Migrations")
        #expect(config.club.timeZone == "Asia/Seoul")
        #expect(config.club.locale == "ko_KR")
        #expect(config.checkIn.codeStepSeconds == 30)
        #expect(config.checkIn.retentionDays == 7)
        #expect(config.webhooks.retentionDays == 30)
        #expect(config.share.eventsRetentionDays == 400)
        #expect(config.rewards.milestones[10] == "crimp-silver")
        #expect(config.rewards.rarityWeights == ["common": 60, "uncommon": 25, "rare": 12, "epic": 3])
        #expect(config.render.storyFormat == .png)
        #expect(config.render.achievementLine)
        #expect(config.club.logo == "")
        #expect(config.fonts.bold == "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf")
        #expect(config.backfill.dailyAt == nil)
        #expect(config.sourceFile == nil)
    }

    @Test func missingKeysTakeTheirDefaults() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"server": {"port": 9000}, "check_in": {"code_step_seconds": 45}}"#, to: directory)
        let config = try load(file, cwd: "/")
        #expect(config.server.port == 9000)
        #expect(config.server.host == "127.0.0.1")
        #expect(config.checkIn.codeStepSeconds == 45)
        #expect(config.checkIn.maxWrongAttempts == 5)
        #expect(config.club.name == "Belay Climbing Club")
    }

    @Test func relativePathsResolveAgainstTheConfigFilesDirectory() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"data_directory": "var/data", "fonts": {"bold": "../fonts/Bold.ttf"}}"#, to: directory, as: "etc/config.json")
        let elsewhere = try TemporaryDirectory()
        let config = try load(file, cwd: elsewhere.path)
        let etc = URL(fileURLWithPath: directory.path).appendingPathComponent("etc").standardizedFileURL.path
        #expect(config.dataDirectory == etc + "/var/data")
        #expect(config.databasePath == etc + "/var/data/belay.sqlite3")
        #expect(config.fonts.bold == URL(fileURLWithPath: directory.path).standardizedFileURL.path + "/fonts/Bold.ttf")
        // Defaults count as written in the file: ./Assets sits beside it.
        #expect(config.assetsDirectory == etc + "/Assets")
        #expect(config.migrationsDirectory == etc + "/Migrations")
        #expect(config.fonts.regular == "/usr/share/fonts/opentype/inter/Inter-Regular.otf")
        #expect(config.sourceFile == file)
    }

    @Test func aRelativeConfigFileIsFoundFromTheWorkingDirectory() throws {
        let directory = try TemporaryDirectory()
        _ = try write(#"{"server": {"port": 7000}}"#, to: directory, as: "conf/belay.json")
        let config = try load("conf/belay.json", cwd: directory.path)
        #expect(config.server.port == 7000)
        #expect(config.dataDirectory.hasSuffix("/conf/data"))
    }

    @Test func explicitDatabasePathIsKept() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"database_path": "db/club.sqlite3"}"#, to: directory)
        let config = try load(file, cwd: "/")
        #expect(config.databasePath == URL(fileURLWithPath: directory.path).standardizedFileURL.path + "/db/club.sqlite3")
    }

    @Test func withoutAFileTheWorkingDirectorysConfigJSONIsUsed() throws {
        let directory = try TemporaryDirectory()
        #expect(try load(nil, cwd: directory.path).server.port == 8080)
        #expect(try load(nil, cwd: directory.path).sourceFile == nil)
        _ = try write(#"{"server": {"port": 8181}}"#, to: directory)
        let config = try load(nil, cwd: directory.path)
        #expect(config.server.port == 8181)
        #expect(config.sourceFile != nil)
    }

    @Test func belayConfigVariableNamesTheFile() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"server": {"port": 8282}}"#, to: directory, as: "elsewhere.json")
        #expect(try load(nil, env: ["BELAY_CONFIG": file], cwd: "/").server.port == 8282)
    }

    @Test func zeroThreadsMeansOnePerCore() throws {
        let directory = try TemporaryDirectory()
        #expect(try load(try write(#"{"server": {"threads": 0}}"#, to: directory), cwd: "/").server.threads == ProcessInfo.processInfo.activeProcessorCount)
        #expect(try load(try write(#"{"server": {"threads": 3}}"#, to: directory), cwd: "/").server.threads == 3)
    }

    @Test func mapsInTheFileReplaceTheDefaultMapWhole() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"rewards": {"milestones": {"5": "jug-gold"}}, "backfill": {"daily_at": "03:30"}}"#, to: directory)
        let config = try load(file, cwd: "/")
        #expect(config.rewards.milestones == [5: "jug-gold"])
        #expect(config.rewards.rarityWeights["common"] == 60)
        #expect(config.backfill.dailyAt == .init(hour: 3, minute: 30))
    }
}

@Suite struct BelayConfigurationEnvironmentTests {
    @Test func variableNamesJoinTheKeyPathWithUnderscores() {
        #expect(BelayConfiguration.environmentVariable(forKey: "server.port") == "BELAY_SERVER_PORT")
        #expect(BelayConfiguration.environmentVariable(forKey: "data_directory") == "BELAY_DATA_DIRECTORY")
        #expect(BelayConfiguration.environmentVariable(forKey: "share.instagram_app_id") == "BELAY_SHARE_INSTAGRAM_APP_ID")
        // No two keys may share a variable.
        let names = BelayConfiguration.keys.map(BelayConfiguration.environmentVariable(forKey:))
        #expect(Set(names).count == names.count)
    }

    @Test func environmentOverridesTheFile() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"server": {"port": 9000}, "data_directory": "filedata"}"#, to: directory)
        let cwd = try TemporaryDirectory()
        let config = try load(file, env: [
            "BELAY_SERVER_PORT": "9100",
            "BELAY_DATA_DIRECTORY": "envdata",
            "BELAY_SHARE_INSTAGRAM_APP_ID": "1234567890",
            "BELAY_REWARDS_MILESTONES": #"{"2": "crimp-silver"}"#,
            "BELAY_CHECK_IN_RETENTION_DAYS": "30",
            "PATH": "/usr/bin",
        ], cwd: cwd.path)
        #expect(config.server.port == 9100)
        #expect(config.dataDirectory == URL(fileURLWithPath: cwd.path).standardizedFileURL.path + "/envdata")
        #expect(config.databasePath.hasSuffix("/envdata/belay.sqlite3"))
        #expect(config.share.instagramAppID == "1234567890")
        #expect(config.rewards.milestones == [2: "crimp-silver"])
        #expect(config.checkIn.retentionDays == 30)
    }

    @Test func environmentValuesAreCheckedAndNamed() throws {
        let lines = problems { _ = try load(nil, env: ["BELAY_SERVER_PORT": "eighty"], cwd: "/") }
        #expect(lines == [#"BELAY_SERVER_PORT: server.port: expected an integer, found "eighty""#])
        let impossible = problems { _ = try load(nil, env: ["BELAY_SERVER_PORT": "70000"], cwd: "/") }
        #expect(impossible == ["BELAY_SERVER_PORT: server.port: 70000 is not a port (1–65535, or 0 for any free port)"])
    }

    @Test func unknownBelayVariablesAreRefusedWithASuggestion() {
        let lines = problems { _ = try load(nil, env: ["BELAY_SERVER_PROT": "9000"], cwd: "/") }
        #expect(lines == ["BELAY_SERVER_PROT: unknown setting; did you mean BELAY_SERVER_PORT?"])
    }
}

@Suite struct BelayConfigurationValidationTests {
    private func refusal(_ json: String) throws -> [String] {
        let directory = try TemporaryDirectory()
        let file = try write(json, to: directory)
        return problems { _ = try load(file, cwd: directory.path) }.map {
            $0.replacingOccurrences(of: file, with: "config.json")
        }
    }

    @Test func durabilityIsFullByDefaultAndOnlyFullOrNormal() throws {
        #expect(BelayConfiguration.builtInDefaults(relativeTo: "/srv").databaseDurability == .full)
        let directory = try TemporaryDirectory()
        let relaxed = try load(try write(#"{"database_durability": "normal"}"#, to: directory), cwd: directory.path)
        #expect(relaxed.databaseDurability == .normal)
        let refused = try refusal(#"{"database_durability": "sometimes"}"#)
        #expect(refused.count == 1)
        #expect(refused.first?.hasPrefix(#"config.json: database_durability: "sometimes" is not a durability (full"#) == true)
    }

    @Test func unknownKeysAreNamedWithASuggestion() throws {
        #expect(try refusal(#"{"server": {"prot": 80}}"#) == [#"config.json: server.prot: unknown key; did you mean "server.port"?"#])
        #expect(try refusal(#"{"port": 80}"#) == [#"config.json: port: unknown key; did you mean "server.port"?"#])
        let unrelated = try refusal(#"{"check_in": {"colour": "red"}}"#)
        #expect(unrelated.count == 1)
        #expect(unrelated[0].hasPrefix(#"config.json: check_in.colour: unknown key in "check_in" (known keys: "opens_minutes_before_start""#))
    }

    @Test func wrongTypesAreNamed() throws {
        #expect(try refusal(#"{"server": {"port": "8080"}}"#) == [#"config.json: server.port: expected an integer, found the string "8080" (write it without quotes)"#])
        #expect(try refusal(#"{"server": {"port": 80.5}}"#) == ["config.json: server.port: expected an integer, found the number 80.5"])
        #expect(try refusal(#"{"server": 8080}"#) == ["config.json: server: expected an object, found the integer 8080"])
        #expect(try refusal(#"{"club": {"name": 7}}"#) == ["config.json: club.name: expected a string, found the integer 7 (write it in double quotes)"])
        #expect(try refusal(#"{"rewards": {"rarity_weights": {"rare": "12"}}}"#) == [#"config.json: rewards.rarity_weights.rare: expected an integer, found the string "12" (write it without quotes)"#])
        #expect(try refusal("[1, 2]") == ["config.json: must be a JSON object at the top level, found an array"])
    }

    @Test func impossiblePortIsNamed() throws {
        #expect(try refusal(#"{"server": {"port": 70000}}"#) == ["config.json: server.port: 70000 is not a port (1–65535, or 0 for any free port)"])
        #expect(try refusal(#"{"server": {"port": 0}}"#) == [])
    }

    @Test(arguments: [
        (#"{"server": {"threads": -1}}"#, "server.threads: -1 is not a thread count"),
        (#"{"server": {"max_connections": 0}}"#, "server.max_connections: 0 is too small; it must be at least 1 connection"),
        (#"{"server": {"header_timeout_seconds": 0}}"#, "server.header_timeout_seconds: 0 is too small; it must be at least 1 second"),
        (#"{"server": {"public_base_url": "belay.example"}}"#, #"server.public_base_url: "belay.example" is not an http(s) URL"#),
        (#"{"server": {"host": ""}}"#, "server.host: must not be empty"),
        (#"{"check_in": {"opens_minutes_before_start": 30, "closes_minutes_after_end": -60}}"#, "check_in.closes_minutes_after_end: -60 would close the check-in window before the meetup ends (before it opens, for a short meetup)"),
        (#"{"check_in": {"opens_minutes_before_start": -10}}"#, "check_in.opens_minutes_before_start: -10 would open check-in only after the meetup has started"),
        (#"{"check_in": {"code_step_seconds": 10}}"#, "check_in.code_step_seconds: 10 seconds is outside 30–60"),
        (#"{"check_in": {"code_step_seconds": 61}}"#, "check_in.code_step_seconds: 61 seconds is outside 30–60"),
        (#"{"check_in": {"max_wrong_attempts": -2}}"#, "check_in.max_wrong_attempts: -2 is too small"),
        (#"{"check_in": {"retention_days": 0}}"#, "check_in.retention_days: 0 is too small; it must be at least 1 day (a retried check-in must still find its idempotency key)"),
        (#"{"webhooks": {"retention_days": 0}}"#, "webhooks.retention_days: 0 is too small; it must be at least 1 day (an endpoint's log must show at least its last day)"),
        (#"{"share": {"events_retention_days": -1}}"#, "share.events_retention_days: -1 is too small; it must be at least 1 day (older events are counted per day, so the day in progress must stay)"),
        (#"{"club": {"time_zone": "Mars/Olympus"}}"#, #"club.time_zone: "Mars/Olympus" is not a known IANA time zone"#),
        (#"{"club": {"locale": "ko-KR"}}"#, #"club.locale: "ko-KR" is not a known locale (e.g. ko_KR, en_US); did you mean "ko_KR"?"#),
        (#"{"render": {"workers": 0}}"#, "render.workers: 0 is too small; it must be at least 1 worker"),
        (#"{"render": {"story_format": "gif"}}"#, #"render.story_format: "gif" is not a story format (png or jpeg)"#),
        (#"{"render": {"jpeg_quality": 101}}"#, "render.jpeg_quality: 101 is not a JPEG quality (1–100)"),
        (#"{"render": {"max_image_side": 100}}"#, "render.max_image_side: 100 is too small"),
        (#"{"backfill": {"daily_at": "7am"}}"#, #"backfill.daily_at: "7am" is not a time of day HH:MM"#),
        (#"{"backfill": {"daily_at": "24:00"}}"#, #"backfill.daily_at: "24:00" is not a time of day HH:MM"#),
        (#"{"backfill": {"every_minutes": -5}}"#, "backfill.every_minutes: -5 is too small"),
        (#"{"backfill": {"jobs": 0}}"#, "backfill.jobs: 0 is too small"),
        (#"{"rewards": {"milestones": {"ten": "jug-gold"}}}"#, #"rewards.milestones.ten: "ten" is not a check-in count"#),
        (#"{"rewards": {"milestones": {"0": "jug-gold"}}}"#, #"rewards.milestones.0: "0" is not a check-in count"#),
        (#"{"rewards": {"streak_milestones": {"four": "jug-gold"}}}"#, #"rewards.streak_milestones.four: "four" is not a number of weeks in a row"#),
        (#"{"rewards": {"streak_milestones": {"4": ""}}}"#, "rewards.streak_milestones.4: must name a hold id"),
        (#"{"rewards": {"rarity_weights": {"rare": -1}}}"#, "rewards.rarity_weights.rare: -1 is negative"),
        (#"{"rewards": {"rarity_weights": {"rare": 0}}}"#, "rewards.rarity_weights: every weight is 0"),
        (#"{"share": {"instagram_app_id": "my-app"}}"#, #"share.instagram_app_id: "my-app" is not a Facebook App ID"#),
        (#"{"webhooks": {"allow_private_addresses": 2}}"#, "webhooks.allow_private_addresses: 2 is not 0"),
        (#"{"render": {"achievement_line": 2}}"#, "render.achievement_line: 2 is not 1"),
        (#"{"club": {"logo": "/nonexistent/logo.png"}}"#, #"club.logo: "/nonexistent/logo.png" does not exist or cannot be read"#),
        (#"{"webhooks": {"timeout_seconds": 0}}"#, "webhooks.timeout_seconds: 0 is too small"),
        (#"{"rate_limits": {"writes_per_member_per_minute": -1}}"#, "rate_limits.writes_per_member_per_minute: -1 is too small; it must be at least 0 requests (0 switches the limit off)"),
        (#"{"webhooks": {"poll_milliseconds": 1}}"#, "webhooks.poll_milliseconds: 1 is too small"),
        (#"{"data_directory": ""}"#, "data_directory: must not be empty"),
    ])
    func impossibleValuesAreNamed(json: String, expected: String) throws {
        let lines = try refusal(json)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("config.json: " + expected) == true, "\(lines)")
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let lines = try refusal(#"{"server": {"port": 70000, "bogus": 1}, "render": {"workers": 0}}"#)
        #expect(lines.count == 1, "unknown keys come first, before values are judged: \(lines)")
        let values = try refusal(#"{"server": {"port": 70000}, "render": {"workers": 0}, "check_in": {"code_step_seconds": 5}}"#)
        #expect(values.count == 3)
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let lines = try refusal("{\n  \"server\": {\n    \"port\": 8080,\n  }\n}")
        #expect(lines == ["config.json: is not valid JSON: line 4, column 3: expected a key in double quotes, found '}'"])
    }

    @Test func aMissingFileIsNamed() {
        let lines = problems { _ = try load("/nonexistent/belay.json", cwd: "/") }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("/nonexistent/belay.json: no such file") == true)
    }
}


/// `fonts.fallbacks` (a list of paths) and the Stories background settings.
@Suite struct FontAndStoriesSettingsTests {
    @Test func fallbacksAreAListOfPathsResolvedLikeOtherPaths() throws {
        let directory = try TemporaryDirectory()
        let defaults = try load(nil, cwd: "/")
        #expect(defaults.fonts.fallbacks.first == "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
        #expect(defaults.fonts.fallbacks.contains("/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"))

        let file = try write(#"{"fonts": {"fallbacks": ["fonts/Thai.ttf", "/abs/CJK.ttc"]}}"#, to: directory, as: "etc/config.json")
        let fromFile = try load(file, cwd: "/")
        #expect(fromFile.fonts.fallbacks == [directory.file("etc/fonts/Thai.ttf"), "/abs/CJK.ttc"])

        let fromEnvironment = try load(nil, env: ["BELAY_FONTS_FALLBACKS": "a.ttf:/b/c.ttf"], cwd: "/work")
        #expect(fromEnvironment.fonts.fallbacks == ["/work/a.ttf", "/b/c.ttf"])
        let fromJSON = try load(nil, env: ["BELAY_FONTS_FALLBACKS": #"["/x.ttf"]"#], cwd: "/work")
        #expect(fromJSON.fonts.fallbacks == ["/x.ttf"])
        // What `config show` prints loads back to the same list.
        #expect(fromFile.formattedJSON().contains(directory.file("etc/fonts/Thai.ttf")))
    }

    @Test func aFallbackThatIsNotAStringIsRefusedWithItsIndex() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"fonts": {"fallbacks": ["/a.ttf", 7]}}"#, to: directory)
        let lines = problems { _ = try load(file, cwd: "/") }
        #expect(lines.contains { $0.contains("fonts.fallbacks[1]") && $0.contains("string") }, "\(lines)")
        let notAList = try write(#"{"fonts": {"fallbacks": "/a.ttf"}}"#, to: directory)
        #expect(problems { _ = try load(notAList, cwd: "/") }.contains { $0.contains("array of strings") })
    }

    @Test func storiesBackgroundIsAnImageOrColoursAtASizeMetaAccepts() throws {
        let directory = try TemporaryDirectory()
        let defaults = try load(nil, cwd: "/")
        #expect(defaults.share.storiesBackground == .image)
        #expect(defaults.share.storiesBackgroundWidth == 720 && defaults.share.storiesBackgroundHeight == 1280)
        let colours = try write(#"{"share": {"stories_background": "colors", "stories_background_width": 1080, "stories_background_height": 1920}}"#, to: directory)
        let set = try load(colours, cwd: "/")
        #expect(set.share.storiesBackground == .colors && set.share.storiesBackgroundWidth == 1080)
        let wrong = try write(#"{"share": {"stories_background": "video", "stories_background_width": 0}}"#, to: directory)
        let lines = problems { _ = try load(wrong, cwd: "/") }
        #expect(lines.contains { $0.contains("share.stories_background") && $0.contains("\"colors\"") }, "\(lines)")
        #expect(lines.contains { $0.contains("share.stories_background_width") }, "\(lines)")
    }
}

@Suite struct DatabaseURLConfigurationTests {
    @Test func emptyKeepsSQLiteAndAPostgresURLNamesTheServer() throws {
        let directory = try TemporaryDirectory()
        let sqlite = try load(nil, cwd: directory.path)
        #expect(!sqlite.database.isPostgreSQL)
        #expect(sqlite.databasePath.hasSuffix("data/belay.sqlite3"))
        let server = try load(nil, env: ["BELAY_DATABASE_URL": "postgresql://belay:s3cret@db.example/belay?sslmode=require"], cwd: directory.path)
        #expect(server.database.isPostgreSQL)
        #expect(server.database.url == "postgresql://belay:s3cret@db.example/belay?sslmode=require")
        #expect(server.database.maxConnections == 8 && server.database.statementTimeoutMilliseconds == 5_000)
    }

    @Test func aFilePathIsAnSQLiteFileAndAnotherSchemeIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = try write(#"{"database": {"url": "/srv/belay/club.sqlite3"}}"#, to: directory)
        let configuration = try load(file, cwd: "/")
        #expect(!configuration.database.isPostgreSQL)
        #expect(configuration.databasePath == "/srv/belay/club.sqlite3")
        let mysql = try write(#"{"database": {"url": "mysql://root:hunter2@db/belay"}}"#, to: directory, as: "mysql.json")
        let refused = problems { _ = try load(mysql, cwd: "/") }
        #expect(refused.count == 1)
        #expect(refused.first?.contains("database.url") == true && refused.first?.contains("postgres://") == true)
        #expect(refused.first?.contains("hunter2") == false, "the password is not repeated")
    }

    @Test func noRenderWorkersOnlyWhereAWorkerNodeCanRender() throws {
        let directory = try TemporaryDirectory()
        let sqlite = problems { _ = try load(nil, env: ["BELAY_RENDER_WORKERS": "0"], cwd: directory.path) }
        #expect(sqlite.count == 1 && sqlite.first?.contains("render.workers") == true)
        let server = try load(nil, env: ["BELAY_RENDER_WORKERS": "0", "BELAY_DATABASE_URL": "postgres://db.example/belay"], cwd: directory.path)
        #expect(server.render.workers == 0)
    }

    @Test func configShowLeavesThePasswordOut() throws {
        let directory = try TemporaryDirectory()
        let configuration = try load(nil, env: ["BELAY_DATABASE_URL": "postgresql://belay:s3cret@db.example/belay"], cwd: directory.path)
        let shown = configuration.formattedJSON()
        #expect(shown.contains("postgresql://belay:***@db.example/belay"))
        #expect(!shown.contains("s3cret"))
    }
}
