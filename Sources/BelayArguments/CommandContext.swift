import Foundation
import Synchronization

/// What a running command may use: its output streams, the environment, the working
/// directory, the `--config` file, one clock, and a per-run cache for what the tool loads
/// once (its configuration, say).
public final class CommandContext: Sendable {
    /// The process environment.
    public let environment: [String: String]
    /// The directory relative paths on the command line are resolved against.
    public let currentDirectory: String
    /// The `--config` file as given, or nil.
    public let configFile: String?
    /// The current time. Commands take "now" from here, never from `Date()`, so that the
    /// whole run sees one clock.
    public let now: @Sendable () -> Date

    /// Standard output: data for scripts.
    public let output: TextSink
    /// Standard error: messages for the person at the terminal.
    public let errorOutput: TextSink
    private let cache = Mutex<[ObjectIdentifier: any Sendable]>([:])

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

    /// The value of type `Value` made earlier in this run, or the one `make` makes now, kept
    /// for the rest of the run.
    /// - Throws: whatever `make` throws (nothing is kept then).
    public func cached<Value: Sendable>(_ type: Value.Type = Value.self, _ make: () throws -> Value) rethrows -> Value {
        let key = ObjectIdentifier(Value.self)
        if let kept = cache.withLock({ $0[key] }) as? Value { return kept }
        let made = try make()
        cache.withLock { $0[key] = made }
        return made
    }

    /// `path` made absolute against the working directory (for file arguments).
    public func absolutePath(_ path: String) -> String {
        let expanded = path.hasPrefix("~/") ? (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() : path
        let absolute = expanded.hasPrefix("/") ? expanded : (currentDirectory as NSString).appendingPathComponent(expanded)
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
