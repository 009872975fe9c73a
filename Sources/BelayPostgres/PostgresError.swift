/// A failure talking to PostgreSQL: the connection could not be made or was lost, or the
/// server refused a statement. `message` is PostgreSQL's own text with what Belay was doing.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// No connection could be made (wrong URL, server down, authentication refused).
        case connectionFailed
        /// The server refused a statement; `sqlState` is its five-character SQLSTATE.
        case statementFailed(sqlState: String)
        /// In pipeline mode: skipped, because a statement sent before it failed.
        case pipelineAborted
        /// The target of `belay db copy` already holds tables or rows.
        case targetNotEmpty
        /// What was copied does not read back the same.
        case verificationFailed
    }

    public let kind: Kind
    public let message: String
    /// For a unique violation, the key's canonical name (`users.email`), when the server said.
    public let uniqueKey: String?

    public init(_ kind: Kind, _ message: String, uniqueKey: String? = nil) {
        self.kind = kind
        self.message = message
        self.uniqueKey = uniqueKey
    }

    public var description: String { message }
}
