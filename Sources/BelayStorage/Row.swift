import CSQLite
import Foundation

/// The current row of a query, valid only inside the closure it is passed to (do not keep it).
///
/// Columns are numbered from 0 in the order of the SELECT list.
public struct Row {
    let statement: Statement

    init(statement: Statement) { self.statement = statement }

    /// The number of columns.
    public var count: Int { Int(sqlite3_column_count(statement.handle)) }

    /// True when the column holds NULL.
    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement.handle, Int32(column)) == SQLITE_NULL
    }

    /// The column's value as SQLite stores it.
    public func value(_ column: Int) -> DatabaseValue {
        let handle = statement.handle
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

    /// The column converted to `T` (see `DatabaseValueConvertible` for the conversions).
    /// - Throws: `DatabaseError` when the stored value cannot be read as `T`, for example
    ///   NULL read as a non-optional.
    // Inlinable so that callers in other modules get a version specialised for `T`: the
    // generic one looks up type metadata at run time on every column read.
    @inlinable
    public func get<T: DatabaseValueConvertible>(_ column: Int, as type: T.Type = T.self) throws -> T {
        let stored = value(column)
        guard let converted = T(databaseValue: stored) else {
            throw conversionError(column: column, expected: String(describing: T.self), found: stored)
        }
        return converted
    }

    @usableFromInline
    func conversionError(column: Int, expected: String, found: DatabaseValue) -> DatabaseError {
        DatabaseError(.conversion(column: column, expected: expected, found: found.storageClassName, sql: statement.sql))
    }
}
