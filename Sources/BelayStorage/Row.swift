import Foundation

/// A statement stepped to a row, as an engine that reads columns in place (SQLite) lends it
/// to a `Row`.
public protocol RowCursor: AnyObject {
    /// The statement, for messages.
    var sql: String { get }
    /// How many columns a row has.
    var columnCount: Int { get }
    /// The position of the column named `name` in the SELECT list; -1 when two columns share
    /// the name, nil when none has it.
    func columnIndex(named name: String) -> Int?
    /// True when the column holds NULL.
    func isNull(_ column: Int) -> Bool
    /// The column's value as the engine stores it.
    func value(_ column: Int) -> DatabaseValue
}

/// The current row of a query, valid only inside the closure it is passed to (do not keep it).
///
/// Repositories read columns by name (`try row.get("starts_at")`), so a SELECT list can be
/// reordered or extended without moving every read; the statement maps names to positions
/// once, when it is prepared. Columns are also numbered from 0 in the order of the SELECT
/// list, for one-column queries and PRAGMAs.
public struct Row {
    /// Where the values are: a statement stepped to this row, or values an engine that hands
    /// whole rows over has already read.
    @usableFromInline
    enum Source {
        case cursor(any RowCursor)
        case values(RowValues)
    }

    @usableFromInline let source: Source

    /// The row a statement is stepped to (an engine that reads columns in place).
    public init(cursor: any RowCursor) { source = .cursor(cursor) }

    /// A row of values read by an engine that hands whole rows over (PostgreSQL).
    public init(values: RowValues) { source = .values(values) }

    /// The number of columns.
    public var count: Int {
        switch source {
        case let .cursor(cursor): cursor.columnCount
        case let .values(values): values.values.count
        }
    }

    /// True when the column holds NULL.
    public func isNull(_ column: Int) -> Bool {
        switch source {
        case let .cursor(cursor): cursor.isNull(column)
        case let .values(values): values.values[column] == .null
        }
    }

    /// The column's value as the engine stores it.
    public func value(_ column: Int) -> DatabaseValue {
        switch source {
        case let .cursor(cursor): cursor.value(column)
        case let .values(values): values.values[column]
        }
    }

    /// The column at `column` (0 for the first of the SELECT list) converted to `T`, for
    /// the storage modules' own one-column queries and PRAGMAs; other modules read by name, so that
    /// no read depends on the order of a SELECT list.
    /// - Throws: `DatabaseError` when the stored value cannot be read as `T`, for example
    ///   NULL read as a non-optional.
    // Inlinable for the reason the named read is: unspecialised, every read of an optional
    // column looked up `Optional<T>`'s metadata (a fifth of a 5,000-tick summary's CPU).
    @inlinable
    public func get<T: DatabaseValueConvertible>(_ column: Int, as type: T.Type = T.self) throws -> T {
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

    /// The column at `column` read as a case of the enumeration `T`, for reads of many rows where
    /// looking a name up on every row shows (a summary of thousands of ticks).
    /// - Throws: as the named version.
    @inlinable
    public func get<T: RawRepresentable>(_ column: Int, as type: T.Type = T.self) throws -> T
        where T.RawValue: DatabaseValueConvertible {
        let raw = try get(column, as: T.RawValue.self)
        guard let member = T(rawValue: raw) else {
            throw unknownValueError(column: "number \(column)", value: "\(raw)", type: String(describing: T.self))
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
        case let .cursor(cursor): cursor.columnIndex(named: name)
        case let .values(values): values.layout.columnIndices[name]
        }
        guard let column = found else {
            throw DatabaseError.misuse("No column named \(name) – while executing `\(DatabaseError.abbreviated(sql))`")
        }
        guard column >= 0 else {
            throw DatabaseError.misuse("Two columns are named \(name); alias one – while executing `\(DatabaseError.abbreviated(sql))`")
        }
        return column
    }

    /// The statement that produced the row, for messages.
    @usableFromInline
    var sql: String {
        switch source {
        case let .cursor(cursor): cursor.sql
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
