/// The few things the engines' SQL says differently, each named for what a repository needs
/// rather than for the engine that needs it: a repository writes one statement and asks its
/// connection's dialect for the part that differs. Writes that feed each other are one
/// operation of the connection (`Database.queryFeeding`), not a choice of the repository.
public protocol SQLDialect: Sendable {
    /// What a claim adds after its `LIMIT` so that it passes over rows another connection is
    /// claiming at that moment instead of waiting for or conflicting with it.
    /// - Parameter table: the table (or its alias) whose rows are claimed.
    func skippingLockedRows(of table: String) -> String

    /// What a read in a locked write (`DatabaseStore.lockedWrite`) adds at its end to lock the
    /// rows it reads of `tables` (names or aliases, comma-separated) until the commit.
    func lockingRows(of tables: String) -> String

    /// A `SELECT` of the rows of a JSON array of arrays of integers bound at `parameter`
    /// (`[[1, 200], [2, null]]`), the Nth element of each as the Nth of `columns`.
    func integerRows(ofJSON parameter: String, columns: [String]) -> String

    /// The 1-based place of the text `needle` in the text `haystack` (SQL expressions), 0 when
    /// it is not there.
    func position(of needle: String, in haystack: String) -> String

    /// The integer part of `expression`, a number, as a 64-bit integer: the same on every
    /// engine (a plain `CAST` truncates on SQLite and rounds on PostgreSQL).
    func integerPart(of expression: String) -> String

    /// A condition that `column` equals the text at `parameter` whatever their case, in a way
    /// the column's case-insensitive unique index serves.
    func equalsIgnoringCase(_ column: String, _ parameter: String) -> String

    /// The UTC day (`yyyy-MM-dd`) of the SQL expression `seconds`, seconds since 1970.
    func utcDay(ofEpochSeconds seconds: String) -> String

    /// A condition that a row's point lies in a box of millionths of a degree, served by the
    /// engine's spatial index, and the values it binds in the order it binds them.
    /// - Parameters:
    ///   - id: the row's integer id (an expression).
    ///   - latitude, longitude: the row's millionths-of-a-degree columns (expressions).
    ///   - spatialIndex: the name of the engine's index of those points (SQLite: the R*Tree
    ///     table holding `id, min_latitude, max_latitude, min_longitude, max_longitude`).
    ///   - leading: false when another condition of the query finds fewer rows (a window of a
    ///     few days): the box is then checked on the rows that condition's index finds. SQLite
    ///     keeps no statistics of its virtual tables and takes what it is told; PostgreSQL
    ///     plans from its own statistics and ignores it.
    func pointInBox(id: String, latitude: String, longitude: String, spatialIndex: String,
                    box: (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64),
                    leading: Bool) -> (sql: String, values: [Int64])

    /// A condition that a row's gram text (space-separated grams) holds every one of `grams`,
    /// served by the engine's text index, and the value it binds.
    /// - Parameters:
    ///   - id: the row's integer id (an expression).
    ///   - gramsColumn: the column of space-separated grams (an expression).
    ///   - textIndex: the name of the engine's index of it (SQLite: the FTS5 table whose rowid is the id).
    ///   - leading: as `pointInBox`'s: false when another condition finds fewer rows.
    func hasEveryGram(id: String, gramsColumn: String, textIndex: String, grams: [String], leading: Bool) -> (sql: String, value: String)

    /// The join keyword that keeps the tables in the order written (for a plan that must
    /// start from the small table); it takes an `ON`.
    var joinInWrittenOrder: String { get }
}
