import BelayCore
import Foundation
import BelayConfig
import Synchronization

/// Where a command writes: standard output for data, standard error for messages.
public struct TextSink: Sendable {
    let write: @Sendable (String) -> Void

    /// A sink that calls `write` with each piece of text.
    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// The process's standard output.
    public static let standardOutput = TextSink { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) }
    /// The process's standard error.
    public static let standardError = TextSink { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
}

/// What a running command may use: its output streams, the environment, the working
/// directory, the `--config` file and, loaded on first use, the configuration.
public final class CommandContext: Sendable {
    /// The process environment (`BELAY_*` overrides are read from here).
    public let environment: [String: String]
    /// The directory relative paths on the command line are resolved against.
    public let currentDirectory: String
    /// The `--config` file as given, or nil.
    public let configFile: String?
    /// The current time. Commands take "now" from here, never from `Date()`, so that the
    /// whole run sees one clock.
    public let now: @Sendable () -> Date

    let output: TextSink
    let errorOutput: TextSink
    private let loadedConfiguration = Mutex<BelayConfiguration?>(nil)

    public init(environment: [String: String], currentDirectory: String, configFile: String?,
                output: TextSink = .standardOutput, errorOutput: TextSink = .standardError,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.configFile = configFile
        self.output = output
        self.errorOutput = errorOutput
        self.now = now
    }

    /// Writes a line of data to standard output.
    public func print(_ line: String = "") { output.write(line + "\n") }

    /// Writes a line for the person at the terminal to standard error (progress, hints,
    /// confirmations): scripts reading standard output never see it.
    public func note(_ line: String) { errorOutput.write(line + "\n") }

    /// Writes `value` as pretty-printed JSON with sorted, snake_case keys to standard output.
    public func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date, fraction: .none))
        }
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    }

    /// The configuration from `--config`, `$BELAY_CONFIG`, `./config.json` or the defaults,
    /// with `BELAY_*` overrides; loaded and validated once.
    /// - Throws: `ConfigurationError` naming each wrong key.
    public func configuration() throws -> BelayConfiguration {
        if let loaded = loadedConfiguration.withLock({ $0 }) { return loaded }
        let configuration = try BelayConfiguration.load(configFile: configFile, environment: environment,
                                                        currentDirectory: currentDirectory)
        loadedConfiguration.withLock { $0 = configuration }
        return configuration
    }

    /// `path` made absolute against the working directory (for file arguments).
    public func absolutePath(_ path: String) -> String {
        let expanded = path.hasPrefix("~/") ? (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() : path
        let absolute = expanded.hasPrefix("/") ? expanded : (currentDirectory as NSString).appendingPathComponent(expanded)
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
