import BelayStorage
import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// SQLite's result codes read as the storage layer's engine-neutral errors.
extension DatabaseError {
    // Extended result codes are C macros built from expressions, which Swift does not import.
    static let constraintUnique: Int32 = 2067       // SQLITE_CONSTRAINT | (8 << 8)
    static let constraintPrimaryKey: Int32 = 1555   // SQLITE_CONSTRAINT | (6 << 8)
    static let constraintForeignKey: Int32 = 787    // SQLITE_CONSTRAINT | (3 << 8)

    /// An error from a SQLite result code, reading the message (and the operating system's
    /// `errno`, which tells a full disk from another I/O error) from the connection.
    init(code: Int32, connection: OpaquePointer?, sql: String?) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        let systemErrorNumber = connection.map { sqlite3_system_errno($0) } ?? 0
        self = Self.sqlite(extendedCode: code, message: message, sql: sql, systemErrorNumber: systemErrorNumber)
    }

    /// An error from a SQLite extended result code and message.
    static func sqlite(extendedCode code: Int32, message: String, sql: String?, systemErrorNumber: Int32 = 0) -> DatabaseError {
        let primary = code & 0xFF
        let label = primary == code ? "SQLite error \(code)" : "SQLite error \(primary) (extended \(code))"
        return .engine(label: label, code: String(code), message: message, sql: sql,
                       cause: cause(extendedCode: code, message: message, systemErrorNumber: systemErrorNumber))
    }

    /// The canonical name of the unique constraint SQLite's message names
    /// (`UNIQUE constraint failed: attendances.meetup_id, attendances.member_id` →
    /// `attendances.meetup_id,member_id`); nil for a message of another form (an index on an
    /// expression is named by its index).
    static func uniqueConstraint(inMessage message: String) -> String? {
        let prefix = "UNIQUE constraint failed: "
        guard let start = message.range(of: prefix)?.upperBound else { return nil }
        var table: String?
        var columns: [String] = []
        for item in message[start...].split(separator: ",") {
            let parts = item.trimmingCharacters(in: .whitespaces).split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, table == nil || table == parts[0] else { return nil }
            table = parts[0]
            columns.append(parts[1])
        }
        return table.map { "\($0).\(columns.joined(separator: ","))" }
    }

    /// What SQLite's code means to a caller.
    private static func cause(extendedCode code: Int32, message: String, systemErrorNumber: Int32) -> Cause {
        let primary = code & 0xFF
        switch primary {
        case SQLITE_CONSTRAINT:
            if code == constraintUnique || code == constraintPrimaryKey {
                return .uniqueViolation(constraint: uniqueConstraint(inMessage: message))
            }
            if code == constraintForeignKey { return .foreignKeyViolation }
            return .otherConstraintViolation
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy
        case SQLITE_FULL:
            return .storageFull
        case SQLITE_IOERR, SQLITE_CANTOPEN:
            return systemErrorNumber == ENOSPC || systemErrorNumber == EDQUOT ? .storageFull : .other
        default:
            return .other
        }
    }

    /// The extended SQLite result code (for example 2067 for a UNIQUE constraint), or nil
    /// when the error did not come from SQLite.
    public var extendedResultCode: Int32? {
        guard let engineCode, engineLabel?.hasPrefix("SQLite ") == true else { return nil }
        return Int32(engineCode)
    }

    /// The primary SQLite result code (for example 19 for any constraint), or nil when the
    /// error did not come from SQLite.
    public var resultCode: Int32? { extendedResultCode.map { $0 & 0xFF } }
}
