import Foundation

/// What a run of the `belay` binary produced.
public struct BelayProcessResult: Sendable, CustomStringConvertible {
    /// The exit status (or 128 + signal number when the process was killed).
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    /// Everything, for test failure messages.
    public var description: String {
        "exit \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
    }
}

/// Runs the real, built `belay` executable as a child process, the way an admin would.
///
/// The binary is found next to the test bundle (the directory of `/proc/self/exe`, where
/// SwiftPM puts every product of the build), else at `.build/debug/belay` in the package.
public enum BelayProcess {
    /// Where the binary was found.
    public static let executableURL: URL = {
        let candidates: [URL] = [
            URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/nonexistent")
                .deletingLastPathComponent().appendingPathComponent("belay"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("belay"),
            packageRoot.appendingPathComponent(".build/debug/belay"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[2]
    }()

    /// The root of the Belay package (for `config.json`, `Migrations/` and `Assets/`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A child's environment: `PATH`, `HOME`, `LANG`, `LC_ALL` and `TMPDIR` from this process
    /// plus `environment`, and nothing else, so `BELAY_*` variables of the machine never leak
    /// into a test.
    public static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        var childEnvironment: [String: String] = [:]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"] {
            if let value = ProcessInfo.processInfo.environment[key] { childEnvironment[key] = value }
        }
        return childEnvironment.merging(environment) { $1 }
    }

    /// Runs `belay` with `arguments` in `directory` and waits for it.
    ///
    /// The child gets `childEnvironment(environment)`. Standard output and error go to
    /// files (`ChildOutputFiles`), read when it has exited; standard input is `input` (empty
    /// when nil).
    /// - Parameter timeout: the child is killed after this many seconds (a hung test fails
    ///   instead of hanging the suite); its status is then 128 + SIGKILL.
    /// - Throws: when the binary cannot be started.
    public static func run(_ arguments: [String], environment: [String: String] = [:], in directory: String,
                           input: String? = nil, timeout: TimeInterval = 120) throws -> BelayProcessResult {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = childEnvironment(environment)

        let collected = try ChildOutputFiles.run(process, input: input.map { Data($0.utf8) }, timeout: timeout, stopSignal: SIGKILL)
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return BelayProcessResult(status: status, standardOutput: collected.standardOutput, standardError: collected.standardError)
    }
}
