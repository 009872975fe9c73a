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

/// A migration applied to a database, as its `schema_migrations` table records it.
public struct AppliedMigration: Sendable, Equatable {
    public let identifier: String
    public let checksum: String

    public init(identifier: String, checksum: String) {
        self.identifier = identifier
        self.checksum = checksum
    }
}

/// What an engine does for the migrator: keep the record table, run a migration in a
/// transaction that no other migrating process runs beside, and record it. Each engine module
/// makes its connection one; the rules (order, checksums, refusals) are the migrator's alone.
public protocol MigrationTarget {
    /// Where the database is, for messages (a path, or a URL without its password).
    var migrationLocation: String { get }
    /// Creates `schema_migrations` when it does not exist yet.
    func createMigrationRecords() throws
    /// The migrations recorded as applied, in order; none when there is no record table.
    func appliedMigrations() throws -> [AppliedMigration]
    /// Runs `body` in one transaction that other processes migrating the same database wait
    /// for, committed when it returns.
    func exclusiveMigrationTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs the statements of one migration.
    func executeMigrationScript(_ sql: String) throws
    /// Records `migration` as applied, in the current transaction.
    func recordApplied(_ migration: Migration) throws
}

/// Applies the `NNNN_name.sql` files of an engine's migrations folder in order, each in its
/// own transaction together with its record (identifier + SHA-256 checksum) in the
/// `schema_migrations` table; the same rules on every engine.
///
/// Shipped migrations are never edited: a change is a new file. The migrator refuses
/// (throwing `DatabaseError` with a `migrationRefusal`) when a file is badly named, two
/// files share a number, the numbering has a gap, an applied migration's file changed, or
/// the database has migrations this binary does not know (a newer schema).
public struct Migrator: Sendable {
    /// The known migrations, ordered by version.
    public let migrations: [Migration]

    /// Reads every `NNNN_name.sql` in `directory/engineFolder` (the project's `Migrations`
    /// folder holds one folder per engine), or in `directory` itself when it has no such
    /// folder. Hidden files (starting with `.`) are ignored.
    /// - Throws: `DatabaseError` for an unreadable directory, a badly named file, a duplicate
    ///   number or a gap in numbering.
    public init(directory: String, engineFolder: String) throws {
        try self.init(migrations: try Self.read(Self.engineFolder(of: directory, engine: engineFolder)))
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
    /// - Throws: `DatabaseError` with `.checksumChanged` or `.unknownMigrationApplied`; the
    ///   engine's error when the records cannot be read.
    public func status(of database: some MigrationTarget) throws -> MigrationStatus {
        let applied = try database.appliedMigrations()
        try check(applied, in: database)
        let appliedIdentifiers = Set(applied.map(\.identifier))
        return MigrationStatus(applied: applied.map(\.identifier),
                               pending: migrations.filter { !appliedIdentifiers.contains($0.identifier) })
    }

    /// The migrations `migrate` would apply (for `--dry-run`).
    /// - Throws: as `status(of:)`.
    public func pendingMigrations(in database: some MigrationTarget) throws -> [Migration] {
        try status(of: database).pending
    }

    /// Applies every pending migration in order, each in its own exclusive transaction with
    /// its record. Safe to run from several processes or nodes at once: each transaction
    /// checks again what is applied once it has the database to itself.
    /// - Parameter database: a connection with no open transaction.
    /// - Returns: the migrations applied by this call.
    /// - Throws: a refusal (see the type's documentation) or the engine's error for the
    ///   failing statement; earlier migrations stay applied, the failing one leaves nothing.
    @discardableResult
    public func migrate(_ database: some MigrationTarget) throws -> [Migration] {
        try database.createMigrationRecords()
        var appliedNow: [Migration] = []
        for migration in try pendingMigrations(in: database) {
            let applied = try database.exclusiveMigrationTransaction { () -> Bool in
                // Another process may have applied it since we looked.
                guard try status(of: database).pending.contains(migration) else { return false }
                try database.executeMigrationScript(migration.sql)
                try database.recordApplied(migration)
                return true
            }
            if applied { appliedNow.append(migration) }
        }
        return appliedNow
    }

    /// Refuses a database with a migration this binary does not know, or one whose file
    /// changed since it was applied.
    private func check(_ applied: [AppliedMigration], in database: some MigrationTarget) throws {
        let byIdentifier = Dictionary(uniqueKeysWithValues: migrations.map { ($0.identifier, $0) })
        for record in applied {
            guard let known = byIdentifier[record.identifier] else {
                throw DatabaseError.migrationRefused(.unknownMigrationApplied,
                    "The database \(database.migrationLocation) has migration \(record.identifier), which this version of Belay does not know: it was migrated by a newer Belay. Run that newer version, or restore a backup taken before it")
            }
            guard known.checksum == record.checksum else {
                throw DatabaseError.migrationRefused(.checksumChanged,
                    "Migration \(record.identifier) was changed after it was applied to \(database.migrationLocation) (checksum \(record.checksum) recorded, \(known.checksum) now). Restore the file as shipped and put the change in a new migration")
            }
        }
    }
}
