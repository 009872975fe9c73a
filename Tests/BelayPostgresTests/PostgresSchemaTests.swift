import BelayPostgres
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The two engines' migrations: both apply under the same rules, and the schemas they make
/// have the same tables, columns, keys, constraints and indexes.
@Suite(.serialized) struct PostgresSchemaTests {
    static let migrations = SchemaShapes.migrationsDirectory

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
                SELECT column_name, is_nullable, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1
                """, [table]).rows {
                shape.columns[row[0] ?? ""] = TableShape.Column(notNull: row[1] == "NO", family: TableShape.TypeFamily(postgresqlType: row[2] ?? ""))
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

    /// What the PostgreSQL migrations make on a server is what the schema parity check
    /// (`MigrationParityTests`, which needs no server) reads from their text, and SQLite's
    /// schema differs from it only as `SchemaShapes` declares.
    @Test func bothEnginesMakeTheSameSchema() throws {
        let cluster = try PostgresCluster()
        let postgres = try Self.postgresShapes(cluster)
        let read = try PostgreSQLMigrationReader.schema(migrations: Self.migrations)
        let readDifferences = TableShape.differences(postgres, read, leftName: "the server", rightName: "the scripts as read")
        #expect(readDifferences.isEmpty, "\(readDifferences.joined(separator: "\n"))")
        let sqlite = try SchemaShapes.sqliteWithoutIntendedDifferences(try SchemaShapes.sqlite(migrations: Self.migrations))
        let differences = TableShape.differences(sqlite, postgres, leftName: "SQLite", rightName: "PostgreSQL")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
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
