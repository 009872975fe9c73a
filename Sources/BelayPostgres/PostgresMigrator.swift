import BelayStorage
import Foundation

/// Applies `Migrations/postgresql/NNNN_name.sql` in order, each in its own transaction with
/// its record (identifier and SHA-256) in `schema_migrations`, under the same rules as the
/// SQLite migrator: numbered without gaps, never edited once applied, and a database migrated
/// by a newer Belay refused. An advisory lock makes nodes that start at once take turns.
public struct PostgresMigrator: Sendable {
    public let migrations: [Migration]

    /// Reads the migrations of `directory/postgresql` (the project's `Migrations` folder), or of
    /// `directory` itself when it has no such folder.
    /// - Throws: `DatabaseError` for an unreadable folder, a badly named file, a duplicate
    ///   number or a gap.
    public init(directory: String) throws {
        migrations = try Migrator(migrations: try Migrator.read(Migrator.engineFolder(of: directory, engine: "postgresql"))).migrations
    }

    /// Applies the pending migrations.
    /// - Returns: the migrations applied now.
    /// - Throws: `PostgresError` when a migration fails (nothing of it stays); `DatabaseError`
    ///   with a `migrationRefusal` when the database holds a migration edited since, or one
    ///   this Belay does not know.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [Migration] {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                identifier TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)
            """)
        var applied: [Migration] = []
        for migration in migrations {
            let done = try connection.transaction { () -> Bool in
                // One migrating node at a time; the others find the migration applied.
                try connection.execute("SELECT pg_advisory_xact_lock(7411942200)")
                let recorded = try connection.execute("SELECT identifier, checksum FROM schema_migrations ORDER BY identifier")
                try check(recorded)
                guard try !recorded.values("identifier").contains(migration.identifier) else { return false }
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO schema_migrations (identifier, checksum, applied_at) VALUES ($1, $2, $3)",
                                       [migration.identifier, migration.checksum, String(Int64(Date().timeIntervalSince1970 * 1000))])
                return true
            }
            if done { applied.append(migration) }
        }
        return applied
    }

    /// What is applied and what is pending, without changing anything.
    /// - Throws: `DatabaseError` with a `migrationRefusal` when the database holds a migration
    ///   edited since, or one this Belay does not know; `PostgresError` when it cannot be read.
    public func status(_ connection: PostgresConnection) throws -> MigrationStatus {
        let exists = try connection.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'")
        let tables = exists.rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
        guard tables > 0 else {
            return MigrationStatus(applied: [], pending: migrations)
        }
        let recorded = try connection.execute("SELECT identifier, checksum FROM schema_migrations ORDER BY identifier")
        try check(recorded)
        let applied = try recorded.values("identifier").compactMap { $0 }
        let done = Set(applied)
        return MigrationStatus(applied: applied, pending: migrations.filter { !done.contains($0.identifier) })
    }

    private func check(_ recorded: PostgresResult) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.identifier, $0.checksum) })
        for row in recorded.rows {
            let identifier = row[0] ?? "", checksum = row[1] ?? ""
            guard let expected = known[identifier] else {
                throw DatabaseError.migrationRefused(.unknownMigrationApplied,
                    "The database has migration \(identifier), which this Belay does not know: it was migrated by a newer Belay. Run that version, or restore a backup")
            }
            guard expected == checksum else {
                throw DatabaseError.migrationRefused(.checksumChanged,
                    "Migration \(identifier) was changed after it was applied (checksum \(checksum) recorded, \(expected) now). Restore the file as shipped and put the change in a new migration")
            }
        }
    }
}
