import BelayStorage

/// PostgreSQL's SQLSTATEs read as the storage layer's engine-neutral errors.
extension DatabaseError {
    /// An error the server reported for a statement (its SQLSTATE and message).
    public static func server(sqlState: String, message: String, sql: String?) -> DatabaseError {
        .engine(label: "PostgreSQL error \(sqlState)", code: sqlState, message: message, sql: sql, cause: cause(sqlState: sqlState))
    }

    /// What a SQLSTATE means to a caller.
    private static func cause(sqlState state: String) -> Cause {
        switch state {
        case "23505": return .uniqueViolation
        case "23503": return .foreignKeyViolation
        case _ where state.hasPrefix("23"): return .otherConstraintViolation
        // Serialization failure and deadlock: running the transaction again may succeed.
        case "40001", "40P01": return .conflict
        // Statement timeout, lock not available.
        case "57014", "55P03": return .busy
        case "53100": return .storageFull
        // The server is going away (admin shutdown, crash) or the connection is gone.
        case _ where state.hasPrefix("57P") || state.hasPrefix("08"): return .serverGone
        default: return .other
        }
    }

    /// The SQLSTATE the server gave, or nil for an error that did not come from PostgreSQL.
    public var sqlState: String? {
        engineLabel?.hasPrefix("PostgreSQL ") == true ? engineCode : nil
    }
}
