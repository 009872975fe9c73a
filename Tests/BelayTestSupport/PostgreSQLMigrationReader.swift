import BelayStorage
import Foundation

/// The schema PostgreSQL's migration scripts make, read from their text without a server:
/// the DDL Belay's migrations use (CREATE TABLE, ALTER TABLE ADD/DROP COLUMN and DROP
/// CONSTRAINT, CREATE [UNIQUE] INDEX, DROP INDEX, DROP TABLE) is applied to `TableShape`s;
/// data statements, functions and triggers change no shape and are passed over. A statement it
/// does not understand is refused, naming the migration, so that a new kind of DDL is taught
/// here rather than missed. `PostgresSchemaTests` holds this reading to what a real server
/// makes of the same scripts.
public struct PostgreSQLMigrationReader {
    /// The tables so far, by name.
    public private(set) var tables: [String: TableShape] = [:]
    /// For each table, its constraints by PostgreSQL's name, for `DROP CONSTRAINT`.
    private var constraints: [String: [String: Constraint]] = [:]

    /// What a named constraint is, to take it away again.
    private enum Constraint {
        case foreignKey(String)
        case unique(String)
        case check
    }

    public init() {}

    /// The schema of the PostgreSQL migrations of `directory` (the project's `Migrations`
    /// folder), applied in order.
    /// - Throws: `DatabaseError` for a malformed folder; `SchemaShapeError` naming the
    ///   migration and statement it cannot read.
    public static func schema(migrations directory: String = SchemaShapes.migrationsDirectory) throws -> [String: TableShape] {
        var reader = PostgreSQLMigrationReader()
        for migration in try Migrator(directory: directory, engineFolder: "postgresql").migrations {
            do {
                try reader.apply(script: migration.sql)
            } catch let error as SchemaShapeError {
                throw SchemaShapeError("\(migration.identifier): \(error.description)")
            }
        }
        return reader.tables
    }

    /// Applies every statement of a script.
    /// - Throws: `SchemaShapeError` for a statement it cannot read.
    public mutating func apply(script: String) throws {
        for statement in try SQLTokens.statements(of: script) {
            var cursor = SQLTokens.Cursor(statement)
            do {
                try apply(&cursor)
            } catch let error as SchemaShapeError {
                throw SchemaShapeError("\(error.description) in `\(statement.map(\.text).joined(separator: " ").prefix(160))`")
            }
        }
    }

    private mutating func apply(_ cursor: inout SQLTokens.Cursor) throws {
        if cursor.take("CREATE", "TABLE") {
            try createTable(&cursor)
        } else if cursor.take("CREATE", "UNIQUE", "INDEX") {
            try createIndex(&cursor, unique: true)
        } else if cursor.take("CREATE", "INDEX") {
            try createIndex(&cursor, unique: false)
        } else if cursor.take("ALTER", "TABLE") {
            try alterTable(&cursor)
        } else if cursor.take("DROP", "INDEX") {
            _ = cursor.take("IF", "EXISTS")
            let name = try cursor.name()
            for table in tables.keys {
                tables[table]?.indexes.removeAll { $0.hasPrefix("\(name)(") }
            }
        } else if cursor.take("DROP", "TABLE") {
            _ = cursor.take("IF", "EXISTS")
            let name = try cursor.name()
            tables[name] = nil
            constraints[name] = nil
        } else if cursor.take("CREATE", "FUNCTION") || cursor.take("CREATE", "OR", "REPLACE", "FUNCTION")
                    || cursor.take("CREATE", "TRIGGER") || cursor.take("DROP", "TRIGGER") || cursor.take("DROP", "FUNCTION")
                    || cursor.take("INSERT") || cursor.take("UPDATE") || cursor.take("DELETE") || cursor.take("SELECT")
                    || cursor.take("COMMENT") || cursor.take("CREATE", "SEQUENCE") {
            return  // Data, functions, triggers and sequences: no table's shape changes.
        } else {
            throw SchemaShapeError("a statement the schema reader does not know; teach PostgreSQLMigrationReader")
        }
    }

    private mutating func createTable(_ cursor: inout SQLTokens.Cursor) throws {
        _ = cursor.take("IF", "NOT", "EXISTS")
        let table = try cursor.name()
        tables[table] = TableShape()
        constraints[table] = [:]
        for var element in try cursor.parenthesisedList() {
            if try !tableConstraint(&element, table: table) {
                try column(&element, table: table)
            }
            try element.expectEnd()
        }
        try cursor.expectEnd()
    }

    private mutating func alterTable(_ cursor: inout SQLTokens.Cursor) throws {
        _ = cursor.take("ONLY")
        let table = try cursor.name()
        guard tables[table] != nil else { throw SchemaShapeError("ALTER TABLE of \(table), which no migration created") }
        for var action in cursor.restSplitByCommas() {
            if action.take("ADD", "COLUMN") {
                try column(&action, table: table)
            } else if action.take("ADD") {
                guard try tableConstraint(&action, table: table) else { throw SchemaShapeError("ADD of something not a constraint") }
            } else if action.take("DROP", "COLUMN") {
                _ = action.take("IF", "EXISTS")
                try dropColumn(try action.name(), table: table)
            } else if action.take("DROP", "CONSTRAINT") {
                _ = action.take("IF", "EXISTS")
                try dropConstraint(try action.name(), table: table)
            } else {
                throw SchemaShapeError("an ALTER TABLE action the schema reader does not know; teach PostgreSQLMigrationReader")
            }
            try action.expectEnd()
        }
    }

    private mutating func createIndex(_ cursor: inout SQLTokens.Cursor, unique: Bool) throws {
        _ = cursor.take("IF", "NOT", "EXISTS")
        let name = try cursor.name()
        try cursor.expect("ON")
        let table = try cursor.name()
        guard tables[table] != nil else { throw SchemaShapeError("an index on \(table), which no migration created") }
        if cursor.take("USING") { _ = try cursor.name() }
        let items = try cursor.parenthesisedList().map { $0.simpleName ?? "(expression)" }
        let partial = cursor.take("WHERE")
        if partial { cursor.skipToEnd() }
        try cursor.expectEnd()
        tables[table]?.indexes.insert("\(name)(\(items.joined(separator: ",")))\(unique ? " unique" : "")\(partial ? " partial" : "")")
    }

    /// Reads a column definition and its constraints into `table`.
    private mutating func column(_ cursor: inout SQLTokens.Cursor, table: String) throws {
        let name = try cursor.name()
        var typeWords: [String] = []
        while let word = cursor.peekWord, !Self.columnConstraintWords.contains(word.uppercased()) {
            typeWords.append(word)
            cursor.advance()
            if cursor.peekSymbol == "(" { try cursor.skipGroup() }
        }
        guard !typeWords.isEmpty else { throw SchemaShapeError("column \(name) has no type") }
        var column = TableShape.Column(notNull: false, family: TableShape.TypeFamily(postgresqlType: typeWords.joined(separator: " ")))
        var constraintName: String?
        while !cursor.isAtEnd {
            if cursor.take("CONSTRAINT") {
                constraintName = try cursor.name()
                continue
            }
            if cursor.take("NOT", "NULL") {
                column.notNull = true
            } else if cursor.take("NULL") {
                column.notNull = false
            } else if cursor.take("PRIMARY", "KEY") {
                column.notNull = true
                tables[table]?.primaryKey = [name]
            } else if cursor.take("UNIQUE") {
                addUnique([name], table: table, named: constraintName)
            } else if cursor.take("REFERENCES") {
                let referenced = try cursor.name()
                if cursor.peekSymbol == "(" { _ = try cursor.parenthesisedList() }
                try skipReferentialActions(&cursor)
                addForeignKey([name], to: referenced, table: table, named: constraintName)
            } else if cursor.take("CHECK") {
                try cursor.skipGroup()
                addCheck(table: table, named: constraintName ?? "\(table)_\(name)_check")
            } else if cursor.take("DEFAULT") {
                try cursor.skipExpression()
            } else if cursor.take("GENERATED") {
                while !cursor.isAtEnd, !(cursor.peekWord.map { Self.columnConstraintWords.contains($0.uppercased()) && $0.uppercased() != "DEFAULT" } ?? false) {
                    if cursor.peekSymbol == "(" { try cursor.skipGroup() } else { cursor.advance() }
                }
            } else if cursor.take("COLLATE") {
                _ = try cursor.name()
            } else {
                throw SchemaShapeError("a constraint of column \(name) the schema reader does not know")
            }
            constraintName = nil
        }
        tables[table]?.columns[name] = column
    }

    /// Reads a table constraint (`PRIMARY KEY (…)`, `UNIQUE (…)`, `CHECK (…)`, `FOREIGN KEY (…)
    /// REFERENCES …`, each perhaps named); false, reading nothing, when the element is a column.
    private mutating func tableConstraint(_ cursor: inout SQLTokens.Cursor, table: String) throws -> Bool {
        var name: String?
        if cursor.take("CONSTRAINT") { name = try cursor.name() }
        if cursor.take("PRIMARY", "KEY") {
            let columns = try cursor.parenthesisedNames()
            tables[table]?.primaryKey = columns
            for column in columns { tables[table]?.columns[column]?.notNull = true }
        } else if cursor.take("UNIQUE") {
            addUnique(try cursor.parenthesisedNames(), table: table, named: name)
        } else if cursor.take("CHECK") {
            try cursor.skipGroup()
            addCheck(table: table, named: name ?? "\(table)_check")
        } else if cursor.take("FOREIGN", "KEY") {
            let columns = try cursor.parenthesisedNames()
            try cursor.expect("REFERENCES")
            let referenced = try cursor.name()
            if cursor.peekSymbol == "(" { _ = try cursor.parenthesisedList() }
            try skipReferentialActions(&cursor)
            addForeignKey(columns, to: referenced, table: table, named: name)
        } else if name != nil {
            throw SchemaShapeError("a named constraint the schema reader does not know")
        } else {
            return false
        }
        return true
    }

    private func skipReferentialActions(_ cursor: inout SQLTokens.Cursor) throws {
        while cursor.take("ON") {
            guard cursor.take("DELETE") || cursor.take("UPDATE") else { throw SchemaShapeError("ON without DELETE or UPDATE") }
            if !(cursor.take("CASCADE") || cursor.take("RESTRICT") || cursor.take("NO", "ACTION")
                 || cursor.take("SET", "NULL") || cursor.take("SET", "DEFAULT")) {
                throw SchemaShapeError("a referential action the schema reader does not know")
            }
        }
        _ = cursor.take("DEFERRABLE")
        _ = cursor.take("INITIALLY", "DEFERRED") || cursor.take("INITIALLY", "IMMEDIATE")
    }

    // PostgreSQL's own names for unnamed constraints: `<table>_<columns>_key`, `_fkey`, `_check`.
    private mutating func addUnique(_ columns: [String], table: String, named name: String?) {
        let label = "unique(\(columns.joined(separator: ","))) unique"
        tables[table]?.indexes.insert(label)
        constraints[table]?[name ?? "\(table)_\(columns.joined(separator: "_"))_key"] = .unique(label)
    }

    private mutating func addForeignKey(_ columns: [String], to referenced: String, table: String, named name: String?) {
        let key = "\(columns[0])→\(referenced)"
        tables[table]?.foreignKeys.insert(key)
        constraints[table]?[name ?? "\(table)_\(columns.joined(separator: "_"))_fkey"] = .foreignKey(key)
    }

    private mutating func addCheck(table: String, named name: String) {
        tables[table]?.checks += 1
        var unique = name, suffix = 0
        while constraints[table]?[unique] != nil { suffix += 1; unique = "\(name)\(suffix)" }
        constraints[table]?[unique] = .check
    }

    private mutating func dropConstraint(_ name: String, table: String) throws {
        guard let constraint = constraints[table]?.removeValue(forKey: name) else {
            throw SchemaShapeError("DROP CONSTRAINT \(name), which \(table) does not have (as PostgreSQL would name it)")
        }
        switch constraint {
        case .foreignKey(let key): tables[table]?.foreignKeys.remove(key)
        case .unique(let label): tables[table]?.indexes.remove(label)
        case .check: tables[table]?.checks -= 1
        }
    }

    private mutating func dropColumn(_ name: String, table: String) throws {
        guard tables[table]?.columns.removeValue(forKey: name) != nil else {
            throw SchemaShapeError("DROP COLUMN \(name), which \(table) does not have")
        }
        // PostgreSQL drops the indexes and foreign keys that use the column with it.
        tables[table]?.indexes.removeAll { index in
            let columns = index.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
            return columns.split(separator: ",").contains(Substring(name))
        }
        tables[table]?.foreignKeys.removeAll { $0.hasPrefix("\(name)→") }
    }

    /// The words that end a column's type and start its constraints.
    private static let columnConstraintWords: Set<String> = [
        "NOT", "NULL", "PRIMARY", "UNIQUE", "REFERENCES", "CHECK", "DEFAULT", "GENERATED", "COLLATE", "CONSTRAINT",
    ]
}

private extension Set {
    /// Removes the members that satisfy `condition`.
    mutating func removeAll(where condition: (Element) -> Bool) {
        self = filter { !condition($0) }
    }
}
