import Foundation

/// One connection, as the repositories use it: statements with `?` (or `?N`) placeholders,
/// rows read by column name. `SQLiteDatabase` and the PostgreSQL connection both implement
/// it, so the domain's SQL and rules are written once; where the two dialects differ, a
/// repository asks the connection's `dialect` for what it needs in that one statement, and
/// never which engine runs.
///
/// A connection is used by one thread at a time, inside the closure a `DatabaseStore` passed
/// it to; never keep it.
public protocol Database: AnyObject {
    /// How this connection's SQL says the few things the engines say differently.
    var dialect: any SQLDialect { get }

    /// Runs one statement, discarding any rows.
    /// - Parameters:
    ///   - sql: one statement with `?` placeholders; never build it from input.
    ///   - arguments: values bound to the placeholders in order.
    /// - Throws: `DatabaseError` when the engine refuses it (a constraint, a lost connection).
    func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws

    /// Runs one statement and converts each row with `read` (which must not keep the `Row`).
    /// - Returns: the converted rows in order.
    /// - Throws: `DatabaseError` when the engine fails or a column cannot be converted; what `read` throws.
    func query<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> [T]

    /// Runs one statement and converts its first row with `read`; nil when there is none.
    /// - Throws: as `query`.
    func queryOne<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> T?

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { get }

    /// Runs one `INSERT` of a single row into a table whose key is `id`, which may insert
    /// nothing (`ON CONFLICT … DO NOTHING`), and answers the new row's `id`; nil when it
    /// inserted none. `sql` has no `RETURNING`: the engine reads the id its own cheapest way
    /// (SQLite's last row id, where `RETURNING` would build a temporary table per statement).
    /// - Throws: as `execute`.
    func insertedID(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws -> Int64?

    /// Runs a script of several `;`-separated statements without arguments (migrations).
    /// - Throws: `DatabaseError` naming the statement that failed.
    func executeScript(_ script: String) throws

    /// Announces that the current transaction queued work on `channel`, for when it commits: the
    /// store then runs this process's handlers for the channel (`DatabaseStore.wakeAfterCommit`),
    /// and on PostgreSQL also tells the other nodes listening on it (`NOTIFY`, shortly after the
    /// commit, one notification for a burst of commits). A write that rolls back announces nothing.
    /// - Throws: `DatabaseError` when the engine refuses it.
    func notifyAtCommit(_ channel: String) throws

    /// Sends one statement whose rows the caller reads later through the answer. On PostgreSQL
    /// inside a write, the statement goes to the server together with the next one that waits
    /// for an answer (or the commit), so statements that do not depend on each other's answers
    /// share one round trip; the server still runs them in the order they were sent. On SQLite
    /// it runs at once.
    /// - Throws: `DatabaseError` when it cannot be sent; the statement's own error comes from
    ///   the answer's `get()`, or fails the write at its commit.
    func queryLater<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                       _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]>

    /// Runs `change`, an `INSERT`, `UPDATE` or `DELETE` written without `RETURNING`, and then
    /// `statement`, which reads the `columns` of the rows `change` returned as the table `name`
    /// (writes that feed each other: an event and its deliveries, a reward and its render job, a
    /// claim and what it claimed). Both take their values from `arguments` by number only (`?1`,
    /// `?2`, …), `change` the first ones. Where the engine can it is one statement, sent like
    /// `queryLater` (PostgreSQL: `WITH name AS (change RETURNING columns) statement`); elsewhere
    /// `change` runs first and its rows reach `statement` as bound values (SQLite, whose `WITH`
    /// cannot hold a change: the default).
    /// - Returns: `statement`'s rows (or what `read` made of them), as `queryLater` answers them.
    /// - Throws: as `queryLater`.
    func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                         _ arguments: [any DatabaseValueConvertible],
                         _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]>

    /// `queryFeeding`, when the query `condition` finds a row; otherwise nothing is written and
    /// the answer is empty. `condition` reads `arguments` only; `change` and `statement` read
    /// them and then the values `build` makes, numbered after them (`build` answering nil
    /// writes nothing). Where statements run in-process the condition is asked first and the
    /// values are built only when it holds (SQLite: the default); where a statement costs a
    /// round trip they are built first and the condition is asked inside the one statement,
    /// sent like `queryLater` (PostgreSQL: `change` takes `WHERE EXISTS (condition)`, so it
    /// must be an `INSERT … SELECT` without a `WHERE` of its own).
    /// - Returns: `statement`'s rows (or what `read` made of them), as `queryLater` answers them.
    /// - Throws: what `build` throws, or as `queryLater`.
    func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                         when condition: String, _ arguments: [any DatabaseValueConvertible],
                         then build: () throws -> [any DatabaseValueConvertible]?,
                         _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]>

    /// Sends one statement whose rows nobody reads, like `queryLater`: an error it meets fails
    /// the write (at the next statement that waits for an answer, or at its commit) with
    /// `failure(error)`, so a write can name what a constraint it relies on means.
    /// - Throws: `DatabaseError` when it cannot be sent; on SQLite, what the statement meets.
    func executeLater(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                      failure: (@Sendable (DatabaseError) -> any Error)?) throws

    /// Sends one `INSERT`, `UPDATE` or `DELETE` whose rows nobody reads, like `executeLater`,
    /// to travel inside the write's next data-modifying statement sent for later where the
    /// engine can (on PostgreSQL as a data-modifying `WITH` of it: one statement fewer for the
    /// server). Both then run on one snapshot, so the statement it travels with must not read
    /// what this one changes; any other statement sent meanwhile sends it on its own first, so
    /// everything else sees it as `executeLater` would have. An error it meets fails the write.
    /// - Throws: `DatabaseError` when it cannot be sent; on SQLite, what the statement meets.
    func executeWithNextChange(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws
}

extension Database {
    /// Runs the statement at once: the engine does not pipeline.
    public func queryLater<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                              _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        DatabaseAnswer(Result { try query(sql, arguments, read) })
    }

    /// Two statements, run at once, for an engine whose `WITH` cannot hold a change (SQLite):
    /// `change` with `RETURNING`, then `statement` with those rows as the `VALUES` of a `WITH`,
    /// bound after `arguments` so that `statement`'s own numbers stand.
    public func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                                _ arguments: [any DatabaseValueConvertible],
                                _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        let names = columns.joined(separator: ", ")
        let returning = change + " RETURNING " + names
        let fed = try query(returning, Array(arguments.prefix(Self.highestParameter(in: returning)))) { row in
            (0..<columns.count).map { row.value($0) }
        }
        var values = arguments
        let table: String
        if fed.isEmpty {
            table = "SELECT " + columns.map { _ in "NULL" }.joined(separator: ", ") + " WHERE 1 = 0"
        } else {
            table = "VALUES " + fed.map { row in
                "(" + row.map { value in
                    values.append(value)
                    return "?\(values.count)"
                }.joined(separator: ", ") + ")"
            }.joined(separator: ", ")
        }
        let sql = "WITH \(name)(\(names)) AS (\(table)) \(statement)"
        return DatabaseAnswer(.success(try query(sql, Array(values.prefix(Self.highestParameter(in: sql))), read)))
    }

    /// The condition asked on its own first, for an engine whose statements cost no round trip
    /// (SQLite): the values are built only when it holds.
    public func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                                when condition: String, _ arguments: [any DatabaseValueConvertible],
                                then build: () throws -> [any DatabaseValueConvertible]?,
                                _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        let ask = "SELECT 1 AS found WHERE EXISTS (\(condition))"
        guard try queryOne(ask, Array(arguments.prefix(Self.highestParameter(in: ask))), { _ in true }) != nil,
              let built = try build() else { return DatabaseAnswer(.success([])) }
        return try queryFeeding(change, returning: columns, as: name, into: statement, arguments + built, read)
    }

    /// The highest `?N` in `sql` (the number of values it binds when every placeholder is numbered).
    static func highestParameter(in sql: String) -> Int {
        var highest = 0
        var bytes = sql.utf8.makeIterator()
        var afterMark = false
        var number = 0
        while let byte = bytes.next() {
            if afterMark, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
                continue
            }
            if afterMark { highest = max(highest, number) }
            afterMark = byte == UInt8(ascii: "?")
            number = 0
        }
        if afterMark { highest = max(highest, number) }
        return highest
    }

    /// Runs the statement at once: the engine does not pipeline.
    public func executeLater(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                             failure: (@Sendable (DatabaseError) -> any Error)?) throws {
        do {
            try execute(sql, arguments)
        } catch let error as DatabaseError {
            throw failure?(error) ?? error
        }
    }

    /// Runs the statement at once: the engine does not pipeline.
    public func executeWithNextChange(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws {
        try executeLater(sql, arguments, failure: nil)
    }

    /// Appends `RETURNING id` and reads the row it returns.
    public func insertedID(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws -> Int64? {
        try queryOne(sql + " RETURNING id", arguments) { try $0.get("id", as: Int64.self) }
    }

    /// `executeLater` for a statement whose errors mean nothing more than themselves.
    /// - Throws: as `executeLater(_:_:failure:)`.
    public func executeLater(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws {
        try executeLater(sql, arguments, failure: nil)
    }

    /// Runs one statement without arguments, discarding any rows.
    /// - Throws: as `execute(_:_:)`.
    public func execute(_ sql: String) throws {
        try execute(sql, [])
    }

    /// Runs one statement without arguments and converts each row.
    /// - Throws: as `query(_:_:_:)`.
    public func query<T>(_ sql: String, _ read: (Row) throws -> T) throws -> [T] {
        try query(sql, [], read)
    }

    /// Runs one statement without arguments and converts its first row.
    /// - Throws: as `queryOne(_:_:_:)`.
    public func queryOne<T>(_ sql: String, _ read: (Row) throws -> T) throws -> T? {
        try queryOne(sql, [], read)
    }

    /// The first column of the first row converted to `T`, or nil when there is no row.
    /// - Throws: as `query`.
    public func scalar<T: DatabaseValueConvertible>(_ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
                                                    as type: T.Type = T.self) throws -> T? {
        try queryOne(sql, arguments) { try $0.get(0, as: T.self) }
    }

    /// The `id` an `INSERT … RETURNING id` gave back (both engines support `RETURNING`).
    /// - Throws: as `query`; `DatabaseError` when the statement returned no row.
    public func insertReturningID(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws -> Int64 {
        guard let id = try queryOne(sql, arguments, { try $0.get("id", as: Int64.self) }) else {
            throw DatabaseError.misuse("The insert returned no id – while executing `\(DatabaseError.abbreviated(sql))`")
        }
        return id
    }
}
