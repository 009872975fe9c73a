import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `belay` binary running in the background, for tests that act on it while it
/// works: wait for a line it prints, stop, continue or kill it, then collect its exit status.
///
/// Both output streams are read line by line as they come, so a test waits for a line
/// instead of sleeping.
public final class BelayChildProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var outputLines: [String] = []
    private var errorLines: [String] = []
    private var openStreams = 2
    private let killer: DispatchWorkItem

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Starts `belay` with `arguments` in `directory`, with `BelayProcess.childEnvironment`.
    /// - Parameter timeout: the child is killed after this many seconds, so a hung test fails.
    /// - Throws: when the binary cannot be started.
    public init(_ arguments: [String], environment: [String: String] = [:], in directory: String,
                timeout: TimeInterval = 300) throws {
        process.executableURL = BelayProcess.executableURL
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = BelayProcess.childEnvironment(environment)
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
    }

    deinit {
        // A test that failed before waiting for its child does not leave it running.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        killer.cancel()
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

    /// Waits for a standard-output line `predicate` accepts.
    /// - Returns: the line, or nil when the child ended (or `timeout` passed) without one.
    public func waitForOutputLine(timeout: TimeInterval = 120, where predicate: (String) -> Bool) -> String? {
        waitForLine(in: \.outputLines, timeout: timeout, where: predicate)
    }

    /// Waits for a standard-error line `predicate` accepts.
    /// - Returns: the line, or nil when the child ended (or `timeout` passed) without one.
    public func waitForErrorLine(timeout: TimeInterval = 120, where predicate: (String) -> Bool) -> String? {
        waitForLine(in: \.errorLines, timeout: timeout, where: predicate)
    }

    private func waitForLine(in lines: KeyPath<BelayChildProcess, [String]>, timeout: TimeInterval,
                             where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = self[keyPath: lines].first(where: predicate) { return line }
            if openStreams == 0 || !condition.wait(until: deadline) { return self[keyPath: lines].first(where: predicate) }
        }
    }

    /// Sends `signal` (SIGKILL, SIGSTOP, SIGCONT, SIGTERM…).
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends SIGSTOP and returns once every thread of the child has stopped (`kill` only
    /// queues the signal: a thread can go on for a moment after it returns).
    /// - Returns: false when the child was not seen stopped within `timeout`.
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Bool {
        send(SIGSTOP)
        let deadline = Date().addingTimeInterval(timeout)
        let tasks = "/proc/\(process.processIdentifier)/task"
        while Date() < deadline {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            let allStopped = !threads.isEmpty && threads.allSatisfy { thread in
                guard let data = FileManager.default.contents(atPath: "\(tasks)/\(thread)/stat"),
                      let close = data.lastIndex(of: UInt8(ascii: ")")),
                      data.index(close, offsetBy: 2) < data.endIndex else { return true }
                // T: stopped; t: traced; Z/X: the thread has ended.
                return [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "Z"), UInt8(ascii: "X")]
                    .contains(data[data.index(close, offsetBy: 2)])
            }
            if allStopped { return true }
            usleep(1_000)
        }
        return false
    }

    /// Waits for the child to end and returns what it printed, with its status (128 + the
    /// signal number when a signal ended it).
    public func wait() -> BelayProcessResult {
        process.waitUntilExit()
        ChildProcessRegistry.ended(process.processIdentifier)
        killer.cancel()
        condition.lock()
        // What the child wrote before it exited is read in moments; a pipe that stays open
        // longer is held by a child another test started at that moment (it inherited the
        // pipe's end), and waiting for that child would hang this test.
        let drained = Date().addingTimeInterval(10)
        while openStreams > 0 && condition.wait(until: drained) {}
        let result = BelayProcessResult(
            status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus,
            standardOutput: outputLines.map { $0 + "\n" }.joined(),
            standardError: errorLines.map { $0 + "\n" }.joined())
        condition.unlock()
        return result
    }
}
