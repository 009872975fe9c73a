import CPQ
import Foundation

/// One connection to PostgreSQL through libpq, from a connection URL
/// (`postgres://user:password@host:port/database?sslmode=require`) or a `key=value`
/// connection string. Statements take their parameters as text (`$1`, `$2`, …), which the
/// server casts to the column's type; results come back as text. Not thread-safe: one
/// statement at a time on one thread.
public final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects.
    /// - Throws: `PostgresError` (`connectionFailed`) with libpq's reason, the URL's password
    ///   left out.
    public init(url: String) throws {
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(.connectionFailed, "Cannot connect to PostgreSQL: libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw PostgresError(.connectionFailed, "Cannot connect to PostgreSQL at \(Self.redacted(url)): \(reason)")
        }
        self.connection = connection
        _ = try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    /// `url` with any password replaced by `***`, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// Runs one statement with text parameters (nil for NULL) and returns its rows.
    /// - Throws: `PostgresError` (`statementFailed`) with the server's message and SQLSTATE.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let cStrings = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { cStrings.forEach { free($0) } }
        let pointers = cStrings.map { UnsafePointer($0) }
        let result = pointers.withUnsafeBufferPointer { buffer in
            PQexecParams(connection, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        return try read(result, sql: sql)
    }

    /// Runs a script of several statements without parameters (a migration).
    /// - Throws: `PostgresError` (`statementFailed`) naming the failing statement's error.
    public func executeScript(_ sql: String) throws {
        _ = try read(PQexec(connection, sql), sql: sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// - Throws: what `body` throws, or `PostgresError` when BEGIN or COMMIT fails.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private func read(_ result: OpaquePointer?, sql: String) throws -> PostgresResult {
        guard let result else {
            throw PostgresError(.statementFailed(sqlState: ""), "PostgreSQL: \(String(cString: PQerrorMessage(connection)))")
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            let statement = sql.count > 200 ? String(sql.prefix(200)) + "…" : sql
            throw PostgresError(.statementFailed(sqlState: state), "PostgreSQL refused \(statement): \(message)")
        }
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            })
        }
        return PostgresResult(columns: columns, rows: rows)
    }
}
