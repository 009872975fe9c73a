import BelayPostgres
import BelaySQLite
import BelayStorage

/// The club's SQLite file, for SQLite's own maintenance: an online backup, an integrity
/// check, and copying it into a PostgreSQL database. Obtained from `ClubDatabase.file`.
public struct ClubDatabaseFile: Sendable {
    let pool: SQLitePool

    /// The SQLite file.
    public var path: String { pool.path }

    /// True when `candidate` is this database's file or one of its `-wal`/`-shm`/`-journal`
    /// files, under any name: never a place to write a backup.
    public func isDatabaseFile(_ candidate: String) -> Bool {
        pool.isDatabaseFile(candidate)
    }

    /// Copies the database to `destination` with SQLite's online backup, while writes go on.
    /// - Throws: `DatabaseError` when the backup cannot be written.
    public func backup(to destination: String) throws {
        try pool.backup(to: destination)
    }

    /// Checks integrity and foreign keys.
    /// - Throws: `DatabaseError` when the checks cannot run.
    public func check() throws -> DatabaseCheckReport {
        try pool.check()
    }

    /// Copies every table, from one consistent snapshot, into the empty PostgreSQL database at
    /// `url` after applying the PostgreSQL migrations from `migrationsDirectory`, and reads
    /// each table back to compare it; `progress` hears of each table as it is copied.
    /// - Returns: each table's rows and checksum.
    /// - Throws: `PostgresError` when the server cannot be reached, refuses the copy, or holds
    ///   rows or other tables already; `DatabaseError` with a `migrationRefusal` when the
    ///   migrations folder is unusable.
    public func copy(toPostgreSQL url: String, migrationsDirectory: String,
                     progress: (DatabaseCopier.TableReport) -> Void) throws -> [DatabaseCopier.TableReport] {
        let migrator = try Migrator.postgresql(directory: migrationsDirectory)
        let connection = try PostgresConnection(url: url)
        return try pool.readSQLite { database in
            try DatabaseCopier(source: database, target: connection, migrator: migrator).copy(progress: progress)
        }
    }
}
