import BelaySQLite
import BelayStorage
import Foundation

/// The schemas the two migration trees make, as `TableShape`s: SQLite's read from a database
/// migrated in a temporary folder (no server), PostgreSQL's read from its scripts
/// (`PostgreSQLMigrationReader`) or, where a cluster runs, from the server itself.
public enum SchemaShapes {
    /// The project's `Migrations` folder (one folder per engine).
    public static let migrationsDirectory = BelayProcess.packageRoot.appendingPathComponent("Migrations").path

    /// The foreign keys SQLite keeps and PostgreSQL does not: each was a locking read of the
    /// referenced row on every check-in, and the rows they point to are never deleted (see
    /// Migrations/postgresql/0019_check_in_references_checked_by_belay.sql).
    public static let checkInReferencesLeftToBelayOnPostgreSQL: [String: Set<String>] = [
        "rewards": ["attendance_id→attendances", "member_id→users", "meetup_id→meetups", "hold_id→holds", "background_id→backgrounds"],
        "render_jobs": ["reward_id→rewards"],
        "webhook_deliveries": ["endpoint_id→webhook_endpoints", "event_id→webhook_events"],
    ]

    /// The schema SQLite's migrations under `directory` make, read back from a database
    /// migrated in a temporary folder.
    /// - Throws: when a migration or a read fails.
    public static func sqlite(migrations directory: String = migrationsDirectory) throws -> [String: TableShape] {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("belay.sqlite3"))
        try Migrator.sqlite(directory: directory).migrate(database)
        var shapes: [String: TableShape] = [:]
        let tables: [(String, String)] = try database.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'") {
            (try $0.get("name"), try $0.get("sql"))
        }
        for (table, sql) in tables {
            var shape = TableShape()
            let columns: [(String, String, Bool, Int)] = try database.query(
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [table]) {
                (try $0.get("name"), try $0.get("type"), try $0.get("notnull"), try $0.get("pk"))
            }
            for (name, type, notNull, pk) in columns {
                shape.columns[name] = TableShape.Column(notNull: notNull || pk > 0, family: TableShape.TypeFamily(sqliteDeclaration: type))
            }
            shape.primaryKey = columns.filter { $0.3 > 0 }.sorted { $0.3 < $1.3 }.map(\.0)
            let foreign: [(String, String)] = try database.query("SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", [table]) {
                (try $0.get("from"), try $0.get("table"))
            }
            shape.foreignKeys = Set(foreign.map { "\($0.0)→\($0.1)" })
            shape.checks = sql.components(separatedBy: "CHECK (").count - 1
            // Indexes: named ones as written; UNIQUE constraints (sqlite_autoindex_*) by their columns.
            let indexes: [(String, Bool, Bool)] = try database.query(
                "SELECT name, \"unique\", partial FROM pragma_index_list(?) WHERE origin <> 'pk'", [table]) {
                (try $0.get("name"), try $0.get("unique"), try $0.get("partial"))
            }
            for (name, unique, partial) in indexes {
                let indexColumns: [String?] = try database.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [name]) { try $0.get("name") }
                let label = name.hasPrefix("sqlite_autoindex_") ? "unique" : name
                // An index on an expression has no column name.
                let listed = indexColumns.map { $0 ?? "(expression)" }.joined(separator: ",")
                shape.indexes.insert("\(label)(\(listed))\(unique ? " unique" : "")\(partial ? " partial" : "")")
            }
            shapes[table] = shape
        }
        return shapes
    }

    /// SQLite's schema with the differences the two trees make on purpose taken out, so that
    /// what remains must equal PostgreSQL's:
    /// - SQLite says "unique whatever its case" with `COLLATE NOCASE UNIQUE`, PostgreSQL with a
    ///   unique index on `lower(column)`: the same rule, written as each engine can;
    /// - the references of the rows a check-in writes are foreign keys on SQLite only
    ///   (`checkInReferencesLeftToBelayOnPostgreSQL`).
    /// - Throws: when one of those differences is no longer in SQLite's schema (then this list
    ///   is out of date).
    public static func sqliteWithoutIntendedDifferences(_ shapes: [String: TableShape]) throws -> [String: TableShape] {
        var shapes = shapes
        for column in ["handle", "email"] {
            guard shapes["users"]?.indexes.remove("unique(\(column)) unique") != nil else {
                throw SchemaShapeError("users.\(column) is no longer COLLATE NOCASE UNIQUE on SQLite; update SchemaShapes")
            }
            shapes["users"]?.indexes.insert("users_\(column)_nocase((expression)) unique")
        }
        for (table, references) in checkInReferencesLeftToBelayOnPostgreSQL {
            let kept = shapes[table]?.foreignKeys ?? []
            guard references.isSubset(of: kept) else {
                throw SchemaShapeError("\(table): \(references.subtracting(kept).sorted()) is no foreign key on SQLite either; update SchemaShapes")
            }
            shapes[table]?.foreignKeys.subtract(references)
        }
        // Meetup search: SQLite's R*Tree and FTS5 tables (and their shadow tables) are what
        // PostgreSQL's GiST and GIN indexes on the meetups table are.
        for (table, _) in shapes where table.hasPrefix("meetup_locations") || table.hasPrefix("meetup_search") { shapes[table] = nil }
        for index in ["meetups_by_grams((expression))", "meetups_by_location((expression)) partial"] { shapes["meetups"]?.indexes.insert(index) }
        return shapes
    }
}
