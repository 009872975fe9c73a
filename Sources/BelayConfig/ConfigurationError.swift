/// Why a configuration could not be loaded. Its `description` is ready to print: one line per
/// problem, each naming where the value came from and the key, e.g.
/// `config.json: server.port: 70000 is not a port (1–65535, or 0 for any free port)`.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One wrong value.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// Where the value came from: the configuration file as named, an environment variable
        /// (`BELAY_SERVER_PORT`), or `built-in default`.
        public var source: String
        /// The dotted key path, e.g. `server.port`; empty for the file as a whole.
        public var key: String
        /// What is wrong and what would be right.
        public var message: String

        public var description: String {
            key.isEmpty ? "\(source): \(message)" : "\(source): \(key): \(message)"
        }
    }

    enum Kind: Sendable, Equatable {
        case fileMissing(path: String)
        case fileUnreadable(path: String, reason: String)
        case syntax(path: String, detail: String)
        case invalid([Problem])
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// Every problem found; a missing or unparsable file is one problem with an empty key.
    public var problems: [Problem] {
        switch kind {
        case let .fileMissing(path):
            return [Problem(source: path, key: "", message: "no such file; check the path given to --config (or BELAY_CONFIG), or leave it out to use ./config.json or the built-in defaults")]
        case let .fileUnreadable(path, reason):
            return [Problem(source: path, key: "", message: "cannot be read (\(reason)); check its permissions")]
        case let .syntax(path, detail):
            return [Problem(source: path, key: "", message: "is not valid JSON: \(detail)")]
        case let .invalid(problems):
            return problems
        }
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
