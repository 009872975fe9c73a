import BelayPostgres
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The two engines' migrations: both apply under the same rules, and the schemas they make
/// have the same tables, columns, keys, constraints and indexes.
@Suite(.serialized) struct PostgresSchemaTests {
    static let migrations = BelayProcess.packageRoot.appendingPathComponent("Migrations").path

    /// A table as both engines describe it.
    struct TableShape: Equatable, CustomStringConvertible {
        var columns: [String: Bool] = [:]   // name → NOT NULL
        var primaryKey: [String] = []
        var foreignKeys: Set<String> = []  // "column→table"
        var checks = 0
        var indexes: Set<String> = []      // "name(columns)[ unique][ partial]"
        var description: String { "columns \(columns.sorted { $0.key < $1.key }), pk \(primaryKey), fk \(foreignKeys.sorted()), checks \(checks), indexes \(indexes.sorted())" }
    }

    static func sqliteShapes() throws -> [String: TableShape] {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("belay.sqlite3"))
        try Migrator.sqlite(directory: migrations).migrate(database)
        var shapes: [String: TableShape] = [:]
        let tables: [(String, String)] = try database.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'") {
            (try $0.get("name"), try $0.get("sql"))
        }
        for (table, sql) in tables {
            var shape = TableShape()
            let columns: [(String, Bool, Int)] = try database.query("SELECT name, \"notnull\", pk FROM pragma_table_info(?)", [table]) {
                (try $0.get("name"), try $0.get("notnull"), try $0.get("pk"))
            }
            for (name, notNull, pk) in columns { shape.columns[name] = notNull || pk > 0 }
            shape.primaryKey = columns.filter { $0.2 > 0 }.sorted { $0.2 < $1.2 }.map(\.0)
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
                // An index on an expression has no column name: a case-insensitive unique key.
                let listed = indexColumns.map { $0 ?? "(expression)" }.joined(separator: ",")
                shape.indexes.insert("\(label)(\(listed))\(unique ? " unique" : "")\(partial ? " partial" : "")")
            }
            shapes[table] = shape
        }
        return shapes
    }

    static func postgresShapes(_ cluster: PostgresCluster) throws -> [String: TableShape] {
        try cluster.createDatabase("shape")
        let connection = try PostgresConnection(url: cluster.url(database: "shape"))
        try Migrator.postgresql(directory: migrations).migrate(connection)
        var shapes: [String: TableShape] = [:]
        let tables = try connection.execute("""
            SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'
            """).values("table_name").compactMap { $0 }
        for table in tables {
            var shape = TableShape()
            for row in try connection.execute("""
                SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1
                """, [table]).rows {
                shape.columns[row[0] ?? ""] = row[1] == "NO"
            }
            shape.primaryKey = try connection.execute("""
                SELECT a.attname FROM pg_index i JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY k.n
                """, [table]).values("attname").compactMap { $0 }
            shape.foreignKeys = Set(try connection.execute("""
                SELECT a.attname || '→' || c.confrelid::regclass::text AS fk FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                WHERE c.conrelid = $1::regclass AND c.contype = 'f'
                """, [table]).values("fk").compactMap { $0 })
            shape.checks = Int(try connection.execute(
                "SELECT count(*) AS n FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'", [table]).rows[0][0] ?? "0") ?? 0
            for row in try connection.execute("""
                SELECT ic.relname AS name, i.indisunique AS is_unique, i.indpred IS NOT NULL AS partial,
                       EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype = 'u') AS is_constraint,
                       array_to_string(ARRAY(SELECT coalesce(a.attname, '(expression)')
                           FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                           LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum AND k.attnum > 0
                           ORDER BY k.n), ',') AS columns
                FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
                WHERE i.indrelid = $1::regclass AND NOT i.indisprimary
                """, [table]).rows {
                let unique = row[1] == "t", partial = row[2] == "t", isConstraint = row[3] == "t"
                let label = isConstraint ? "unique" : row[0] ?? ""
                shape.indexes.insert("\(label)(\(row[4] ?? ""))\(unique ? " unique" : "")\(partial ? " partial" : "")")
            }
            shapes[table] = shape
        }
        return shapes
    }

    /// The foreign keys SQLite keeps and PostgreSQL does not: each was a locking read of the
    /// referenced row on every check-in, and the rows they point to are never deleted.
    static let checkInReferencesLeftToBelayOnPostgreSQL: [String: Set<String>] = [
        "rewards": ["attendance_id→attendances", "member_id→users", "meetup_id→meetups", "hold_id→holds", "background_id→backgrounds"],
        "render_jobs": ["reward_id→rewards"],
        "webhook_deliveries": ["endpoint_id→webhook_endpoints", "event_id→webhook_events"],
    ]

    @Test func bothEnginesMakeTheSameSchema() throws {
        let cluster = try PostgresCluster()
        var sqlite = try Self.sqliteShapes()
        let postgres = try Self.postgresShapes(cluster)
        // SQLite says "a unique column whatever its case" with COLLATE NOCASE UNIQUE; PostgreSQL
        // with a unique index on lower(column): the same rule, written as each engine can.
        sqlite["users"]?.indexes.remove("unique(handle) unique")
        sqlite["users"]?.indexes.remove("unique(email) unique")
        sqlite["users"]?.indexes.formUnion(["users_handle_nocase((expression)) unique", "users_email_nocase((expression)) unique"])
        // The references of the rows a check-in writes are foreign keys on SQLite only (see
        // Migrations/postgresql/0019_check_in_references_checked_by_belay.sql): the one difference.
        for (table, references) in Self.checkInReferencesLeftToBelayOnPostgreSQL {
            let kept = try #require(sqlite[table]).foreignKeys
            #expect(references.isSubset(of: kept), "\(table): \(references.subtracting(kept).sorted()) is no foreign key on SQLite either")
            sqlite[table]?.foreignKeys.subtract(references)
        }
        #expect(Set(sqlite.keys) == Set(postgres.keys))
        for table in sqlite.keys.sorted() {
            #expect(sqlite[table] == postgres[table], "\(table): SQLite \(String(describing: sqlite[table])) — PostgreSQL \(String(describing: postgres[table]))")
        }
        #expect(sqlite.count >= 20)
    }

    @Test func postgresMigrationsFollowTheSameRules() throws {
        let cluster = try PostgresCluster()
        try cluster.createDatabase("rules")
        let connection = try PostgresConnection(url: cluster.url(database: "rules"))
        let migrator = try Migrator.postgresql(directory: Self.migrations)
        let sqliteNames = try Migrator.sqlite(directory: Self.migrations).migrations.map(\.identifier)
        #expect(migrator.migrations.map(\.identifier) == sqliteNames, "one PostgreSQL migration for each SQLite one, by the same name")
        #expect(try migrator.migrate(connection).count == sqliteNames.count)
        #expect(try migrator.migrate(connection).isEmpty, "a second run applies nothing")
        #expect(try cluster.psql("SELECT count(*) FROM schema_migrations", database: "rules") == String(sqliteNames.count))

        // An edited migration and a newer database are refused, naming what is wrong.
        try connection.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE identifier = '0002_backfill_lease'")
        #expect { try migrator.migrate(connection) } throws: { "\($0)".contains("0002_backfill_lease was changed after it was applied") }
        try connection.execute("UPDATE schema_migrations SET checksum = $1 WHERE identifier = '0002_backfill_lease'",
                               [migrator.migrations[1].checksum])
        try connection.execute("INSERT INTO schema_migrations VALUES ('0099_from_the_future', 'x', 0)")
        #expect { try migrator.migrate(connection) } throws: { "\($0)".contains("migrated by a newer Belay") }
    }

    @Test func aFailedConnectionSaysWhereAndWhyWithoutThePassword() throws {
        let port = try FreePort.next()
        #expect { try PostgresConnection(url: "postgresql://belay:s3cret@127.0.0.1:\(port)/belay?connect_timeout=2") } throws: { error in
            let text = "\(error)"
            return (error as? PostgresError)?.kind == .connectionFailed && text.contains("127.0.0.1") && !text.contains("s3cret")
        }
    }
}
