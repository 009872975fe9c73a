import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The error thrown by BelayStorage: a failed SQLite call, a column that could not be
/// converted, a stored value no case of an enumeration names, or a migration refusal.
///
/// The description names the SQLite result code, SQLite's message and the SQL that was
/// running, never the values bound to it (they may be tokens or personal data):
/// `SQLite error 19: NOT NULL constraint failed: meetups.title – while executing `INSERT …``.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    enum Kind: Sendable {
        /// SQLite returned an error code.
        case sqlite(extendedCode: Int32, message: String, sql: String?)
        /// A column held a value of a type the caller did not ask for (for example NULL
        /// read as a non-optional).
        case conversion(column: String, expected: String, found: String, sql: String?)
        /// A column held a value that no case of the enumeration read from it has (a row
        /// written by a newer Belay, or by hand).
        case unknownValue(column: String, value: String, type: String, sql: String?)
        /// The migrator refused to run.
        case migration(MigrationRefusal, message: String)
        /// The API was used in a way SQLite cannot honour (for example a closed connection).
        case misuse(message: String)
        /// A database server refused a statement; `sqlState` is its five-character SQLSTATE.
        case server(sqlState: String, message: String, sql: String?)
        /// The database server cannot be reached (down, restarting, connection lost).
        case unavailable(message: String)
    }

    let kind: Kind

    /// The `errno` of the operating-system call behind the error (SQLite's
    /// `sqlite3_system_errno`), 0 when there was none or it is unknown.
    public private(set) var systemErrorNumber: Int32 = 0

    // Extended result codes are C macros built from expressions, which Swift does not import.
    static let constraintUnique: Int32 = 2067       // SQLITE_CONSTRAINT | (8 << 8)
    static let constraintPrimaryKey: Int32 = 1555   // SQLITE_CONSTRAINT | (6 << 8)
    static let constraintForeignKey: Int32 = 787    // SQLITE_CONSTRAINT | (3 << 8)

    init(_ kind: Kind) { self.kind = kind }

    /// An error a database server reported for a statement (PostgreSQL's SQLSTATE and message).
    public static func server(sqlState: String, message: String, sql: String?) -> DatabaseError {
        DatabaseError(.server(sqlState: sqlState, message: message, sql: sql))
    }

    /// A migrator's refusal to touch a database (the same refusals on every engine).
    public static func migrationRefused(_ refusal: MigrationRefusal, _ message: String) -> DatabaseError {
        DatabaseError(.migration(refusal, message: message))
    }

    /// The database server cannot be reached; requests should be retried later.
    public static func unavailable(_ message: String) -> DatabaseError {
        DatabaseError(.unavailable(message: message))
    }

    /// The SQLSTATE a database server gave, or nil for an SQLite error.
    public var sqlState: String? {
        if case let .server(state, _, _) = kind { return state }
        return nil
    }

    /// True when the server aborted the transaction for a conflict with a concurrent one
    /// (serialization failure or deadlock): running it again may succeed.
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// An error from a SQLite result code, reading the message from the connection.
    init(code: Int32, connection: OpaquePointer?, sql: String?) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        self.init(.sqlite(extendedCode: code, message: message, sql: sql))
        if let connection { systemErrorNumber = sqlite3_system_errno(connection) }
    }

    /// The extended SQLite result code (for example 2067 for a UNIQUE constraint), or nil
    /// when the error did not come from SQLite.
    public var extendedResultCode: Int32? {
        if case let .sqlite(code, _, _) = kind { return code }
        return nil
    }

    /// The primary SQLite result code (for example 19 for any constraint), or nil when the
    /// error did not come from SQLite.
    public var resultCode: Int32? { extendedResultCode.map { $0 & 0xFF } }

    /// SQLite's own message, when the error came from SQLite.
    public var sqliteMessage: String? {
        if case let .sqlite(_, message, _) = kind { return message }
        return nil
    }

    /// The SQL that was running, if any. Bound values are never recorded.
    public var sql: String? {
        switch kind {
        case let .sqlite(_, _, sql): return sql
        case let .conversion(_, _, _, sql): return sql
        case let .unknownValue(_, _, _, sql): return sql
        case let .server(_, _, sql): return sql
        case .migration, .misuse, .unavailable: return nil
        }
    }

    /// True for any constraint violation (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, …).
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT || sqlState?.hasPrefix("23") == true }

    /// True for a UNIQUE or PRIMARY KEY constraint violation.
    public var isUniqueConstraintViolation: Bool {
        extendedResultCode == Self.constraintUnique || extendedResultCode == Self.constraintPrimaryKey || sqlState == "23505"
    }

    /// True for a FOREIGN KEY constraint violation.
    public var isForeignKeyViolation: Bool { extendedResultCode == Self.constraintForeignKey || sqlState == "23503" }

    /// True when the disk (or the user's quota) holding the database or its write-ahead log
    /// is full: SQLite's `SQLITE_FULL`, or an I/O error whose cause was `ENOSPC`/`EDQUOT`.
    /// Nothing can be written until space is freed; reads still work.
    public var isStorageFull: Bool {
        if sqlState == "53100" { return true } // disk_full
        guard let resultCode else { return false }
        if resultCode == SQLITE_FULL { return true }
        return (resultCode == SQLITE_IOERR || resultCode == SQLITE_CANTOPEN)
            && (systemErrorNumber == ENOSPC || systemErrorNumber == EDQUOT)
    }

    /// True when the request may succeed later: another connection or process held a lock
    /// longer than the busy timeout, a statement ran past its timeout, the server kept
    /// aborting the transaction for conflicts, or the server cannot be reached.
    public var isBusy: Bool {
        if case .unavailable = kind { return true }
        // 57014: statement timeout; 55P03: lock not available; 40001/40P01: conflicts that
        // outlasted the retries; 57P01-57P03 and 08xxx: the server is going away or gone.
        if let sqlState {
            return sqlState == "57014" || sqlState == "55P03" || isSerializationFailure
                || sqlState.hasPrefix("57P") || sqlState.hasPrefix("08")
        }
        return resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED
    }

    /// The engine's own message: SQLite's, or the server's (which names the constraint a
    /// statement violated).
    public var engineMessage: String? {
        switch kind {
        case let .sqlite(_, message, _), let .server(_, message, _): return message
        default: return nil
        }
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
        case let .sqlite(code, message, sql):
            let primary = code & 0xFF
            var text = primary == code ? "SQLite error \(code): \(message)"
                                       : "SQLite error \(primary) (extended \(code)): \(message)"
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
        case let .server(state, message, sql):
            var text = "PostgreSQL error \(state): \(message)"
            if let sql { text += " – while executing `\(Self.abbreviated(sql))`" }
            return text
        case let .unavailable(message):
            return message
        }
    }

    /// Collapses whitespace so multi-line SQL stays on one line of a log.
    static func abbreviated(_ sql: String) -> String {
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
