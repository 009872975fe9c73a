import Foundation

/// A table as the schema parity checks compare it on both engines: its columns (whether each
/// may be NULL and its type's family), primary key, foreign keys, how many CHECK constraints it
/// has, and its indexes.
public struct TableShape: Equatable, Sendable, CustomStringConvertible {
    /// The storage family of a column's declared type: what both engines must agree on,
    /// whatever each spells it (`INTEGER` and `BIGINT` are both `.integer`).
    public enum TypeFamily: String, Sendable {
        case integer, text, blob, real, numeric, boolean, other

        /// The family of a type as SQLite's affinity rules read its declaration
        /// (`INTEGER`, `TEXT`, `BLOB`, …).
        public init(sqliteDeclaration declaration: String) {
            let type = declaration.uppercased()
            if type.contains("INT") { self = .integer }
            else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
            else if type.isEmpty || type.contains("BLOB") { self = .blob }
            else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { self = .real }
            else { self = .numeric }
        }

        /// The family of a PostgreSQL type, as written in a migration (`BIGINT`, `BYTEA`) or as
        /// `information_schema.columns.data_type` names it (`bigint`, `double precision`).
        public init(postgresqlType type: String) {
            let words = type.lowercased().split(separator: " ").map(String.init)
            switch words.first ?? "" {
            case "bigint", "integer", "int", "int2", "int4", "int8", "smallint", "bigserial", "serial": self = .integer
            case "text", "varchar", "char", "character", "citext": self = .text
            case "bytea": self = .blob
            case "real", "double", "float4", "float8": self = .real
            case "numeric", "decimal": self = .numeric
            case "boolean", "bool": self = .boolean
            default: self = .other
            }
        }
    }

    /// One column: whether it refuses NULL (a primary key's columns do) and its type's family.
    public struct Column: Equatable, Sendable, CustomStringConvertible {
        public var notNull: Bool
        public var family: TypeFamily

        public init(notNull: Bool, family: TypeFamily) {
            self.notNull = notNull
            self.family = family
        }

        public var description: String { "\(family.rawValue)\(notNull ? " not null" : "")" }
    }

    /// Columns by name.
    public var columns: [String: Column] = [:]
    /// The primary key's columns, in order.
    public var primaryKey: [String] = []
    /// Foreign keys as `column→table`.
    public var foreignKeys: Set<String> = []
    /// How many CHECK constraints the table has.
    public var checks = 0
    /// Indexes as `name(columns)[ unique][ partial]`; a UNIQUE constraint is named `unique`,
    /// an index item that is an expression `(expression)`.
    public var indexes: Set<String> = []

    public init() {}

    public var description: String {
        "columns \(columns.sorted { $0.key < $1.key }), pk \(primaryKey), fk \(foreignKeys.sorted()), checks \(checks), indexes \(indexes.sorted())"
    }

    /// What differs between two schemas, one line each (`users.locale: only in SQLite`), named
    /// by the labels given for each side; empty when they are the same.
    public static func differences(_ left: [String: TableShape], _ right: [String: TableShape],
                                   leftName: String, rightName: String) -> [String] {
        var lines: [String] = []
        for table in Set(left.keys).union(right.keys).sorted() {
            guard let one = left[table] else { lines.append("table \(table): only in \(rightName)"); continue }
            guard let other = right[table] else { lines.append("table \(table): only in \(leftName)"); continue }
            for column in Set(one.columns.keys).union(other.columns.keys).sorted() {
                switch (one.columns[column], other.columns[column]) {
                case (nil, _): lines.append("\(table).\(column): only in \(rightName)")
                case (_, nil): lines.append("\(table).\(column): only in \(leftName)")
                case let (a?, b?) where a != b: lines.append("\(table).\(column): \(leftName) \(a), \(rightName) \(b)")
                default: break
                }
            }
            if one.primaryKey != other.primaryKey {
                lines.append("\(table) primary key: \(leftName) \(one.primaryKey), \(rightName) \(other.primaryKey)")
            }
            for key in one.foreignKeys.subtracting(other.foreignKeys).sorted() { lines.append("\(table) foreign key \(key): only in \(leftName)") }
            for key in other.foreignKeys.subtracting(one.foreignKeys).sorted() { lines.append("\(table) foreign key \(key): only in \(rightName)") }
            if one.checks != other.checks {
                lines.append("\(table) CHECK constraints: \(leftName) \(one.checks), \(rightName) \(other.checks)")
            }
            for index in one.indexes.subtracting(other.indexes).sorted() { lines.append("\(table) index \(index): only in \(leftName)") }
            for index in other.indexes.subtracting(one.indexes).sorted() { lines.append("\(table) index \(index): only in \(rightName)") }
        }
        return lines
    }
}
