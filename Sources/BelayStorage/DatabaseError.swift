import Foundation

/// The error thrown by the storage layer on every engine: a statement the engine refused, a
/// column that could not be converted, a stored value no case of an enumeration names, a
/// migration refusal, or a database that cannot be reached.
///
/// The description names the engine's own code and message and the SQL that was running,
/// never the values bound to it (they may be tokens or personal data):
/// `SQLite error 19: NOT NULL constraint failed: meetups.title – while executing `INSERT …``.
/// What the failure means to a caller (a unique violation, busy, a conflict, a full disk) is
/// its `cause`, which each engine module decides from its own codes.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// What an engine's refusal means to a caller, whichever engine refused.
    public enum Cause: Sendable, Equatable {
        /// A UNIQUE or PRIMARY KEY constraint (or unique index), named the same on every
        /// engine: `table.column`, or `table.column1,column2` for several columns, an
        /// expression such as `lower(email)` named by its column (`users.email`); nil when the
        /// engine did not say which.
        case uniqueViolation(constraint: String?)
        /// A FOREIGN KEY constraint.
        case foreignKeyViolation
        /// Any other constraint (NOT NULL, CHECK, a trigger's refusal).
        case otherConstraintViolation
        /// Another connection held a lock past the timeout, or a statement ran past its own.
        case busy
        /// The engine aborted the transaction for a conflict with a concurrent one: running it
        /// again may succeed.
        case conflict
        /// The disk (or quota) holding the database is full: nothing can be written until
        /// space is freed; reads still work.
        case storageFull
        /// The server is going away or gone: the request may succeed once it is back.
        case serverGone
        /// Anything else (a syntax error, a read-only file, a corrupt database).
        case other
    }

    enum Kind: Sendable {
        /// The engine refused a statement: `label` is its name and code as its messages give
        /// them (`SQLite error 19 (extended 2067)`, `PostgreSQL error 23505`), `code` the code alone.
        case engine(label: String, code: String, message: String, sql: String?, cause: Cause)
        /// A column held a value of a type the caller did not ask for (for example NULL
        /// read as a non-optional).
        case conversion(column: String, expected: String, found: String, sql: String?)
        /// A column held a value that no case of the enumeration read from it has (a row
        /// written by a newer Belay, or by hand).
        case unknownValue(column: String, value: String, type: String, sql: String?)
        /// The migrator refused to run.
        case migration(MigrationRefusal, message: String)
        /// The API was used in a way the engine cannot honour (for example a closed connection).
        case misuse(message: String)
        /// The database server cannot be reached (down, restarting, connection lost).
        case unavailable(message: String)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// A statement the engine refused, as an engine module reports it.
    /// - Parameters:
    ///   - label: the engine's name and code as its messages give them (`PostgreSQL error 23505`).
    ///   - code: the code alone (`23505`, `2067`), for `engineCode`.
    ///   - message: the engine's own message, which never holds bound values.
    ///   - sql: the statement that was running, if any.
    ///   - cause: what the refusal means to a caller.
    public static func engine(label: String, code: String, message: String, sql: String?, cause: Cause) -> DatabaseError {
        DatabaseError(.engine(label: label, code: code, message: message, sql: sql, cause: cause))
    }

    /// A migrator's refusal to touch a database (the same refusals on every engine).
    public static func migrationRefused(_ refusal: MigrationRefusal, _ message: String) -> DatabaseError {
        DatabaseError(.migration(refusal, message: message))
    }

    /// The database server cannot be reached; requests should be retried later.
    public static func unavailable(_ message: String) -> DatabaseError {
        DatabaseError(.unavailable(message: message))
    }

    /// The storage layer was used in a way it cannot honour (a closed connection, a nested
    /// transaction); `message` says what to do instead.
    public static func misuse(_ message: String) -> DatabaseError {
        DatabaseError(.misuse(message: message))
    }

    /// The engine's code for a refused statement (SQLite's extended result code, PostgreSQL's
    /// SQLSTATE), or nil for an error of the storage layer itself.
    public var engineCode: String? {
        if case let .engine(_, code, _, _, _) = kind { return code }
        return nil
    }

    /// The engine's name and code as its messages give them (`PostgreSQL error 23505`), or nil
    /// for an error of the storage layer itself.
    public var engineLabel: String? {
        if case let .engine(label, _, _, _, _) = kind { return label }
        return nil
    }

    /// What the failure means to a caller; nil for an error of the storage layer itself
    /// (a conversion, a migration refusal, a misuse), `.serverGone` when the server cannot be
    /// reached.
    public var cause: Cause? {
        switch kind {
        case let .engine(_, _, _, _, cause): return cause
        case .unavailable: return .serverGone
        default: return nil
        }
    }

    /// The SQL that was running, if any. Bound values are never recorded.
    public var sql: String? {
        switch kind {
        case let .engine(_, _, _, sql, _): return sql
        case let .conversion(_, _, _, sql): return sql
        case let .unknownValue(_, _, _, sql): return sql
        case .migration, .misuse, .unavailable: return nil
        }
    }

    /// True for any constraint violation (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, …).
    public var isConstraintViolation: Bool {
        isUniqueConstraintViolation || [.foreignKeyViolation, .otherConstraintViolation].contains(cause)
    }

    /// True for a UNIQUE or PRIMARY KEY constraint violation.
    public var isUniqueConstraintViolation: Bool {
        if case .uniqueViolation = cause { return true }
        return false
    }

    /// The unique constraint a statement violated, by its canonical name (`users.email`,
    /// `attendances.meetup_id,member_id`: the same on every engine); nil for another error or
    /// when the engine did not say.
    public var violatedUniqueConstraint: String? {
        if case let .uniqueViolation(constraint) = cause { return constraint }
        return nil
    }

    /// True for a FOREIGN KEY constraint violation.
    public var isForeignKeyViolation: Bool { cause == .foreignKeyViolation }

    /// True when the engine aborted the transaction for a conflict with a concurrent one
    /// (serialization failure or deadlock): running it again may succeed.
    public var isConflict: Bool { cause == .conflict }

    /// This refusal as a conflict, for a write that knows a concurrent one caused it (a unique
    /// key another node's write took first, which the next run finds): the group-commit writer
    /// then runs the write again under its own policy, as after any conflict the engine reports.
    public func asConflict() -> DatabaseError {
        guard case let .engine(label, code, message, sql, _) = kind else { return self }
        return .engine(label: label, code: code, message: message, sql: sql, cause: .conflict)
    }

    /// True when the disk (or the user's quota) holding the database is full.
    /// Nothing can be written until space is freed; reads still work.
    public var isStorageFull: Bool { cause == .storageFull }

    /// True when the request may succeed later: another connection or process held a lock
    /// longer than the busy timeout, a statement ran past its timeout, the server kept
    /// aborting the transaction for conflicts, or the server cannot be reached.
    public var isBusy: Bool { [.busy, .conflict, .serverGone].contains(cause) }

    /// The engine's own message (which names the constraint a statement violated).
    public var engineMessage: String? {
        if case let .engine(_, _, message, _, _) = kind { return message }
        return nil
    }

    /// The column and the stored value, when a column held a value no case of the
    /// enumeration read from it has.
    public var unknownStoredValue: (column: String, value: String)? {
        if case let .unknownValue(column, value, _, _) = kind { return (column, value) }
        return nil
    }

    /// The migration refusal, when the migrator refused to run.
    public var migrationRefusal: MigrationRefusal? {
        if case let .migration(refusal, _) = kind { return refusal }
        return nil
    }

    public var description: String {
        switch kind {
        case let .engine(label, _, message, sql, _):
            var text = "\(label): \(message)"
            if let sql { text += " – while executing `\(Self.abbreviated(sql))`" }
            return text
        case let .conversion(column, expected, found, sql):
            var text = "Cannot read column \(column) as \(expected): it holds \(found)"
            if let sql { text += " – while executing `\(Self.abbreviated(sql))`" }
            return text
        case let .unknownValue(column, value, type, sql):
            var text = "Column \(column) holds '\(value)', which is not a \(type)"
            if let sql { text += " – while executing `\(Self.abbreviated(sql))`" }
            return text
        case let .migration(_, message):
            return message
        case let .misuse(message):
            return message
        case let .unavailable(message):
            return message
        }
    }

    /// Collapses whitespace so multi-line SQL stays on one line of a log.
    public static func abbreviated(_ sql: String) -> String {
        let collapsed = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            .joined(separator: " ")
        return collapsed.count > 500 ? String(collapsed.prefix(500)) + "…" : collapsed
    }
}

/// Why the migrator refused to touch a database.
public enum MigrationRefusal: String, Sendable, CaseIterable {
    /// The migrations directory is missing or unreadable.
    case directoryUnreadable = "directory_unreadable"
    /// A file in the migrations directory is not named `NNNN_name.sql`.
    case badFileName = "bad_file_name"
    /// Two files share a number.
    case duplicateNumber = "duplicate_number"
    /// The numbers do not start at 0001 (later gaps are allowed: numbers are reserved by
    /// work merged in any order).
    case gapInNumbering = "gap_in_numbering"
    /// A pending migration is numbered below one already applied: applying it now would
    /// build the schema in another order than the numbers say.
    /// A migration already applied to the database has been edited since.
    case checksumChanged = "checksum_changed"
    /// The database has migrations this binary does not know: its schema is newer.
    case unknownMigrationApplied = "unknown_migration_applied"
}
