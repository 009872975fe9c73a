import BelayStorage
import CPQ
import Foundation

/// A PostgreSQL connection as the repositories use it (`Database`): `?`/`?N` placeholders
/// rewritten to `$N` once per statement text, arguments sent with their types, results read
/// into rows by column name with PostgreSQL's types mapped onto SQLite's storage classes
/// (integers, doubles, text, bytes), so a repository reads a row the same way from either
/// engine. Errors are `DatabaseError`s with the server's SQLSTATE, or `unavailable` when the
/// connection is lost.
public final class PostgresDatabase: Database {
    /// The libpq connection underneath (for the migrator, `LISTEN` and `NOTIFY`).
    public let connection: PostgresConnection
    private var lastChanges = 0
    /// While the writer collects them: the channels to notify once the group has committed
    /// (nil: `notifyAtCommit` sends `NOTIFY` at once, inside the caller's transaction, and
    /// without the store's payload: no writer wakes this process's workers after such a
    /// transaction, so its own listener must).
    var channelsToNotify: Set<String>?

    public var dialect: any SQLDialect { PostgresDialect() }

    /// Connects and applies the session settings.
    /// - Parameters:
    ///   - url: a libpq connection URL or string.
    ///   - statementTimeoutMilliseconds: the longest any statement may run (0: no limit).
    /// - Throws: `DatabaseError.unavailable` when no connection can be made.
    public init(url: String, statementTimeoutMilliseconds: Int = 0) throws {
        do {
            connection = try PostgresConnection(url: url)
            try connection.execute("SET statement_timeout = \(max(statementTimeoutMilliseconds, 0))")
            // A node that dies mid-transaction must not hold its row locks for long.
            try connection.execute("SET idle_in_transaction_session_timeout = 60000")
        } catch let error as PostgresError {
            throw DatabaseError.unavailable(error.message)
        }
    }

    /// True when the server closed the connection or it broke; it cannot be used again.
    public var isBroken: Bool { connection.isBroken }

    /// See `PostgresConnection.isInTransaction`. In pipeline mode, where the server reports its
    /// transaction's state only at a sync point, a transaction was begun and lasts until the
    /// connection breaks (a statement's error leaves it open, in error, for its rollback).
    var isInTransaction: Bool { connection.isPipelining ? !connection.isBroken : connection.isInTransaction }

    public var changes: Int { lastChanges }

    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws {
        _ = try run(sql, arguments, wantRows: false)
    }

    public func query<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> [T] {
        try run(sql, arguments, wantRows: true).map { try read(Row(values: $0)) }
    }

    public func queryOne<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ read: (Row) throws -> T) throws -> T? {
        try run(sql, arguments, wantRows: true).first.map { try read(Row(values: $0)) }
    }

    public func notifyAtCommit(_ channel: String) throws {
        if channelsToNotify != nil {
            channelsToNotify?.insert(channel)
        } else {
            try execute("NOTIFY \(channel)")
        }
    }

    public func executeScript(_ script: String) throws {
        // A script needs libpq's simple protocol, which pipeline mode does not have: what was
        // sent is read first (its error is the write's), the script runs, and the pipeline
        // opens again for the rest of the write.
        let pipelining = connection.isPipelining
        if pipelining {
            try sendHeldChange()
            connection.exitPipelineMode()
            if let failure = takeLaterFailure() { throw failure }
        }
        do {
            try connection.executeScript(script)
            if pipelining { try connection.enterPipelineMode() }
        } catch let error as PostgresError {
            if pipelining { try? connection.enterPipelineMode() }
            throw databaseError(error, sql: script)
        }
    }

    private func run(_ sql: String, _ arguments: [any DatabaseValueConvertible], wantRows: Bool) throws -> [RowValues] {
        let result: PostgresTypedResult
        if connection.isPipelining {
            // After what was sent for later, in the same round trip.
            var answer: Result<PostgresTypedResult, PostgresError>?
            try send(sql, arguments) { answer = $0 }
            try readAnswers()
            guard let answer else { throw DatabaseError.misuse("PostgreSQL gave no answer to `\(DatabaseError.abbreviated(sql))`") }
            do { result = try answer.get() } catch { throw databaseError(error, sql: sql) }
        } else {
            let bound = BoundStatement(sql, arguments)
            do {
                result = try connection.execute(bound.sql, typed: bound.values, nullTypes: bound.nullTypes)
            } catch let error as PostgresError {
                throw databaseError(error, sql: sql)
            }
        }
        lastChanges = result.affectedRows
        return wantRows ? rows(result, sql: sql) : []
    }

    /// Each statement's row layout, made at its first rows: a statement's columns are the same
    /// every time it runs.
    private var layouts: [String: RowLayout] = [:]

    private func rows(_ result: PostgresTypedResult, sql: String) -> [RowValues] {
        guard !result.rows.isEmpty else { return [] }
        let layout: RowLayout
        if let known = layouts[sql], known.columns == result.columns {
            layout = known
        } else {
            layout = RowLayout(columns: result.columns, sql: sql)
            layouts[sql] = layout
        }
        return result.rows.map { RowValues(layout: layout, values: $0) }
    }

    /// A statement as the server takes it: `$N` placeholders, typed values, and the type of each NULL.
    private struct BoundStatement {
        let sql: String
        let values: [DatabaseValue]
        let nullTypes: [UInt32]

        init(_ sql: String, _ arguments: [any DatabaseValueConvertible]) {
            let statement = PlaceholderRewriter.shared.rewrite(sql)
            let values = arguments.map(\.databaseValue)
            self.sql = statement.sql
            self.values = values
            nullTypes = zip(arguments, values).enumerated().map { position, pair in
                guard pair.1 == .null else { return UInt32(0) }
                // A NULL the statement never reads still needs a type; text will do.
                return statement.usedParameters.contains(position + 1) ? PostgresDatabase.nullType(of: pair.0) : 25
            }
        }
    }

    // MARK: Statements sent for later (pipeline mode, inside the writer's transactions)

    /// The first error of a statement sent for later since the answers were last read, as its
    /// sender named it: it fails the write that sent it.
    private var laterFailure: (any Error)?
    /// The first error of a statement the writer sent around the writes (`BEGIN`, `COMMIT`).
    private var commandFailure: DatabaseError?
    /// A change waiting to travel with the next one (`executeWithNextChange`).
    private var heldChange: (sql: String, arguments: [any DatabaseValueConvertible])?

    public func queryLater<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                              _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        guard connection.isPipelining else { return DatabaseAnswer(Result { try query(sql, arguments, read) }) }
        let answer = DatabaseAnswer<[T]>(awaiting: { [unowned self] in try readAnswers() })
        try send(sql, arguments) { [unowned self] result in
            switch result {
            case let .success(rows):
                answer.answer(Result { try self.rows(rows, sql: sql).map { try read(Row(values: $0)) } })
            case let .failure(error):
                let failure = databaseError(error, sql: sql)
                answer.answer(.failure(failure))
                noteLaterFailure(error, failure)
            }
        }
        return answer
    }

    /// One statement, the change a data-modifying `WITH` of the statement it feeds.
    public func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                                _ arguments: [any DatabaseValueConvertible],
                                _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        try queryLater("WITH \(name) AS (\(change) RETURNING \(columns.joined(separator: ", "))) \(statement)", arguments, read)
    }

    /// Built first and sent as one statement that asks the condition itself: building costs
    /// less than the round trip asking first would.
    public func queryFeeding<T>(_ change: String, returning columns: [String], as name: String, into statement: String,
                                when condition: String, _ arguments: [any DatabaseValueConvertible],
                                then build: () throws -> [any DatabaseValueConvertible]?,
                                _ read: @escaping (Row) throws -> T) throws -> DatabaseAnswer<[T]> {
        guard let built = try build() else { return DatabaseAnswer(.success([])) }
        return try queryFeeding(change + " WHERE EXISTS (\(condition))", returning: columns, as: name, into: statement,
                                arguments + built, read)
    }

    public func executeLater(_ sql: String, _ arguments: [any DatabaseValueConvertible],
                             failure: (@Sendable (DatabaseError) -> any Error)?) throws {
        guard connection.isPipelining else {
            do { return try execute(sql, arguments) } catch let error as DatabaseError { throw failure?(error) ?? error }
        }
        // A statement whose errors the write names must not carry a held change: its error would
        // be named as the statement's own.
        try send(sql, arguments, carryingHeldChange: failure == nil) { [unowned self] result in
            guard case let .failure(error) = result else { return }
            let named = databaseError(error, sql: sql)
            noteLaterFailure(error, failure?(named) ?? named)
        }
    }

    public func executeWithNextChange(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws {
        guard connection.isPipelining else { return try execute(sql, arguments) }
        try sendHeldChange()
        // Only a plain change can be a data-modifying WITH of another statement.
        guard PlaceholderRewriter.shared.rewrite(sql).isPlainChange else { return try executeLater(sql, arguments) }
        heldChange = (sql, arguments)
    }

    /// Sends the held change on its own, if any.
    private func sendHeldChange() throws {
        guard let held = heldChange else { return }
        heldChange = nil
        try send(held.sql, held.arguments) { [unowned self] result in
            guard case let .failure(error) = result else { return }
            noteLaterFailure(error, databaseError(error, sql: held.sql))
        }
    }

    /// `sql` with the held change as its first data-modifying `WITH`, and their arguments; nil
    /// when nothing is held or `sql` is not itself a change (it might read what the held one
    /// changes).
    private func withHeldChange(_ sql: String, _ arguments: [any DatabaseValueConvertible])
        -> (sql: String, arguments: [any DatabaseValueConvertible])? {
        guard let held = heldChange,
              let combined = PlaceholderRewriter.shared.merged(held.sql, changeArguments: held.arguments.count, into: sql)
        else { return nil }
        heldChange = nil
        return (combined, held.arguments + arguments)
    }

    /// Keeps the first real failure; statements the server skipped after it only repeat it.
    private func noteLaterFailure(_ error: PostgresError, _ named: any Error) {
        guard laterFailure == nil, error.kind != .pipelineAborted else { return }
        laterFailure = named
    }

    private func takeLaterFailure() -> (any Error)? {
        defer { laterFailure = nil }
        return laterFailure
    }

    /// Reads every answer owed (one round trip) and throws the first failure of a statement
    /// sent for later, as its sender named it.
    private func readAnswers() throws {
        try sendHeldChange()
        connection.flush()
        if let failure = takeLaterFailure() { throw failure }
    }

    /// Sends one statement; a held change travels in it when it is a change itself (and
    /// `carryingHeldChange`), and is sent before it otherwise.
    private func send(_ sql: String, _ arguments: [any DatabaseValueConvertible], carryingHeldChange: Bool = true,
                      deliver: @escaping (Result<PostgresTypedResult, PostgresError>) -> Void) throws {
        var sql = sql, arguments = arguments
        if carryingHeldChange, let combined = withHeldChange(sql, arguments) {
            (sql, arguments) = combined
        } else {
            try sendHeldChange()
        }
        let bound = BoundStatement(sql, arguments)
        do {
            try connection.send(bound.sql, typed: bound.values, nullTypes: bound.nullTypes, deliver: deliver)
        } catch let error as PostgresError {
            throw databaseError(error, sql: sql)
        }
    }

    /// Opens a write's transaction without waiting: `commands` go to the server with the
    /// write's first statement that waits for an answer.
    /// - Throws: `DatabaseError` (`serverGone`) when the server closed the connection since its
    ///   last use (the writer then connects again).
    func begin(sending commands: [String]) throws {
        if connection.closedByServer() {
            throw DatabaseError.unavailable("The PostgreSQL server closed the connection (\(connection.location)); Belay reconnects on its own")
        }
        do {
            try connection.enterPipelineMode()
            try sendCommands(commands)
        } catch let error as PostgresError {
            throw databaseError(error, sql: commands.joined(separator: "; "))
        }
    }

    /// Sends `commands` after the write's own statements and reads every answer (one round
    /// trip); `leavingPipeline` (after a commit) leaves pipeline mode once they succeeded.
    /// - Throws: `LaterStatementFailure` when a statement the write sent for later failed
    ///   (the commands were then skipped: the transaction is open, in error); the commands'
    ///   own `DatabaseError` (a commit refused for a conflict).
    func endWrite(sending commands: [String], leavingPipeline: Bool) throws {
        do {
            try sendHeldChange()
            try sendCommands(commands)
        } catch let error as PostgresError {
            throw databaseError(error, sql: commands.joined(separator: "; "))
        }
        connection.flush()
        if let failure = takeLaterFailure() {
            commandFailure = nil
            throw LaterStatementFailure(failure)
        }
        if leavingPipeline { connection.exitPipelineMode() }
        if let failure = commandFailure {
            commandFailure = nil
            throw failure
        }
    }

    /// Reads whatever is owed, forgetting its errors (a write being rolled back), and leaves
    /// pipeline mode.
    func settle() {
        heldChange = nil
        connection.exitPipelineMode()
        laterFailure = nil
        commandFailure = nil
    }

    /// Reads whatever is owed, forgetting its errors (the write is being undone), then sends
    /// `command` (`ROLLBACK TO SAVEPOINT`) and waits for it; the pipeline stays open for the
    /// group's next write.
    /// - Throws: `DatabaseError` when the server refuses it or the connection is lost.
    func rollbackWrite(sending command: String) throws {
        if !connection.isPipelining {
            do { try connection.enterPipelineMode() } catch let error as PostgresError { throw databaseError(error, sql: command) }
        }
        heldChange = nil
        connection.flush()
        laterFailure = nil
        commandFailure = nil
        try endWrite(sending: [command], leavingPipeline: false)
    }

    private func sendCommands(_ commands: [String]) throws {
        for command in commands {
            try connection.send(command) { [unowned self] result in
                guard case let .failure(error) = result, commandFailure == nil, error.kind != .pipelineAborted else { return }
                commandFailure = databaseError(error, sql: command)
            }
        }
    }

    /// The PostgreSQL type of a NULL argument, from its Swift type: `? IS NULL OR column = ?`
    /// needs one, as the server cannot infer it from `IS NULL`.
    static func nullType(of argument: any DatabaseValueConvertible) -> UInt32 {
        let type = Swift.type(of: argument)
        if type == String?.self { return 25 }
        if type == Int64?.self || type == Int?.self || type == Int32?.self || type == Date?.self || type == Bool?.self { return 20 }
        if type == Double?.self { return 701 }
        if type == Data?.self { return 17 }
        return 0
    }

    private func databaseError(_ error: PostgresError, sql: String) -> DatabaseError {
        if case let .statementFailed(state) = error.kind, !connection.isBroken, !state.isEmpty {
            return .server(sqlState: state, message: error.message, sql: sql, uniqueKey: error.uniqueKey)
        }
        return .unavailable("The PostgreSQL server cannot be reached (\(error.message)); Belay reconnects on its own, try again shortly")
    }
}
