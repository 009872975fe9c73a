import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `belay` binary running in the background, for tests that act on it while it
/// works: wait for a line it prints, stop, continue or kill it, then collect its exit status.
///
/// Standard output and error are read on their own threads as they come, so a test can
/// wait for a progress line instead of sleeping.
public final class BelayChildProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var errorLines: [String] = []
    private var output = Data()
    private var openStreams = 2
    private let killer: DispatchWorkItem

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Starts `belay` with `arguments` in `directory`, with the same environment rules as
    /// `BelayProcess.run` (only PATH, HOME, LANG, LC_ALL, TMPDIR and `environment`).
    /// - Parameter timeout: the child is killed after this many seconds, so a hung test fails.
    /// - Throws: when the binary cannot be started.
    public init(_ arguments: [String], environment: [String: String] = [:], in directory: String,
                timeout: TimeInterval = 300) throws {
        process.executableURL = BelayProcess.executableURL
        process.arguments = arguments
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

        Thread.detachNewThread { [self] in
            let data = standardOutput.fileHandleForReading.readDataToEndOfFile()
            condition.lock()
            output = data
            openStreams -= 1
            condition.broadcast()
            condition.unlock()
        }
        Thread.detachNewThread { [self] in
            let handle = standardError.fileHandleForReading
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                var lines: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                condition.lock()
                errorLines += lines
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            if !pending.isEmpty { errorLines.append(String(decoding: pending, as: UTF8.self)) }
            openStreams -= 1
            condition.broadcast()
            condition.unlock()
        }
    }

    deinit {
        // A test that failed before waiting for its child does not leave it running.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits until the child prints a line on standard error that `predicate` accepts.
    /// - Returns: the line, or nil when the child ended (or `timeout` passed) without one.
    public func waitForErrorLine(timeout: TimeInterval = 120, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = errorLines.first(where: predicate) { return line }
            if openStreams == 0 || !condition.wait(until: deadline) { return errorLines.first(where: predicate) }
        }
    }

    /// Sends `signal` (SIGKILL, SIGSTOP, SIGCONT, SIGTERM…).
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
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: errorLines.joined(separator: "\n") + (errorLines.isEmpty ? "" : "\n"))
        condition.unlock()
        return result
    }
}
