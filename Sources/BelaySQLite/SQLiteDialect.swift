import BelayStorage

/// SQLite's way of saying what the engines say differently.
struct SQLiteDialect: SQLDialect {
    /// Nothing: SQLite has one writer, so no other connection is claiming at the same time.
    func skippingLockedRows(of table: String) -> String { "" }

    /// Nothing: SQLite's single writer holds the whole database for the transaction.
    func lockingRows(of tables: String) -> String { "" }

    func integerRows(ofJSON parameter: String, columns: [String]) -> String {
        let values = columns.enumerated().map { "json_extract(value, '$[\($0.offset)]') AS \($0.element)" }.joined(separator: ", ")
        return "SELECT \(values) FROM json_each(\(parameter))"
    }

    func position(of needle: String, in haystack: String) -> String { "instr(\(haystack), \(needle))" }

    func integerPart(of expression: String) -> String { "CAST(\(expression) AS INTEGER)" }

    /// A plain comparison: the columns that are compared so are declared `COLLATE NOCASE`.
    func equalsIgnoringCase(_ column: String, _ parameter: String) -> String { "\(column) = \(parameter)" }

    func utcDay(ofEpochSeconds seconds: String) -> String { "date(\(seconds), 'unixepoch')" }

    /// Through the R*Tree named `spatialIndex`.
    func pointInBox(id: String, latitude: String, longitude: String, spatialIndex: String,
                    box: (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64),
                    leading: Bool) -> (sql: String, values: [Int64]) {
        guard leading else {
            return ("\(latitude) BETWEEN ? AND ? AND \(longitude) BETWEEN ? AND ?", [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude])
        }
        return ("\(id) IN (SELECT id FROM \(spatialIndex) WHERE min_latitude >= ? AND max_latitude <= ? AND min_longitude >= ? AND max_longitude <= ?)",
                [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude])
    }

    /// Through the FTS5 table named `textIndex`: each gram a quoted phrase, all
    /// of them required (grams are letters and digits only, never a quote).
    /// Not leading, the unary `+` keeps SQLite from looking rows up by the subquery's ids: the
    /// ids it finds are only checked against each row the other condition's index found.
    func hasEveryGram(id: String, gramsColumn: String, textIndex: String, grams: [String], leading: Bool) -> (sql: String, value: String) {
        ("\(leading ? "" : "+")\(id) IN (SELECT rowid FROM \(textIndex) WHERE \(textIndex) MATCH ?)",
         grams.map { "\"\($0)\"" }.joined(separator: " "))
    }

    /// SQLite's planner keeps the order of a `CROSS JOIN`.
    var joinInWrittenOrder: String { "CROSS JOIN" }
}
