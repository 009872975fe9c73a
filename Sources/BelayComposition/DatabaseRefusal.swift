import BelayPostgres
import BelayStorage

/// A refusal by the database or its migrator, told apart from other failures so a command
/// can report it in its own words without knowing the engines' error types.
public struct DatabaseRefusal: Sendable, CustomStringConvertible {
    /// What was refused.
    public enum Kind: Sendable, Equatable {
        /// The migrations folder is missing or unreadable.
        case migrationsFolderUnreadable
        /// Another refusal by a migrator: a badly named or numbered file, a migration edited
        /// after it was applied, or one this Belay does not know.
        case migration
        /// A database server refused a statement (it gave an SQLSTATE).
        case statement
        /// PostgreSQL could not be reached or refused a connection or a copy.
        case server
    }

    /// What was refused.
    public let kind: Kind
    /// The database's or the migrator's message.
    public let description: String

    /// The refusal `error` is, or nil when `error` is another failure.
    public init?(_ error: any Error) {
        if let error = error as? DatabaseError {
            if let refusal = error.migrationRefusal {
                kind = refusal == .directoryUnreadable ? .migrationsFolderUnreadable : .migration
            } else if error.sqlState != nil {
                kind = .statement
            } else {
                return nil
            }
            description = error.description
        } else if let error = error as? PostgresError {
            kind = .server
            description = error.message
        } else {
            return nil
        }
    }

    /// True for the migrator's refusals (of its folder or of the database).
    public var isMigrationRefusal: Bool { kind == .migrationsFolderUnreadable || kind == .migration }
}
