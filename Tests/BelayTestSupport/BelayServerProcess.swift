#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `belay serve` running as a child process on a free loopback port, for end-to-end tests:
/// starts it with `--port 0`, reads the real port from the `listening on http://HOST:PORT` line
/// it prints on standard output, and stops it with a signal, collecting its exit status.
///
/// Both output streams are read line by line as they come, so a test waits for a line
/// instead of sleeping.
public final class BelayServerProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var outputLines: [String] = []
    private var errorLines: [String] = []
    private var openStreams = 2
    private let killer: DispatchWorkItem

    /// The port the server listens on.
    public private(set) var port = 0
    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Starts `belay serve --port 0` with `arguments` after it (e.g. `--config FILE`) in
    /// `directory` and waits until it listens.
    /// - Parameter timeout: the child is killed after this many seconds, so a hung test fails.
    /// - Throws: when the binary cannot be started, or it exits or stays silent for
    ///   `startTimeout` seconds without printing the listening line (the error has its output).
    public init(arguments: [String] = [], environment: [String: String] = [:], in directory: String,
                startTimeout: TimeInterval = 60, timeout: TimeInterval = 600) throws {
        process.executableURL = BelayProcess.executableURL
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var childEnvironment: [String: String] = [:]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"] {
            if let value = ProcessInfo.processInfo.environment[key] { childEnvironment[key] = value }
        }
        childEnvironment.merge(environment) { $1 }
        process.environment = childEnvironment
        let standardOutput = Pipe(), standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        process.standardInput = FileHandle.nullDevice
        let process = process
        killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try process.run()
        ChildProcessRegistry.started(process.processIdentifier)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        read(standardOutput.fileHandleForReading, standardOutput: true)
        read(standardError.fileHandleForReading, standardOutput: false)

        guard let line = waitForOutputLine(timeout: startTimeout, where: { $0.hasPrefix("listening on http://") }),
              let portText = line.split(separator: ":").last, let port = Int(portText) else {
            send(SIGKILL)
            let result = wait()
            throw ServerDidNotStart(description: "belay serve did not print its listening line:\n\(result)")
        }
        self.port = port
    }

    /// Why the server did not come up, with everything it printed.
    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let description: String
    }

    private func read(_ handle: FileHandle, standardOutput: Bool) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                var complete: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                condition.lock()
                if standardOutput { outputLines += complete } else { errorLines += complete }
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            if !pending.isEmpty {
                let last = String(decoding: pending, as: UTF8.self)
                if standardOutput { outputLines.append(last) } else { errorLines.append(last) }
            }
            openStreams -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Every line printed on standard output so far.
    public var standardOutput: [String] {
        condition.lock()
        defer { condition.unlock() }
        return outputLines
    }

    /// Every line printed on standard error so far.
    public var standardError: [String] {
        condition.lock()
        defer { condition.unlock() }
        return errorLines
    }

    /// Waits for a standard-output line `predicate` accepts; nil when the child ended or
    /// `timeout` passed first.
    public func waitForOutputLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        waitForLine(in: \.outputLines, timeout: timeout, where: predicate)
    }

    /// Waits for a standard-error line `predicate` accepts; nil when the child ended or
    /// `timeout` passed first.
    public func waitForErrorLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        waitForLine(in: \.errorLines, timeout: timeout, where: predicate)
    }

    private func waitForLine(in lines: KeyPath<BelayServerProcess, [String]>, timeout: TimeInterval,
                             where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = self[keyPath: lines].first(where: predicate) { return line }
            if openStreams == 0 || !condition.wait(until: deadline) { return self[keyPath: lines].first(where: predicate) }
        }
    }

    /// Sends `signal` (SIGTERM, SIGINT, SIGKILL…).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to end and returns what it printed, with its status (128 + the
    /// signal number when a signal ended it).
    public func wait() -> BelayProcessResult {
        process.waitUntilExit()
        ChildProcessRegistry.ended(process.processIdentifier)
        killer.cancel()
        condition.lock()
        while openStreams > 0 { condition.wait() }
        let result = BelayProcessResult(
            status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus,
            standardOutput: outputLines.map { $0 + "\n" }.joined(),
            standardError: errorLines.map { $0 + "\n" }.joined())
        condition.unlock()
        return result
    }

    /// SIGTERM, then the exit status and output.
    public func terminate() -> BelayProcessResult {
        send(SIGTERM)
        return wait()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        killer.cancel()
    }
}
