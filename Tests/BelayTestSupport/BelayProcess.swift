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

    /// Runs `belay` with `arguments` in `directory` and waits for it.
    ///
    /// The child gets `PATH`, `HOME` and `LANG` from this process plus `environment`, and
    /// nothing else, so `BELAY_*` variables of the machine never leak into a test. Standard
    /// output and error are read on their own threads, so a chatty child never blocks on a
    /// full pipe; standard input is `input` (empty when nil).
    /// - Parameter timeout: the child is killed after this many seconds (a hung test fails
    ///   instead of hanging the suite); its status is then 128 + SIGKILL.
    /// - Throws: when the binary cannot be started.
    public static func run(_ arguments: [String], environment: [String: String] = [:], in directory: String,
                           input: String? = nil, timeout: TimeInterval = 120) throws -> BelayProcessResult {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var childEnvironment: [String: String] = [:]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"] {
            if let value = ProcessInfo.processInfo.environment[key] { childEnvironment[key] = value }
        }
        childEnvironment.merge(environment) { $1 }
        process.environment = childEnvironment

        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput

        try process.run()
        let collected = CollectedOutput()
        let group = DispatchGroup()
        for (index, pipe) in [output, errors].enumerated() {
            group.enter()
            Thread.detachNewThread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(index, data)
                group.leave()
            }
        }
        if let input { try? standardInput.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try? standardInput.fileHandleForWriting.close()

        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        group.wait()

        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return BelayProcessResult(status: status,
                                  standardOutput: String(decoding: collected.get(0), as: UTF8.self),
                                  standardError: String(decoding: collected.get(1), as: UTF8.self))
    }
}

/// The two pipes' contents, written by the reader threads.
private final class CollectedOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [Data] = [Data(), Data()]

    func set(_ index: Int, _ value: Data) { lock.lock(); data[index] = value; lock.unlock() }
    func get(_ index: Int) -> Data { lock.lock(); defer { lock.unlock() }; return data[index] }
}
