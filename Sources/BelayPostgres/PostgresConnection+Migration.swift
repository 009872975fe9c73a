import BelayStorage
import Foundation

/// PostgreSQL's part of migrating: an advisory lock held for the transaction makes nodes
/// that start at once take turns.
extension PostgresConnection: MigrationTarget {
    public var migrationLocation: String { location }

    public func createMigrationRecords() throws {
        try execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                identifier TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)
            """)
    }

    public func appliedMigrations() throws -> [AppliedMigration] {
        let exists = try execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'")
        guard (exists.rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0) > 0 else { return [] }
        return try execute("SELECT identifier, checksum FROM schema_migrations ORDER BY identifier").rows.map {
            AppliedMigration(identifier: $0[0] ?? "", checksum: $0[1] ?? "")
        }
    }

    public func exclusiveMigrationTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction {
            try execute("SELECT pg_advisory_xact_lock(7411942200)")
            return try body()
        }
    }

    public func executeMigrationScript(_ sql: String) throws {
        try executeScript(sql)
    }

    public func recordApplied(_ migration: Migration) throws {
        try execute("INSERT INTO schema_migrations (identifier, checksum, applied_at) VALUES ($1, $2, $3)",
                    [migration.identifier, migration.checksum, String(Int64(Date().timeIntervalSince1970 * 1000))])
    }
}

extension Migrator {
    /// The PostgreSQL migrations of the project's `Migrations` folder (`directory/postgresql`),
    /// or of `directory` itself when it has no such folder.
    /// - Throws: as `init(directory:engineFolder:)`.
    public static func postgresql(directory: String) throws -> Migrator {
        try Migrator(directory: directory, engineFolder: "postgresql")
    }
}
