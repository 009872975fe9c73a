import BelayStorage

/// SQLite's part of migrating: `BEGIN IMMEDIATE` takes the write lock, which every other
/// migrating process waits for.
extension SQLiteDatabase: MigrationTarget {
    public var migrationLocation: String { path }

    public func createMigrationRecords() throws {
        try transaction(.immediate) {
            try execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT
                """)
        }
    }

    public func appliedMigrations() throws -> [AppliedMigration] {
        let exists = try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
                                as: Int64.self) ?? 0
        guard exists > 0 else { return [] }
        return try query("SELECT identifier, checksum FROM schema_migrations ORDER BY version") {
            AppliedMigration(identifier: try $0.get(0), checksum: try $0.get(1))
        }
    }

    public func exclusiveMigrationTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(.immediate, body)
    }

    public func executeMigrationScript(_ sql: String) throws {
        try executeScript(sql)
    }

    public func recordApplied(_ migration: Migration) throws {
        try execute("""
            INSERT INTO schema_migrations (version, identifier, checksum, applied_at)
            VALUES (?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
            """, [migration.version, migration.identifier, migration.checksum])
    }
}

extension Migrator {
    /// The SQLite migrations of the project's `Migrations` folder (`directory/sqlite`), or of
    /// `directory` itself when it has no such folder.
    /// - Throws: as `init(directory:engineFolder:)`.
    public static func sqlite(directory: String) throws -> Migrator {
        try Migrator(directory: directory, engineFolder: "sqlite")
    }

    /// Applies pending migrations on the pool's writer connection.
    /// - Throws: as `migrate(_:)`.
    @discardableResult
    public func migrate(_ pool: SQLitePool) throws -> [Migration] {
        try pool.writeWithoutTransaction { try migrate($0) }
    }
}
