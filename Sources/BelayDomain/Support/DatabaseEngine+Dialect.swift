import BelayStorage

/// The few places where SQLite's and PostgreSQL's SQL differ, each written once for both.
extension DatabaseEngine {
    /// What a claim adds after its `LIMIT` so that on PostgreSQL it passes over rows another
    /// node is claiming at that moment (`FOR UPDATE OF table SKIP LOCKED`) instead of
    /// conflicting with it; nothing on SQLite, which has one writer.
    func skipLocked(of table: String) -> String {
        self == .postgresql ? " FOR UPDATE OF \(table) SKIP LOCKED" : ""
    }

    /// What a read in a locked write (`DatabaseStore.lockedWrite`) adds at its end to lock the
    /// rows it reads of `tables` until the commit (`FOR UPDATE OF …`); nothing on SQLite,
    /// whose single writer holds the whole database.
    func rowLock(of tables: String) -> String {
        self == .postgresql ? " FOR UPDATE OF \(tables)" : ""
    }

    /// A `SELECT` of the rows of a JSON array of arrays of integers bound at `parameter`
    /// (`[[1, 200], [2, null]]`), the Nth element of each as the Nth of `columns`.
    func integerRows(ofJSON parameter: String, columns: [String]) -> String {
        if self == .postgresql {
            let values = columns.enumerated().map { "(value->>\($0.offset))::bigint AS \($0.element)" }.joined(separator: ", ")
            return "SELECT \(values) FROM jsonb_array_elements(CAST(\(parameter) AS jsonb)) AS value"
        }
        let values = columns.enumerated().map { "json_extract(value, '$[\($0.offset)]') AS \($0.element)" }.joined(separator: ", ")
        return "SELECT \(values) FROM json_each(\(parameter))"
    }

    /// The 1-based place of the text `needle` in the text `haystack` (SQL expressions), 0 when
    /// it is not there.
    func position(of needle: String, in haystack: String) -> String {
        self == .postgresql ? "strpos(\(haystack), \(needle))" : "instr(\(haystack), \(needle))"
    }
}
