import Foundation

/// Where a database stands relative to the migrations this binary knows.
public struct MigrationStatus: Sendable {
    /// Identifiers recorded in `schema_migrations`, in order.
    public let applied: [String]
    /// Migrations not yet applied, in the order `migrate` would apply them.
    public let pending: [Migration]

    public init(applied: [String], pending: [Migration]) {
        self.applied = applied
        self.pending = pending
    }
    /// True when nothing is pending (the schema is what this binary expects).
    public var isCurrent: Bool { pending.isEmpty }
}

/// Applies `Migrations/sqlite/NNNN_name.sql` files in order, each in its own transaction together
/// with its record (identifier + SHA-256 checksum) in the `schema_migrations` table.
///
/// Shipped migrations are never edited: a change is a new file. The migrator refuses
/// (throwing `DatabaseError` with a `migrationRefusal`) when a file is badly named, two
/// files share a number, the numbering has a gap, an applied migration's file changed, or
/// the database has migrations this binary does not know (a newer schema).
public struct Migrator: Sendable {
    /// The known migrations, ordered by version.
    public let migrations: [Migration]

    /// Reads every `NNNN_name.sql` in `directory`, or in its `sqlite` folder when it has one
    /// (the project's `Migrations` folder holds one folder per engine). Hidden files (starting
    /// with `.`) are ignored.
    /// - Throws: `DatabaseError` for an unreadable directory, a badly named file, a duplicate
    ///   number or a gap in numbering.
    public init(directory: String) throws {
        try self.init(migrations: try Self.read(Self.engineFolder(of: directory, engine: "sqlite")))
    }

    /// `directory/engine` when that is a folder, else `directory`.
    public static func engineFolder(of directory: String, engine: String) -> String {
        let nested = (directory as NSString).appendingPathComponent(engine)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue ? nested : directory
    }

    /// The `NNNN_name.sql` migrations of a folder.
    /// - Throws: `DatabaseError` for an unreadable directory or file, or a badly named file.
    public static func read(_ directory: String) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw DatabaseError(.migration(.directoryUnreadable, message:
                "Cannot read the migrations directory \(directory): \(error.localizedDescription); check the path (it is the Migrations folder of the Belay checkout)"))
        }
        var migrations: [Migration] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard name.hasSuffix(".sql"), Migration.version(ofIdentifier: String(name.dropLast(4))) != nil else {
                throw DatabaseError(.migration(.badFileName, message:
                    "Migration file \(directory)/\(name) is not named NNNN_name.sql (four digits, an underscore, lowercase letters, digits or underscores); rename it or move it out of the directory"))
            }
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw DatabaseError(.migration(.directoryUnreadable, message:
                    "Cannot read the migration file \(path); check its permissions"))
            }
            let sql = String(decoding: data, as: UTF8.self)
            migrations.append(try Migration(identifier: String(name.dropLast(4)), sql: sql))
        }
        return migrations
    }

    /// Uses migrations given in code (for tests and embedded schemas).
    /// - Throws: `DatabaseError` for a duplicate number or a gap in numbering.
    public init(migrations: [Migration]) throws {
        let sorted = migrations.sorted { ($0.version, $0.identifier) < ($1.version, $1.identifier) }
        for (index, migration) in sorted.enumerated() {
            if index > 0 && sorted[index - 1].version == migration.version {
                throw DatabaseError(.migration(.duplicateNumber, message:
                    "Migrations \(sorted[index - 1].identifier) and \(migration.identifier) share the number \(migration.version); renumber the newer one to the next free number"))
            }
            let expected = index + 1
            if migration.version != expected {
                throw DatabaseError(.migration(.gapInNumbering, message:
                    "Migration \(migration.identifier) should be numbered \(String(format: "%04d", expected)): migrations must be numbered 0001, 0002, … without gaps; renumber it"))
            }
        }
        self.migrations = sorted
    }

    /// What is applied and what is pending, after checking that the applied migrations are
    /// all known and unchanged. Cheap enough for a readiness probe.
    /// - Throws: `DatabaseError` with `.checksumChanged` or `.unknownMigrationApplied`.
    public func status(of database: SQLiteDatabase) throws -> MigrationStatus {
        let applied = try appliedRecords(in: database)
        let byIdentifier = Dictionary(uniqueKeysWithValues: migrations.map { ($0.identifier, $0) })
        for record in applied {
            guard let known = byIdentifier[record.identifier] else {
                throw DatabaseError(.migration(.unknownMigrationApplied, message:
                    "The database \(database.path) has migration \(record.identifier), which this version of Belay does not know: it was migrated by a newer version. Run that newer version, or restore a backup taken before it"))
            }
            guard known.checksum == record.checksum else {
                throw DatabaseError(.migration(.checksumChanged, message:
                    "Migration \(record.identifier) was changed after it was applied to \(database.path) (checksum \(record.checksum) recorded, \(known.checksum) now). Restore the file as shipped and put the change in a new migration"))
            }
        }
        let appliedIdentifiers = Set(applied.map(\.identifier))
        return MigrationStatus(applied: applied.map(\.identifier),
                               pending: migrations.filter { !appliedIdentifiers.contains($0.identifier) })
    }

    /// The migrations `migrate` would apply (for `--dry-run`).
    /// - Throws: as `status(of:)`.
    public func pendingMigrations(in database: SQLiteDatabase) throws -> [Migration] {
        try status(of: database).pending
    }

    /// Applies every pending migration in order, each in its own `BEGIN IMMEDIATE`
    /// transaction with its record. Safe to run from two processes at once: each
    /// transaction re-checks what is applied after taking the write lock.
    /// - Parameter database: a connection with no open transaction.
    /// - Returns: the migrations applied by this call.
    /// - Throws: a refusal (see the type's documentation) or the `DatabaseError` of the
    ///   failing statement; earlier migrations stay applied, the failing one leaves nothing.
    @discardableResult
    public func migrate(_ database: SQLiteDatabase) throws -> [Migration] {
        try database.transaction(.immediate) {
            try database.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT
                """)
        }
        var appliedNow: [Migration] = []
        for migration in try pendingMigrations(in: database) {
            let applied = try database.transaction(.immediate) { () -> Bool in
                // Another process may have applied it since we looked.
                guard try status(of: database).pending.contains(migration) else { return false }
                try database.executeScript(migration.sql)
                try database.execute("""
                    INSERT INTO schema_migrations (version, identifier, checksum, applied_at)
                    VALUES (?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
                    """, [migration.version, migration.identifier, migration.checksum])
                return true
            }
            if applied { appliedNow.append(migration) }
        }
        return appliedNow
    }

    /// Applies pending migrations on the pool's writer connection.
    /// - Throws: as `migrate(_:)`.
    @discardableResult
    public func migrate(_ pool: SQLitePool) throws -> [Migration] {
        try pool.writeWithoutTransaction { try migrate($0) }
    }

    private struct AppliedRecord {
        let identifier: String
        let checksum: String
    }

    private func appliedRecords(in database: SQLiteDatabase) throws -> [AppliedRecord] {
        let exists = try database.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
            as: Int64.self) ?? 0
        guard exists > 0 else { return [] }
        return try database.query("SELECT identifier, checksum FROM schema_migrations ORDER BY version") {
            AppliedRecord(identifier: try $0.get(0), checksum: try $0.get(1))
        }
    }
}
