import Foundation
import BelayComposition
import BelayArguments
import BelayConfig
import BelayDomain
import BelayStorage

extension CommandContext {
    /// The migrations shipped with this Belay, from `migrations_directory`.
    /// - Throws: `CommandLineError.failure` when the directory is missing or its files break
    ///   the naming rules.
    func migrator() throws -> Migrator {
        let configuration = try configuration()
        do {
            return try Migrator(directory: configuration.migrationsDirectory)
        } catch let error as DatabaseError {
            throw Self.migrationFailure(error)
        }
    }

    /// A refused or unreadable migrations folder as a failure that says where the folder is set.
    private static func migrationFailure(_ error: DatabaseError) -> CommandLineError {
        var message = error.description
        if error.migrationRefusal == .directoryUnreadable {
            message += ". Set migrations_directory in the configuration file (or BELAY_MIGRATIONS_DIRECTORY), or pass --config with the config.json of a Belay checkout"
        }
        return CommandLineError.failure(message)
    }

    /// Opens the configured database for a command that reads or writes club data, on
    /// whichever engine `database.url` names.
    ///
    /// Nothing is applied silently: a missing database or pending migrations are refused
    /// with the command to run (`belay migrate`), and a database migrated by a newer Belay
    /// is refused too.
    /// - Throws: `CommandLineError.failure` saying what to run; `DatabaseError` when the
    ///   database cannot be opened.
    public func openDatabase() throws -> any DatabaseStore {
        try openClubDatabase(requireCurrentSchema: true).store
    }

    /// Opens the SQLite file for SQLite's own maintenance (`db backup`, `db check`, the source
    /// of `db copy`).
    /// - Parameter requireCurrentSchema: false for maintenance that must work on any schema
    ///   (`db backup` before a migration, `db check`); the file must still exist.
    /// - Throws: `CommandLineError.failure` when the data is on PostgreSQL (whose own tools do
    ///   this) or as `openDatabase()`.
    public func openSQLiteDatabase(requireCurrentSchema: Bool = true, purpose: String) throws -> SQLitePool {
        let configuration = try configuration()
        if configuration.database.isPostgreSQL {
            throw CommandLineError.failure("\(purpose) works on the SQLite file; this Belay's data is on PostgreSQL (database.url), whose own tools do it (pg_dump, amcheck). Unset database.url to work on the file at \(configuration.databasePath).")
        }
        guard let pool = try openClubDatabase(requireCurrentSchema: requireCurrentSchema).sqlitePool else {
            throw CommandLineError.failure("\(purpose) works on the SQLite file only.")
        }
        return pool
    }

    private func openClubDatabase(requireCurrentSchema: Bool) throws -> ClubDatabase {
        let configuration = try configuration()
        let path = configuration.databasePath
        if ClubDatabase.isMissing(configuration) {
            throw CommandLineError.failure("There is no database at \(path) yet. Run `belay migrate` to create it (the path comes from data_directory / database_path in \(configuration.sourceFile ?? "the built-in defaults")).")
        }
        let database: ClubDatabase
        do {
            database = try ClubDatabase(configuration: configuration)
        } catch let error as DatabaseError where error.migrationRefusal != nil {
            throw Self.migrationFailure(error)
        }
        guard requireCurrentSchema else { return database }
        let status: MigrationStatus
        do {
            status = try database.migrationStatus()
        } catch let error as DatabaseError where error.migrationRefusal != nil {
            throw Self.migrationFailure(error)
        }
        guard status.isCurrent else {
            let names = status.pending.map(\.identifier).joined(separator: ", ")
            let backup = configuration.database.isPostgreSQL ? "Back it up with pg_dump" : "Back it up with `belay db backup FILE`"
            throw CommandLineError.failure("The database at \(database.location) is missing \(Plural.counted(status.pending.count, "migration")) this version of Belay needs (\(names)). \(backup), then run `belay migrate`.")
        }
        return database
    }
}
