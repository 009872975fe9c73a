import BelayStorage
import CSQLite
import CSQLiteShim
import Foundation

/// One prepared SQLite statement, finalised when the value is released.
///
/// Statements belong to the `Database` that prepared them and are used only through it
/// (`execute`, `query`), which binds arguments, steps and resets them.
final class Statement: RowCursor {
    let handle: OpaquePointer
    let sql: String
    unowned let database: SQLiteDatabase
    /// True while a caller is stepping through rows, so a nested use of the same SQL gets
    /// its own statement instead of clobbering this one.
    var isInUse = false
    /// The position of each result column by name, read once when the statement is
    /// prepared; -1 marks a name two columns share.
    let columnIndices: [String: Int]

    /// Prepares `sql`, which must hold exactly one statement.
    /// - Throws: `DatabaseError` when SQLite cannot compile it.
    init(database: SQLiteDatabase, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw DatabaseError(code: code, connection: database.handle, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
        var indices: [String: Int] = [:]
        for column in 0..<Int(sqlite3_column_count(statement)) {
            guard let name = sqlite3_column_name(statement, Int32(column)) else { continue }
            let key = String(cString: name)
            indices[key] = indices[key] == nil ? column : -1
        }
        columnIndices = indices
    }

    deinit {
        sqlite3_finalize(handle)
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func columnIndex(named name: String) -> Int? { columnIndices[name] }

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }

    func value(_ column: Int) -> DatabaseValue {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// Binds `arguments` to the parameters `?1…?n`.
    /// - Throws: `DatabaseError` when the count is wrong or SQLite refuses a value.
    func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw DatabaseError.misuse(
                "Statement expects \(expected) argument(s) but \(arguments.count) were given – while preparing `\(DatabaseError.abbreviated(sql))`")
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.databaseValue {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case let .integer(value):
                code = sqlite3_bind_int64(handle, index, value)
            case let .real(value):
                code = sqlite3_bind_double(handle, index, value)
            case let .text(value):
                // The byte length, not -1: SQLite would otherwise stop at the first NUL.
                var text = value
                code = text.withUTF8 { bytes in
                    sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), belay_sqlite_transient())
                }
            case let .blob(value):
                if value.isEmpty {
                    code = sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    code = value.withUnsafeBytes { bytes in
                        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), belay_sqlite_transient())
                    }
                }
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(code: code, connection: database.handle, sql: sql)
            }
        }
    }

    /// Steps once. Returns true when a row is available, false when the statement is done.
    /// - Throws: `DatabaseError` carrying SQLite's code and this statement's SQL.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw DatabaseError(code: code, connection: database.handle, sql: sql)
        }
    }

    /// Makes the statement ready for its next use and drops bound values (which may be secrets).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}
