import Foundation
import BelayArguments
import BelayConfig
import BelayDomain

/// The entry point of the `belay` executable; `main.swift` only calls `BelayCLI.main()`.
public enum BelayCLI {
    /// Printed by `belay --version`.
    public static let version = "belay 0.1.0"

    /// The command tree, for tests that run commands in-process.
    public static let runner = CommandRunner(root: BelayRootCommand.self, version: version, describe: describe)

    /// Domain refusals print their message and stable reason code, e.g.
    /// `Error: jun is on the waitlist of meetup 3, not going. [waitlisted]`; a configuration error prints each problem on
    /// its own `Error:` line, then how to see them all.
    @Sendable static func describe(_ error: any Error) -> String? {
        if let error = error as? ConfigurationError {
            return error.problems.map { "\($0)" }.joined(separator: "\nError: ")
                + "\nFix the configuration and run the command again (`belay config check` shows every problem at once)."
        }
        if let error = error as? DomainError {
            var text = error.message
            if !text.hasSuffix(".") { text += "." }
            return text + " [\(error.reason.rawValue)]"
        }
        return nil
    }

    /// Runs the process's command line and exits with its status.
    public static func main() -> Never {
        let status = runner.run(arguments: Array(CommandLine.arguments.dropFirst()),
                                environment: ProcessInfo.processInfo.environment,
                                currentDirectory: FileManager.default.currentDirectoryPath)
        exit(status)
    }
}
