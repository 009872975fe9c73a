import Foundation
import Synchronization

/// Runs system tools (mount, umount) for test fixtures that need them.
public enum ExternalTool {
    /// Runs `tool` with `arguments`, its output discarded.
    /// - Throws: when the tool cannot start or exits non-zero (the message names the command).
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)"])
        }
    }

    /// Runs `tool` with `arguments` and collects what it printed.
    /// - Parameter timeout: the tool is killed after this many seconds.
    /// - Returns: its exit status (that of SIGTERM when it was stopped at the timeout) and both outputs.
    /// - Throws: when the tool cannot start.
    public static func output(_ tool: String, _ arguments: [String], timeout: TimeInterval = 120) throws
        -> (status: Int32, standardOutput: String, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let errorData = Mutex(Data())
        let group = DispatchGroup()
        group.enter()
        Thread.detachNewThread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        killer.cancel()
        let standardError = errorData.withLock { String(decoding: $0, as: UTF8.self) }
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), standardError)
    }
}
