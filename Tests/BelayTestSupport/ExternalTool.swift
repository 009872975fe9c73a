import Foundation

/// Runs system tools (mount, umount) for test fixtures that need them.
enum ExternalTool {
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
}
