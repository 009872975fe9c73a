import BelayCore
import Foundation

extension BelayConfiguration {
    /// The environment variable naming the configuration file when `--config` is not given.
    public static let configFileVariable = "BELAY_CONFIG"

    /// Loads, checks and resolves the configuration.
    ///
    /// Where values come from, later ones winning:
    /// 1. The built-in defaults (the same values as the repository's `config.json`).
    /// 2. The configuration file: `configFile` if given, else `$BELAY_CONFIG` if set, else
    ///    `./config.json` when it exists, else none. Keys it leaves out keep their defaults;
    ///    an object under `rewards.milestones`, `rewards.streak_milestones` or
    ///    `rewards.rarity_weights` replaces the default one whole.
    /// 3. Environment variables: `BELAY_` plus the key path joined with `_`, upper-cased
    ///    (`BELAY_SERVER_PORT=9000`, `BELAY_DATA_DIRECTORY=/srv/belay/data`,
    ///    `BELAY_SHARE_INSTAGRAM_APP_ID=…`). Integers are written in decimal; the three reward
    ///    maps take a JSON object (`BELAY_REWARDS_MILESTONES='{"1":"jug-gold"}'`). Any other
    ///    `BELAY_*` variable is refused as unknown, so a typo cannot go unnoticed.
    ///
    /// Relative paths are resolved against the directory of the file they are written in
    /// (defaults count as written in the file when there is one), and against
    /// `currentDirectory` when they come from the environment or there is no file. `~/` is
    /// the home directory. `database_path: ""` becomes `<data_directory>/belay.sqlite3`;
    /// `server.threads: 0` becomes the number of cores.
    ///
    /// - Throws: `ConfigurationError` listing every unknown key, wrongly typed value and
    ///   impossible value, each named by its key and source; or a missing, unreadable or
    ///   malformed file.
    public static func load(
        configFile: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigurationError) -> BelayConfiguration {
        var loader = ConfigurationLoader(environment: environment, currentDirectory: currentDirectory)
        return try loader.load(configFile: configFile)
    }

    /// The built-in defaults, with relative paths resolved against `directory`.
    public static func builtInDefaults(relativeTo directory: String) -> BelayConfiguration {
        var loader = ConfigurationLoader(environment: [:], currentDirectory: directory)
        do { return try loader.load(configFile: nil, lookForDefaultFile: false) } catch {
            preconditionFailure("the built-in defaults are invalid: \(error)")
        }
    }

    /// The environment variable overriding a dotted key path, e.g. `BELAY_SERVER_PORT` for
    /// `server.port`.
    public static func environmentVariable(forKey key: String) -> String {
        ConfigurationSchema.environmentName(for: key)
    }

    /// Every settable key path, in the order of `config.json`.
    public static var keys: [String] { ConfigurationSchema.shared.leaves.map(\.path) }
}

/// Carries one load: the merged tree, where each value came from, and the problems found.
struct ConfigurationLoader {
    let environment: [String: String]
    let currentDirectory: String
    /// The settings it knows, `SettingDeclaration.all` but in tests.
    let settings: [SettingDeclaration]
    let schema: ConfigurationSchema

    private var tree: JSONValue
    private var sources: [String: String] = [:]
    private var problems: [ConfigurationError.Problem] = []

    init(environment: [String: String], currentDirectory: String, settings: [SettingDeclaration] = SettingDeclaration.all) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.settings = settings
        schema = ConfigurationSchema(settings)
        tree = schema.defaults
    }

    mutating func load(configFile: String?, lookForDefaultFile: Bool = true) throws(ConfigurationError) -> BelayConfiguration {
        let named = configFile ?? environment[BelayConfiguration.configFileVariable].flatMap { $0.isEmpty ? nil : $0 }
        var file: (label: String, path: String)?
        if let named {
            file = (named, resolve(named, against: currentDirectory))
            guard FileManager.default.fileExists(atPath: file!.path) else { throw ConfigurationError(.fileMissing(path: named)) }
        } else if lookForDefaultFile {
            let implicit = resolve("config.json", against: currentDirectory)
            if FileManager.default.fileExists(atPath: implicit) { file = ("config.json", implicit) }
        }

        let fileDirectory = file.map { ($0.path as NSString).deletingLastPathComponent } ?? currentDirectory
        for leaf in schema.leaves { sources[leaf.path] = "built-in default" }
        resolvePaths(in: &tree, against: fileDirectory)

        if let file {
            let text: String
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file.path))
                guard let decoded = String(data: data, encoding: .utf8) else {
                    throw ConfigurationError(.fileUnreadable(path: file.label, reason: "it is not UTF-8 text"))
                }
                text = decoded
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError(.fileUnreadable(path: file.label, reason: (error as NSError).localizedDescription))
            }
            var fileTree: JSONValue
            do { fileTree = try JSONParser.parse(text, maximumDepth: 64) } catch {
                throw ConfigurationError(.syntax(path: file.label, detail: error.description))
            }
            guard case .object = fileTree else {
                throw ConfigurationError(.invalid([.init(source: file.label, key: "", message: "must be a JSON object at the top level, found \(fileTree.described)")]))
            }
            resolvePaths(in: &fileTree, against: fileDirectory)
            merge(fileTree, at: "", source: file.label)
        }

        applyEnvironment()
        guard problems.isEmpty else { throw ConfigurationError(.invalid(problems)) }

        var validator = ConfigurationValidator(tree: tree, sources: sources, settings: settings)
        let configuration = validator.configuration(sourceFile: file?.path)
        guard validator.problems.isEmpty else { throw ConfigurationError(.invalid(validator.problems)) }
        return configuration
    }

    // MARK: - Merging a file over the defaults

    /// Checks `value` against the schema at `path` and writes what is valid into the tree.
    private mutating func merge(_ value: JSONValue, at path: String, source: String) {
        guard let type = schema.type(at: path) else {
            problems.append(unknownKey(path, source: source))
            return
        }
        switch type {
        case .section:
            guard case let .object(members) = value else {
                return wrongType(path, expected: type, got: value, source: source)
            }
            for member in members { merge(member.value, at: ConfigurationSchema.join(path, member.key), source: source) }
        case let .map(of: leaf):
            guard case let .object(members) = value else {
                return wrongType(path, expected: type, got: value, source: source)
            }
            var valid = true
            for member in members {
                let memberPath = path + "." + member.key
                let matches = leaf == .string ? member.value.stringValue != nil : member.value.integerValue != nil
                if !matches {
                    valid = false
                    wrongType(memberPath, expected: leaf == .string ? .string : .integer, got: member.value, source: source)
                }
            }
            if valid { set(value, at: path, source: source) }
        case .string:
            guard case .string = value else { return wrongType(path, expected: type, got: value, source: source) }
            set(value, at: path, source: source)
        case .integer:
            guard value.integerValue != nil else { return wrongType(path, expected: type, got: value, source: source) }
            set(value, at: path, source: source)
        case .stringList:
            guard case let .array(items) = value else { return wrongType(path, expected: type, got: value, source: source) }
            for (index, item) in items.enumerated() {
                guard case .string = item else { return wrongType("\(path)[\(index)]", expected: .string, got: item, source: source) }
            }
            set(value, at: path, source: source)
        }
    }

    private func unknownKey(_ path: String, source: String) -> ConfigurationError.Problem {
        let parent = path.contains(".") ? String(path[..<path.lastIndex(of: ".")!]) : ""
        let key = path.contains(".") ? String(path[path.index(after: path.lastIndex(of: ".")!)...]) : path
        var message = "unknown key"
        if let near = Suggestion.closest(to: key, among: schema.keys(in: parent)) {
            message += "; did you mean \"\(ConfigurationSchema.join(parent, near))\"?"
        } else if let elsewhere = schema.leaves.first(where: { $0.path.hasSuffix("." + key) || $0.path == key }) {
            message += "; did you mean \"\(elsewhere.path)\"?"
        } else {
            let known = schema.keys(in: parent).map { "\"\($0)\"" }.joined(separator: ", ")
            message += parent.isEmpty ? " (known keys: \(known))" : " in \"\(parent)\" (known keys: \(known))"
        }
        return .init(source: source, key: path, message: message)
    }

    private mutating func wrongType(_ path: String, expected: ConfigurationSchema.ValueType, got: JSONValue, source: String) {
        var message = "expected \(expected.name), found \(got.described)"
        if expected == .integer, case let .string(text) = got, Int(text) != nil { message += " (write it without quotes)" }
        if expected == .string, got.integerValue != nil { message += " (write it in double quotes)" }
        problems.append(.init(source: source, key: path, message: message))
    }

    private mutating func set(_ value: JSONValue, at path: String, source: String) {
        tree = Self.setting(value, at: path.split(separator: ".").map(String.init)[...], in: tree)
        sources[path] = source
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in node: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        guard case var .object(members) = node else { return node }
        if let current = members[key] {
            members[key] = setting(value, at: path.dropFirst(), in: current)
        }
        return .object(members)
    }

    // MARK: - Environment

    private mutating func applyEnvironment() {
        var known: [String: (path: String, type: ConfigurationSchema.ValueType)] = [:]
        for leaf in schema.leaves { known[ConfigurationSchema.environmentName(for: leaf.path)] = leaf }
        for (name, raw) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("BELAY_") {
            if name == BelayConfiguration.configFileVariable { continue }
            guard let leaf = known[name] else {
                var message = "unknown setting; Belay reads only BELAY_CONFIG and BELAY_<KEY_PATH> for the keys of config.json"
                if let near = Suggestion.closest(to: name, among: known.keys) { message = "unknown setting; did you mean \(near)?" }
                problems.append(.init(source: name, key: "", message: message))
                continue
            }
            switch leaf.type {
            case .integer:
                guard let number = Int(raw.trimmingCharacters(in: .whitespaces)) else {
                    problems.append(.init(source: name, key: leaf.path, message: "expected an integer, found \(JSONOutput.quoted(raw))"))
                    continue
                }
                set(.int(Int64(number)), at: leaf.path, source: name)
            case .string:
                var value = JSONValue.string(raw)
                if schema.pathKeys.contains(leaf.path) { value = .string(resolve(raw, against: currentDirectory)) }
                set(value, at: leaf.path, source: name)
            case .stringList:
                // A JSON array, or paths separated by ":" as in PATH.
                let parsed = (try? JSONParser.parse(raw)) ?? .array(raw.split(separator: ":").map { .string(String($0)) })
                guard case let .array(items) = parsed else {
                    problems.append(.init(source: name, key: leaf.path, message: "expected a JSON array of strings or a \":\"-separated list, found \(JSONOutput.quoted(raw))"))
                    continue
                }
                var strings: [String] = []
                for item in items {
                    guard case let .string(text) = item else {
                        problems.append(.init(source: name, key: leaf.path, message: "expected strings in the array, found \(item.described)"))
                        continue
                    }
                    strings.append(schema.pathListKeys.contains(leaf.path) ? resolve(text, against: currentDirectory) : text)
                }
                set(.array(strings.map(JSONValue.string)), at: leaf.path, source: name)
            case .map:
                do {
                    let parsed = try JSONParser.parse(raw)
                    merge(parsed, at: leaf.path, source: name)
                } catch {
                    problems.append(.init(source: name, key: leaf.path, message: "expected a JSON object such as {\"1\": \"jug-gold\"}: \(error)"))
                }
            case .section:
                break
            }
        }
    }

    // MARK: - Paths

    private func resolvePaths(in node: inout JSONValue, against directory: String) {
        for key in schema.pathKeys {
            let parts = key.split(separator: ".").map(String.init)
            var current: JSONValue? = node
            for part in parts { current = current?[part] }
            guard case let .string(path)? = current, !path.isEmpty else { continue }
            node = Self.setting(.string(resolve(path, against: directory)), at: parts[...], in: node)
        }
        for key in schema.pathListKeys {
            let parts = key.split(separator: ".").map(String.init)
            var current: JSONValue? = node
            for part in parts { current = current?[part] }
            guard case let .array(items)? = current else { continue }
            let resolved = items.map { item -> JSONValue in
                guard case let .string(path) = item, !path.isEmpty else { return item }
                return .string(resolve(path, against: directory))
            }
            node = Self.setting(.array(resolved), at: parts[...], in: node)
        }
    }

    /// `path` made absolute: `~/…` against the home directory, relative against `directory`;
    /// `.` and `..` components are removed.
    func resolve(_ path: String, against directory: String) -> String {
        var expanded = path
        if path == "~" || path.hasPrefix("~/") {
            let home = environment["HOME"] ?? NSHomeDirectory()
            expanded = home + path.dropFirst()
        }
        let absolute = expanded.hasPrefix("/") ? expanded : (directory as NSString).appendingPathComponent(expanded)
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
