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
    /// (nil: `notifyAtCommit` sends `NOTIFY` at once, inside the caller's transaction).
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

    /// See `PostgresConnection.isInTransaction`.
    var isInTransaction: Bool { connection.isInTransaction }

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
        do {
            try connection.executeScript(script)
        } catch let error as PostgresError {
            throw databaseError(error, sql: script)
        }
    }

    private func run(_ sql: String, _ arguments: [any DatabaseValueConvertible], wantRows: Bool) throws -> [RowValues] {
        let statement = PlaceholderRewriter.shared.rewrite(sql)
        let values = arguments.map(\.databaseValue)
        do {
            let nullTypes = zip(arguments, values).enumerated().map { position, pair in
                guard pair.1 == .null else { return UInt32(0) }
                // A NULL the statement never reads still needs a type; text will do.
                return statement.usedParameters.contains(position + 1) ? Self.nullType(of: pair.0) : 25
            }
            let result = try connection.execute(statement.sql, typed: values, nullTypes: nullTypes)
            lastChanges = result.affectedRows
            guard wantRows, !result.rows.isEmpty else { return [] }
            let layout = RowLayout(columns: result.columns, sql: sql)
            return result.rows.map { RowValues(layout: layout, values: $0) }
        } catch let error as PostgresError {
            throw databaseError(error, sql: sql)
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
            return .server(sqlState: state, message: error.message, sql: sql)
        }
        return .unavailable("The PostgreSQL server cannot be reached (\(error.message)); Belay reconnects on its own, try again shortly")
    }
}
