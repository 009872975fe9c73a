import Foundation

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
    ///
    /// The outputs go to temporary files, not pipes: a child that another test starts at the
    /// same moment can inherit a pipe's writing end, and reading the pipe to its end then
    /// waits for that child too (tests hung so, each waiting for the other's child).
    /// - Parameter timeout: the tool is killed after this many seconds.
    /// - Returns: its exit status (that of SIGTERM when it was stopped at the timeout) and both outputs.
    /// - Throws: when the tool cannot start.
    public static func output(_ tool: String, _ arguments: [String], timeout: TimeInterval = 120) throws
        -> (status: Int32, standardOutput: String, standardError: String) {
        let directory = try TemporaryDirectory(prefix: "belay-tool-output")
        let outputPath = directory.file("stdout"), errorPath = directory.file("stderr")
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              FileManager.default.createFile(atPath: errorPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath), let errors = FileHandle(forWritingAtPath: errorPath) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "Cannot make the output files of \(tool) in \(directory.path)"])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        defer {
            try? output.close()
            try? errors.close()
        }
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        let standardOutput = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        let standardError = String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, standardOutput, standardError)
    }
}
