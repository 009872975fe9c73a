import BelayCore
import BelayStorage
import CPQ
import Foundation
import Synchronization

/// One connection to PostgreSQL through libpq, from a connection URL
/// (`postgres://user:password@host:port/database?sslmode=require`) or a `key=value`
/// connection string. Statements take their parameters as text (`$1`, `$2`, …), which the
/// server casts to the column's type; results come back as text. Not thread-safe: one
/// statement at a time on one thread.
public final class PostgresConnection {
    private let connection: OpaquePointer
    /// The server's URL without its password, for messages.
    public let location: String
    /// Where the server's warnings go; kept alive as long as libpq may call it.
    private let notices: PostgresNoticeHandler
    /// The server-side prepared statement of each statement text and parameter types run
    /// with `execute(_:typed:nullTypes:)`: parsed and planned once per connection.
    private var preparedStatements: [PreparedKey: String] = [:]
    /// Counts each time this connection waits for the server's answer, with other connections'
    /// (see `PostgresStore.writeRoundTrips`).
    var roundTripCounter: SharedCounter?
    /// In pipeline mode: what the server owes, in the order it was sent.
    private var owed: [OwedAnswer] = []

    private enum OwedAnswer {
        /// A statement prepared on the way: forgotten again when the server refused it.
        case preparation(PreparedKey)
        /// A statement: `deliver` gets its rows or its error.
        case statement(sql: String, deliver: (Result<PostgresTypedResult, PostgresError>) -> Void)
    }

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [Oid]
    }

    /// Connects.
    /// - Parameter onNotice: receives each warning the server sends (`RAISE WARNING`, a
    ///   deprecated setting), as `WARNING: <message>`; by default a log line on standard
    ///   error in Belay's format, never libpq's own raw line.
    /// - Throws: `PostgresError` (`connectionFailed`) with libpq's reason, the URL's password
    ///   left out.
    public init(url: String, onNotice: (@Sendable (String) -> Void)? = nil) throws {
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(.connectionFailed, "Cannot connect to PostgreSQL: libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw PostgresError(.connectionFailed, "Cannot connect to PostgreSQL at \(Self.redacted(url)): \(reason)")
        }
        self.connection = connection
        location = Self.redacted(url)
        notices = PostgresNoticeHandler(onNotice ?? PostgresNoticeHandler.logged)
        PQsetNoticeReceiver(connection, { context, result in
            guard let context, let result else { return }
            Unmanaged<PostgresNoticeHandler>.fromOpaque(context).takeUnretainedValue().receive(result)
        }, Unmanaged.passUnretained(notices).toOpaque())
        _ = try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    /// `url` with any password replaced by `***`, for messages and logs.
    public static func redacted(_ url: String) -> String {
        PasswordRedaction.redacted(url)
    }

    /// Runs one statement with text parameters (nil for NULL) and returns its rows.
    /// - Throws: `PostgresError` (`statementFailed`) with the server's message and SQLSTATE.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let cStrings = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { cStrings.forEach { free($0) } }
        let pointers = cStrings.map { UnsafePointer($0) }
        countRoundTrip()
        let result = pointers.withUnsafeBufferPointer { buffer in
            PQexecParams(connection, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        return try read(result, sql: sql)
    }

    /// True when the connection broke or the server closed it; it cannot be used again.
    public var isBroken: Bool { PQstatus(connection) != CONNECTION_OK }

    /// True while a transaction is open on the connection (running, or failed and waiting for
    /// its `ROLLBACK`); false once a `COMMIT` that the server refused has ended it.
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(connection)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Runs one statement with typed parameters (integers as `bigint`, doubles as `double
    /// precision`, text as `text`, bytes as `bytea` sent in binary, NULL with the type in
    /// `nullTypes` at its position, 0 letting the server infer it) and reads
    /// its rows as `DatabaseValue`s: integer, boolean and whole numeric columns as integers,
    /// floating-point as doubles, `bytea` as bytes, anything else as text.
    /// - Throws: `PostgresError` (`statementFailed`) with the server's message and SQLSTATE.
    public func execute(_ sql: String, typed parameters: [DatabaseValue], nullTypes: [Oid] = []) throws -> PostgresTypedResult {
        let bound = BoundParameters(parameters, nullTypes: nullTypes)
        let name = try preparedStatement(sql, types: bound.types)
        countRoundTrip()
        let result = try succeeded(PQexecPrepared(connection, name, Int32(parameters.count), bound.pointers, bound.lengths,
                                                  bound.formats, 0), sql: sql)
        defer { PQclear(result) }
        return Self.typedResult(result)
    }

    /// A successful result's rows as `DatabaseValue`s (see `execute(_:typed:nullTypes:)`).
    private static func typedResult(_ result: OpaquePointer) -> PostgresTypedResult {
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let columnTypes = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [[DatabaseValue]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [DatabaseValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, row, Int32(column)) == 1 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: PQgetvalue(result, row, Int32(column)))
                values.append(Self.value(text, type: columnTypes[column]))
            }
            rows.append(values)
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresTypedResult(columns: columns, rows: rows, affectedRows: affected)
    }

    /// Typed parameters as libpq takes them; the buffers live as long as this value.
    private final class BoundParameters {
        var types: [Oid] = []
        var formats: [Int32] = []
        var lengths: [Int32] = []
        private var buffers: [UnsafeMutablePointer<CChar>?] = []
        var pointers: [UnsafePointer<CChar>?] { buffers.map { UnsafePointer($0) } }

        init(_ parameters: [DatabaseValue], nullTypes: [Oid]) {
            for (position, parameter) in parameters.enumerated() {
                switch parameter {
                case .null:
                    types.append(position < nullTypes.count ? nullTypes[position] : 0); formats.append(0); lengths.append(0); buffers.append(nil)
                case let .integer(value):
                    types.append(20); formats.append(0); lengths.append(0); buffers.append(strdup(String(value)))
                case let .real(value):
                    types.append(701); formats.append(0); lengths.append(0); buffers.append(strdup("\(value)"))
                case let .text(value):
                    types.append(25); formats.append(0); lengths.append(0); buffers.append(strdup(value))
                case let .blob(data):
                    // malloc'd, so free() releases it like the strdup'd texts.
                    let owned = malloc(max(data.count, 1))?.assumingMemoryBound(to: CChar.self)
                    data.withUnsafeBytes { bytes in
                        if let owned, let base = bytes.baseAddress { memcpy(owned, base, data.count) }
                    }
                    types.append(17); formats.append(1); lengths.append(Int32(data.count)); buffers.append(owned)
                }
            }
        }

        deinit { buffers.forEach { free($0) } }
    }

    /// Statements named so far: a name is never used twice, even after a preparation failed.
    private var statementsNamed = 0

    private func nextStatementName() -> String {
        statementsNamed += 1
        return "belay_\(statementsNamed)"
    }

    /// The name of the statement prepared for `sql` with `types`, preparing it on first use.
    private func preparedStatement(_ sql: String, types: [Oid]) throws -> String {
        let key = PreparedKey(sql: sql, types: types)
        if let name = preparedStatements[key] { return name }
        let name = nextStatementName()
        countRoundTrip()
        PQclear(try succeeded(PQprepare(connection, name, sql, Int32(types.count), types), sql: sql))
        preparedStatements[key] = name
        return name
    }

    /// A column's text as the storage class the repositories read.
    static func value(_ text: String, type: Oid) -> DatabaseValue {
        switch type {
        case 20, 21, 23, 26: return Int64(text).map(DatabaseValue.integer) ?? .text(text)
        case 16: return .integer(text == "t" ? 1 : 0)
        case 700, 701: return Double(text).map(DatabaseValue.real) ?? .text(text)
        case 1700: return Int64(text).map(DatabaseValue.integer) ?? Double(text).map(DatabaseValue.real) ?? .text(text)
        case 17: return .blob(hexBytes(text))
        default: return .text(text)
        }
    }

    /// The bytes of `bytea`'s hex output (`\\x0a1b…`).
    static func hexBytes(_ text: String) -> Data {
        var bytes = Data()
        let digits = Array(text.utf8.dropFirst(2))
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : (c | 0x20) - 87 }
            bytes.append(nibble(digits[index]) << 4 | nibble(digits[index + 1]))
            index += 2
        }
        return bytes
    }

    /// Waits up to `timeoutMilliseconds` for notifications on the channels this connection
    /// listens to (`LISTEN channel`), and returns them in the order they were sent (empty on a
    /// timeout).
    /// - Throws: `PostgresError` (`connectionFailed`) when the connection is lost.
    public func waitForNotifications(timeoutMilliseconds: Int32) throws -> [PostgresNotification] {
        var notifications = pendingNotifications()
        guard notifications.isEmpty else { return notifications }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw PostgresError(.connectionFailed, "The PostgreSQL connection is closed") }
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        if ready > 0 {
            guard PQconsumeInput(connection) == 1, !isBroken else {
                throw PostgresError(.connectionFailed, "The PostgreSQL connection was lost: \(String(cString: PQerrorMessage(connection)))")
            }
            notifications = pendingNotifications()
        }
        return notifications
    }

    private func pendingNotifications() -> [PostgresNotification] {
        var notifications: [PostgresNotification] = []
        while let notification = PQnotifies(connection) {
            notifications.append(PostgresNotification(channel: String(cString: notification.pointee.relname),
                                                      payload: String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return notifications
    }

    /// Runs a script of several statements without parameters (a migration).
    /// - Throws: `PostgresError` (`statementFailed`) naming the failing statement's error.
    public func executeScript(_ sql: String) throws {
        countRoundTrip()
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

    private func countRoundTrip() {
        roundTripCounter?.count.add(1, ordering: .relaxed)
    }

    // MARK: Pipeline mode

    /// True in pipeline mode (see `enterPipelineMode`).
    public var isPipelining: Bool { PQpipelineStatus(connection) != PQ_PIPELINE_OFF }

    /// Enters libpq's pipeline mode: statements are then only sent (`send`), and go to the
    /// server with the next `flush`, so that statements that do not wait for each other's
    /// answers share one round trip. Nothing but `send`, `flush` and `exitPipelineMode` may be
    /// called until it is left.
    /// - Throws: `PostgresError` when the connection is busy or broken.
    public func enterPipelineMode() throws {
        guard PQenterPipelineMode(connection) == 1 else {
            throw PostgresError(.connectionFailed, "PostgreSQL: cannot enter pipeline mode: \(String(cString: PQerrorMessage(connection)))")
        }
    }

    /// Reads what is still owed (ending the pipeline with a sync point) and leaves pipeline mode.
    public func exitPipelineMode() {
        guard isPipelining else { return }
        flush()
        if PQexitPipelineMode(connection) != 1 {
            // Only a broken connection refuses; it is made again before its next use.
            owed.removeAll()
        }
    }

    /// Queues `sql` with typed parameters (as `execute(_:typed:nullTypes:)` takes them), preparing
    /// it first on this connection if it is new; `deliver` gets its answer at the `flush` that
    /// reads it.
    /// - Throws: `PostgresError` when libpq cannot queue it (a broken connection).
    public func send(_ sql: String, typed parameters: [DatabaseValue], nullTypes: [Oid] = [],
                     deliver: @escaping (Result<PostgresTypedResult, PostgresError>) -> Void) throws {
        let bound = BoundParameters(parameters, nullTypes: nullTypes)
        let key = PreparedKey(sql: sql, types: bound.types)
        let name: String
        if let prepared = preparedStatements[key] {
            name = prepared
        } else {
            name = nextStatementName()
            guard PQsendPrepare(connection, name, sql, Int32(bound.types.count), bound.types) == 1 else { throw sendFailure(sql) }
            preparedStatements[key] = name
            owed.append(.preparation(key))
        }
        guard PQsendQueryPrepared(connection, name, Int32(parameters.count), bound.pointers, bound.lengths, bound.formats, 0) == 1 else {
            throw sendFailure(sql)
        }
        owed.append(.statement(sql: sql, deliver: deliver))
    }

    /// Queues one statement without parameters (`BEGIN`, `SAVEPOINT`, `COMMIT`).
    /// - Throws: `PostgresError` when libpq cannot queue it.
    public func send(_ sql: String, deliver: @escaping (Result<PostgresTypedResult, PostgresError>) -> Void) throws {
        guard PQsendQueryParams(connection, sql, 0, nil, nil, nil, nil, 0) == 1 else { throw sendFailure(sql) }
        owed.append(.statement(sql: sql, deliver: deliver))
    }

    /// Sends what was queued, ending with a sync point, and reads every answer owed, in order,
    /// handing each to its statement (one round trip). Every flush ends with a sync point: the
    /// server then waits as "idle in transaction" between a write's round trips, so that
    /// `idle_in_transaction_session_timeout` frees the locks of a node that vanished between
    /// them, and it reports its transaction's state. After a statement fails the server skips
    /// the rest up to the sync point (they get the error `pipelineAborted`); the connection is
    /// then usable again, its transaction (if any) in error.
    public func flush() {
        guard !owed.isEmpty else { return }
        countRoundTrip()
        guard PQpipelineSync(connection) == 1, PQflush(connection) == 0 else {
            return failOwed(PostgresError(.connectionFailed, "The PostgreSQL connection was lost: \(String(cString: PQerrorMessage(connection)))"))
        }
        while !owed.isEmpty {
            let answer = owed.removeFirst()
            guard let result = PQgetResult(connection) else {
                return failOwed(PostgresError(.connectionFailed, "The PostgreSQL connection was lost: \(String(cString: PQerrorMessage(connection)))"), first: answer)
            }
            let status = PQresultStatus(result)
            let outcome: Result<PostgresTypedResult, PostgresError>
            if status == PGRES_PIPELINE_ABORTED {
                outcome = .failure(PostgresError(.pipelineAborted, "PostgreSQL skipped a statement after an earlier one failed"))
            } else if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                outcome = .success(Self.typedResult(result))
            } else {
                let sql: String
                if case let .statement(text, _) = answer { sql = text } else { sql = "" }
                outcome = .failure(Self.error(of: result, sql: sql))
            }
            PQclear(result)
            // Each statement's results end with a NULL.
            while let extra = PQgetResult(connection) { PQclear(extra) }
            switch answer {
            case let .preparation(key):
                if case .failure = outcome { preparedStatements[key] = nil }
            case let .statement(_, deliver):
                deliver(outcome)
            }
        }
        if !isBroken, let result = PQgetResult(connection) {
            // The sync point's own result.
            PQclear(result)
        }
    }

    /// Gives every owed statement `error` (from `first` on) when the connection broke.
    private func failOwed(_ error: PostgresError, first: OwedAnswer? = nil) {
        let answers = (first.map { [$0] } ?? []) + owed
        owed.removeAll()
        for answer in answers {
            switch answer {
            case let .preparation(key): preparedStatements[key] = nil
            case let .statement(_, deliver): deliver(.failure(error))
            }
        }
    }

    private func sendFailure(_ sql: String) -> PostgresError {
        PostgresError(.connectionFailed, "PostgreSQL: cannot send \(sql.prefix(200)): \(String(cString: PQerrorMessage(connection)))")
    }

    /// True when the server has closed the connection since it was last used (a restart): seen
    /// without a round trip, from the socket, so that a write begins on a fresh connection.
    public func closedByServer() -> Bool {
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { return true }
        // Something arrived unasked: a notice, or the server's goodbye (an error, then the end of
        // the stream, which libpq sees on its next read).
        var reads = 0
        while reads < 4, poll(&descriptor, 1, 0) > 0 {
            if PQconsumeInput(connection) == 0 || isBroken { return true }
            reads += 1
        }
        return false
    }

    private func read(_ result: OpaquePointer?, sql: String) throws -> PostgresResult {
        let result = try succeeded(result, sql: sql)
        defer { PQclear(result) }
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

    /// `result` when it is a success (the caller clears it); otherwise it is cleared and the
    /// server's error (or libpq's, when there is no result) is thrown.
    private func succeeded(_ result: OpaquePointer?, sql: String) throws -> OpaquePointer {
        guard let result else {
            throw PostgresError(.statementFailed(sqlState: ""), "PostgreSQL: \(String(cString: PQerrorMessage(connection)))")
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    /// Throws the server's error when `result` is not a success.
    private func check(_ result: OpaquePointer, sql: String) throws {
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw Self.error(of: result, sql: sql) }
    }

    /// The server's error in a failed result.
    private static func error(of result: OpaquePointer, sql: String) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
        let statement = sql.count > 200 ? String(sql.prefix(200)) + "…" : sql
        let field = { (code: UInt8) in PQresultErrorField(result, Int32(code)).map { String(cString: $0) } }
        let uniqueKey = state == "23505" ? DatabaseError.uniqueKey(table: field(UInt8(ascii: "t")), detail: field(UInt8(ascii: "D"))) : nil
        return PostgresError(.statementFailed(sqlState: state), "PostgreSQL refused \(statement): \(message)", uniqueKey: uniqueKey)
    }
}
