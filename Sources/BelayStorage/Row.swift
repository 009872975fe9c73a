import CSQLite
import Foundation

/// The current row of a query, valid only inside the closure it is passed to (do not keep it).
///
/// Repositories read columns by name (`try row.get("starts_at")`), so a SELECT list can be
/// reordered or extended without moving every read; the statement maps names to positions
/// once, when it is prepared. Columns are also numbered from 0 in the order of the SELECT
/// list, for one-column queries and PRAGMAs.
public struct Row {
    /// Where the values are: a SQLite statement stepped to this row, or values another engine
    /// has already read.
    @usableFromInline
    enum Source {
        case statement(Statement)
        case values(RowValues)
    }

    @usableFromInline let source: Source

    init(statement: Statement) { source = .statement(statement) }

    /// A row of values read by an engine that hands whole rows over (PostgreSQL).
    public init(values: RowValues) { source = .values(values) }

    /// The number of columns.
    public var count: Int {
        switch source {
        case let .statement(statement): Int(sqlite3_column_count(statement.handle))
        case let .values(values): values.values.count
        }
    }

    /// True when the column holds NULL.
    public func isNull(_ column: Int) -> Bool {
        switch source {
        case let .statement(statement): sqlite3_column_type(statement.handle, Int32(column)) == SQLITE_NULL
        case let .values(values): values.values[column] == .null
        }
    }

    /// The column's value as the engine stores it.
    public func value(_ column: Int) -> DatabaseValue {
        switch source {
        case let .statement(statement): Self.value(column, of: statement)
        case let .values(values): values.values[column]
        }
    }

    private static func value(_ column: Int, of statement: Statement) -> DatabaseValue {
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

    /// The column at `column` (0 for the first of the SELECT list) converted to `T`, for
    /// BelayStorage's own one-column queries and PRAGMAs; other modules read by name, so that
    /// no read depends on the order of a SELECT list.
    /// - Throws: `DatabaseError` when the stored value cannot be read as `T`, for example
    ///   NULL read as a non-optional.
    func get<T: DatabaseValueConvertible>(_ column: Int, as type: T.Type = T.self) throws -> T {
        let stored = value(column)
        guard let converted = T(databaseValue: stored) else {
            throw conversionError(column: column, expected: String(describing: T.self), found: stored)
        }
        return converted
    }

    /// The column named `name` converted to `T` (see `DatabaseValueConvertible` for the
    /// conversions).
    /// - Throws: `DatabaseError` when the SELECT list has no column of that name or has two
    ///   (alias one of them), or when the stored value cannot be read as `T`.
    // Inlinable so that callers in other modules get a version specialised for `T`: the
    // generic one looks up type metadata at run time on every column read.
    @inlinable
    public func get<T: DatabaseValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        let column = try index(of: name)
        let stored = value(column)
        guard let converted = T(databaseValue: stored) else {
            throw conversionError(column: name, expected: String(describing: T.self), found: stored)
        }
        return converted
    }

    /// The column named `name` read as a case of the enumeration `T`.
    /// - Throws: `DatabaseError` naming the column and the stored value when no case of `T`
    ///   has it (never a default case in its place); as `get(_:as:)` otherwise.
    @inlinable
    public func get<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) throws -> T
        where T.RawValue: DatabaseValueConvertible {
        let raw = try get(name, as: T.RawValue.self)
        guard let member = T(rawValue: raw) else {
            throw unknownValueError(column: name, value: "\(raw)", type: String(describing: T.self))
        }
        return member
    }

    /// The column named `name` read as a case of the enumeration `T`, or nil when it is NULL.
    /// - Throws: as the non-optional version.
    @inlinable
    public func get<T: RawRepresentable>(_ name: String, as type: T?.Type = T?.self) throws -> T?
        where T.RawValue: DatabaseValueConvertible {
        let column = try index(of: name)
        if isNull(column) { return nil }
        return try get(name, as: T.self)
    }

    /// The column named `name`, text holding enumeration cases joined by `separator`
    /// (`"attendance.joined,reward.ready"`), read as those cases in order; empty text gives
    /// none.
    /// - Throws: `DatabaseError` naming the column and the first part no case of `T` has;
    ///   as `get(_:as:)` otherwise.
    public func get<T: RawRepresentable>(_ name: String, separatedBy separator: Character, as type: T.Type = T.self) throws -> [T]
        where T.RawValue == String {
        try get(name, as: String.self).split(separator: separator).map { part in
            guard let member = T(rawValue: String(part)) else {
                throw unknownValueError(column: name, value: String(part), type: String(describing: T.self))
            }
            return member
        }
    }

    /// The position of the column named `name` in the SELECT list.
    /// - Throws: `DatabaseError` when there is none, or more than one.
    @usableFromInline
    func index(of name: String) throws -> Int {
        let found = switch source {
        case let .statement(statement): statement.columnIndices[name]
        case let .values(values): values.layout.columnIndices[name]
        }
        guard let column = found else {
            throw DatabaseError(.misuse(message: "No column named \(name) – while executing `\(DatabaseError.abbreviated(sql))`"))
        }
        guard column >= 0 else {
            throw DatabaseError(.misuse(message: "Two columns are named \(name); alias one – while executing `\(DatabaseError.abbreviated(sql))`"))
        }
        return column
    }

    /// The statement that produced the row, for messages.
    @usableFromInline
    var sql: String {
        switch source {
        case let .statement(statement): statement.sql
        case let .values(values): values.layout.sql
        }
    }

    @usableFromInline
    func conversionError(column: Int, expected: String, found: DatabaseValue) -> DatabaseError {
        conversionError(column: String(column), expected: expected, found: found)
    }

    @usableFromInline
    func unknownValueError(column: String, value: String, type: String) -> DatabaseError {
        DatabaseError(.unknownValue(column: column, value: value, type: type, sql: sql))
    }

    @usableFromInline
    func conversionError(column: String, expected: String, found: DatabaseValue) -> DatabaseError {
        DatabaseError(.conversion(column: column, expected: expected, found: found.storageClassName, sql: sql))
    }
}
