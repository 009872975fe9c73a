import BelayStorage

/// PostgreSQL's SQLSTATEs read as the storage layer's engine-neutral errors.
extension DatabaseError {
    /// An error the server reported for a statement (its SQLSTATE and message, and for a
    /// unique violation the key's canonical name, `table.column[,column…]`).
    public static func server(sqlState: String, message: String, sql: String?, uniqueKey: String? = nil) -> DatabaseError {
        .engine(label: "PostgreSQL error \(sqlState)", code: sqlState, message: message, sql: sql,
                cause: cause(sqlState: sqlState, uniqueKey: uniqueKey))
    }

    /// The canonical name of a violated unique key from the server's table name and DETAIL
    /// (`Key (meetup_id, member_id)=(…) already exists.` → `attendances.meetup_id,member_id`);
    /// an expression on a column (`lower(email)`, a cast) is named by the column, as SQLite
    /// names a `COLLATE NOCASE UNIQUE` column. Nil when either is missing.
    public static func uniqueKey(table: String?, detail: String?) -> String? {
        guard let table, let detail, let start = detail.range(of: "Key (")?.upperBound,
              let end = detail.range(of: ")=(", range: start..<detail.endIndex)?.lowerBound else { return nil }
        let columns = detail[start..<end].split(separator: ",").map { item -> String in
            var column = item.trimmingCharacters(in: .whitespaces)
            if let open = column.lastIndex(of: "("), let close = column[open...].firstIndex(of: ")") {
                column = String(column[column.index(after: open)..<close])
            }
            return String(column.prefix { $0 != ":" })
        }
        return "\(table).\(columns.joined(separator: ","))"
    }

    /// What a SQLSTATE means to a caller.
    private static func cause(sqlState state: String, uniqueKey: String?) -> Cause {
        switch state {
        case "23505": return .uniqueViolation(constraint: uniqueKey)
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
