/// The error of the command-line layer. A usage error (exit 64) is printed with the usage of
/// the command; a failure (exit 1) is printed alone. Both say what to do next.
public struct CommandLineError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// The command line itself is wrong: unknown option, missing value, bad value.
        case usage(message: String)
        /// The command line was fine but the work failed: missing record, refused rule.
        case failure(message: String)
    }

    let kind: Kind

    /// A usage error: the command line is wrong. Exit code 64.
    public static func usage(_ message: String) -> CommandLineError { .init(kind: .usage(message: message)) }
    /// A failure: the request was understood but cannot be done. Exit code 1.
    public static func failure(_ message: String) -> CommandLineError { .init(kind: .failure(message: message)) }

    /// A file that could not be written, with the system's reason and what to check.
    public static func cannotWrite(_ path: String, _ error: any Error) -> CommandLineError {
        failure("Cannot write '\(path)': \(reason(error)). Check the directory exists and is writable.")
    }

    /// The system's description of `error`, without the full stop Foundation ends it with
    /// (the messages go on after it).
    public static func reason(_ error: any Error) -> String {
        var reason = error.localizedDescription
        while reason.hasSuffix(".") || reason.hasSuffix(" ") { reason.removeLast() }
        return reason
    }

    /// True for a usage error.
    public var isUsageError: Bool {
        if case .usage = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case let .usage(message), let .failure(message): return message
        }
    }
}
