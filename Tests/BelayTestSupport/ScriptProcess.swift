import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test fixture written in Python (`scripts/testing/NAME`, run through `scripts/test-python`
/// with the reference libraries): started on a free loopback port, which it announces with a
/// first line `listening PORT`; every later line of its output is kept for the test to wait on.
/// Killed when this object goes (and when the test process exits).
public final class ScriptProcess: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private var collected: [String] = []
    private var ended = false
    private var errorText = Data()
    public private(set) var port = 0

    /// - Throws: when Python or the libraries cannot be set up, or the script does not listen.
    public init(script: String, arguments: [String] = []) throws {
        let root = BelayProcess.packageRoot
        process.executableURL = root.appendingPathComponent("scripts/test-python")
        process.arguments = [root.appendingPathComponent("scripts/testing/\(script)").path] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        ChildProcessRegistry.started(process.processIdentifier)
        // Standard error is read all along (kept to its last 64 KiB), so a chatty fixture never
        // blocks on a full pipe.
        let errorHandle = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                condition.lock()
                errorText.append(chunk)
                if errorText.count > 65_536 { errorText.removeFirst(errorText.count - 65_536) }
                condition.unlock()
            }
        }
        let handle = output.fileHandleForReading
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
                collected += complete
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        guard let line = waitForLine(timeout: 300, where: { $0.hasPrefix("listening ") }),
              let port = Int(line.dropFirst("listening ".count)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            condition.lock()
            let problem = String(decoding: errorText, as: UTF8.self)
            condition.unlock()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(script) did not start:\n\(problem)"])
        }
        self.port = port
    }

    /// Every output line so far, the `listening` line included.
    public var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }

    /// Waits until the lines so far satisfy `predicate`; false when `timeout` passed first.
    public func wait(timeout: TimeInterval = 60, until predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if predicate(collected) { return true }
            if ended || !condition.wait(until: deadline) { return predicate(collected) }
        }
    }

    /// Waits for an output line `predicate` accepts.
    public func waitForLine(timeout: TimeInterval = 60, where predicate: (String) -> Bool) -> String? {
        var found: String?
        _ = wait(timeout: timeout) { lines in
            found = lines.first(where: predicate)
            return found != nil
        }
        return found
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        ChildProcessRegistry.ended(process.processIdentifier)
    }
}
