import BelayStorage

/// PostgreSQL's way of saying what the engines say differently.
struct PostgresDialect: SQLDialect {
    func skippingLockedRows(of table: String) -> String { " FOR UPDATE OF \(table) SKIP LOCKED" }

    func lockingRows(of tables: String) -> String { " FOR UPDATE OF \(tables)" }

    func integerRows(ofJSON parameter: String, columns: [String]) -> String {
        let values = columns.enumerated().map { "(value->>\($0.offset))::bigint AS \($0.element)" }.joined(separator: ", ")
        return "SELECT \(values) FROM jsonb_array_elements(CAST(\(parameter) AS jsonb)) AS value"
    }

    func position(of needle: String, in haystack: String) -> String { "strpos(\(haystack), \(needle))" }

    func integerPart(of expression: String) -> String { "CAST(trunc(\(expression)) AS BIGINT)" }

    /// Through `lower(…)`, which the unique indexes on these columns are built on.
    func equalsIgnoringCase(_ column: String, _ parameter: String) -> String { "lower(\(column)) = lower(\(parameter))" }

    func utcDay(ofEpochSeconds seconds: String) -> String {
        "to_char(to_timestamp(\(seconds)) AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
    }

    /// Through a GiST index on `point(longitude, latitude)`.
    func pointInBox(id: String, latitude: String, longitude: String, spatialIndex: String,
                    box: (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64),
                    leading: Bool) -> (sql: String, values: [Int64]) {
        ("point(\(longitude), \(latitude)) <@ box(point(?, ?), point(?, ?))",
         [box.minLongitude, box.minLatitude, box.maxLongitude, box.maxLatitude])
    }

    /// Through a GIN index on `string_to_array(gramsColumn, ' ')`.
    func hasEveryGram(id: String, gramsColumn: String, textIndex: String, grams: [String], leading: Bool) -> (sql: String, value: String) {
        ("string_to_array(\(gramsColumn), ' ') @> string_to_array(?, ' ')", grams.joined(separator: " "))
    }

    /// PostgreSQL plans joins itself; its `JOIN` takes the `ON` that SQLite's `CROSS JOIN` takes.
    var joinInWrittenOrder: String { "JOIN" }
}
