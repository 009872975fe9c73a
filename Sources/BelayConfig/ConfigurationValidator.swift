import BelayCore
import Foundation

/// Reads the merged, type-checked tree into a `BelayConfiguration` by walking the declarations
/// (`SettingDeclaration.all`: each checks its value and fills its property), and refuses
/// impossible values, naming each key and where its value came from. The rules here are the
/// ones that read several settings; they read the filled configuration, not the tree.
struct ConfigurationValidator {
    let tree: JSONValue
    let sources: [String: String]
    /// The settings it walks, `SettingDeclaration.all` but in tests.
    let settings: [SettingDeclaration]
    private(set) var problems: [ConfigurationError.Problem] = []

    init(tree: JSONValue, sources: [String: String], settings: [SettingDeclaration] = SettingDeclaration.all) {
        self.tree = tree
        self.sources = sources
        self.settings = settings
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
        if let number = value(path)?.integerValue { return number }
        return 0
    }

    /// Records a refusal of the setting at `path` (a declared key, or a member of a declared
    /// map), naming where its value came from.
    private mutating func refuse(_ path: String, _ message: String) {
        precondition(settings.contains { path == $0.key || path.hasPrefix($0.key + ".") }, "\(path) is no declared setting")
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
        case let .entries(rule):
            for (member, message) in rule(value(key) ?? .null) { refuse(member.map { "\(key).\($0)" } ?? key, message) }
        }
    }

    /// Refuses `number`, the value of `path`, below `minimum` (for rules that depend on other keys).
    private mutating func refuse(_ number: Int, below minimum: Int, _ path: String, unit: String, why: String) {
        if number < minimum {
            refuse(path, "\(number) is too small; it must be at least \(minimum) \(unit) (\(why))")
        }
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
        SettingDeclaration.listItems(string(path))
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

    /// Checks every setting on its own and fills its property (`SettingDeclaration.check`,
    /// `.fill`), then resolves what depends on several settings and checks the rules that read
    /// several of them.
    mutating func configuration(sourceFile: String?) -> BelayConfiguration {
        var configuration = BelayConfiguration()
        for setting in settings {
            check(setting)
            guard let value = value(setting.key) else { preconditionFailure("\(setting.key) is declared but not in the tree") }
            setting.fill(value, &configuration)
        }
        configuration.sourceFile = sourceFile
        resolve(&configuration)
        return configuration
    }

    /// What is derived from several settings (the thread count, the database's file and
    /// server) and the rules that read several of them.
    private mutating func resolve(_ configuration: inout BelayConfiguration) {
        if configuration.server.threads == 0 { configuration.server.threads = max(1, ProcessInfo.processInfo.activeProcessorCount) }

        // paths: an empty database_path is the file in data_directory; database.url is a
        // PostgreSQL URL, a file path that replaces database_path, or empty.
        if configuration.databasePath.isEmpty, !configuration.dataDirectory.isEmpty {
            configuration.databasePath = (configuration.dataDirectory as NSString).appendingPathComponent("belay.sqlite3")
        }
        let databaseURL = configuration.database.url
        if !BelayConfiguration.DatabaseServer.isServerURL(databaseURL) {
            configuration.database.url = ""
            if databaseURL.contains("://") {
                refuse("database.url", "\(JSONOutput.quoted(PasswordRedaction.redacted(databaseURL))) is neither a postgres:// or postgresql:// URL nor a file path; leave it empty for SQLite at database_path")
            } else if databaseURL.firstMatch(of: /^[A-Za-z_]+\s*=/) != nil {
                // libpq's `host=… password=…` form: never taken for a file name (nor shown with its password).
                refuse("database.url", "\(JSONOutput.quoted(PasswordRedaction.redacted(databaseURL))) is a libpq keyword string; Belay takes the URL form: postgresql://USER:PASSWORD@HOST:5432/DBNAME (with ?sslmode=require and other keywords as query parameters; percent-encode special characters in the password)")
            } else if !databaseURL.isEmpty {
                configuration.databasePath = databaseURL
            }
        }
        let database = configuration.database
        if database.backupEveryHours > 0 {
            if database.backupURL.isEmpty {
                refuse("database.backup_url", "must name s3://bucket/prefix/ when database.backup_every_hours is set; or set database.backup_every_hours to 0")
            } else if database.isPostgreSQL {
                refuse("database.backup_every_hours", "backs up the SQLite file only; on PostgreSQL use the server's own tools (pg_dump, base backups), and set it to 0")
            }
        }

        // render: with the data on PostgreSQL, an API node may leave rendering to `belay worker` nodes.
        if database.isPostgreSQL {
            refuse(configuration.render.workers, below: 0, "render.workers", unit: "workers", why: "0 leaves rendering to `belay worker` nodes")
        } else {
            refuse(configuration.render.workers, below: 1, "render.workers", unit: "worker",
                   why: "with none, no image would ever be rendered; on PostgreSQL (database.url) an API node may have 0 and leave rendering to `belay worker` nodes")
        }

        let accounts = configuration.accounts
        if !accounts.termsVersion.isEmpty && accounts.termsURL.isEmpty {
            refuse("accounts.terms_url", "accounts.terms_version is set, so members must be able to read the terms: give their https:// address")
        }
        let blockedTermsFile = configuration.moderation.blockedTermsFile
        if !blockedTermsFile.isEmpty && !FileManager.default.isReadableFile(atPath: blockedTermsFile) {
            refuse("moderation.blocked_terms_file", "\(JSONOutput.quoted(blockedTermsFile)) cannot be read; give a UTF-8 text file with one word per line, or \"\" for no list")
        }
        if accounts.accessTokenMinutes > accounts.refreshTokenDays * 1440 {
            refuse("accounts.access_token_minutes", "\(accounts.accessTokenMinutes) minutes is longer than a session lasts (accounts.refresh_token_days); make it shorter")
        }
        let apple = configuration.auth.apple
        let appleKeyParts = [apple.teamID, apple.keyID, apple.privateKeyFile].filter { !$0.isEmpty }.count
        if appleKeyParts != 0 && appleKeyParts != 3 {
            refuse("auth.apple.private_key_file", "team_id, key_id and private_key_file go together (the key Apple gave the team for Sign in with Apple); set all three or none")
        }
        let mail = configuration.mail
        if mail.transport == .smtp, mail.smtpURL.isEmpty {
            refuse("mail.smtp_url", "must not be empty when mail.transport is \"smtp\"; give smtps://host:465 or smtp://host:587")
        }
        if mail.transport == .outbox, !BelayConfiguration.isPrivate(urlString: configuration.server.publicBaseURL) {
            refuse("mail.transport", "\"outbox\" writes sign-in codes to files and the log, for trying Belay on one machine, but server.public_base_url (\(configuration.server.publicBaseURL)) is public; set mail.smtp_url and mail.transport \"smtp\" (or \"auto\")")
        }
        if configuration.mailTransport == .smtp, !mail.from.contains("@") {
            refuse("mail.from", "\(JSONOutput.quoted(mail.from)) is not a sender address; give one such as \"Belay <no-reply@club.example>\"")
        }
        let apns = configuration.push.apns
        let apnsKeyParts = [apns.keyFile, apns.keyID, apns.teamID].filter { !$0.isEmpty }.count
        if apnsKeyParts != 0 && apnsKeyParts != 3 {
            refuse("push.apns.key_file", "key_file, key_id and team_id go together (the .p8 key Apple gave the team for APNs, its 10-character key id, and the team id); set all three or none")
        }
        if configuration.images.store == .s3 && configuration.images.s3.bucket.trimmingCharacters(in: .whitespaces).isEmpty {
            refuse("images.s3.bucket", "must not be empty when images.store is \"s3\"; give the bucket's name, e.g. \"club-images\"")
        }
    }
}
