import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// Runs `tool` with `arguments` on `input` (nothing when nil) and collects what it
    /// printed (through files, see `ChildOutputFiles`).
    /// - Parameter timeout: the tool is killed after this many seconds.
    /// - Returns: its exit status (that of SIGTERM when it was stopped at the timeout) and both outputs.
    /// - Throws: when the tool cannot start.
    public static func output(_ tool: String, _ arguments: [String], input: Data? = nil, timeout: TimeInterval = 120) throws
        -> (status: Int32, standardOutput: String, standardError: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let collected = try ChildOutputFiles.run(process, input: input, timeout: timeout, stopSignal: SIGTERM)
        return (process.terminationStatus, collected.standardOutput, collected.standardError)
    }
}
