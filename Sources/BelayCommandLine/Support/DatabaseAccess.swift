import Foundation
import BelayComposition
import BelayArguments
import BelayDomain

extension CommandContext {
    /// Checks the migrations shipped with this Belay, from `migrations_directory`.
    /// - Throws: `CommandLineError.failure` when the directory is missing or its files break
    ///   the naming rules.
    func checkMigrations() throws {
        let configuration = try configuration()
        do {
            try ClubDatabase.checkMigrations(configuration)
        } catch {
            throw Self.migrationFailure(error)
        }
    }

    /// A migrator's refusal as a failure that, for an unreadable folder, says where the folder
    /// is set; any other error unchanged.
    static func migrationFailure(_ error: any Error) -> any Error {
        guard let refusal = DatabaseRefusal(error), refusal.isMigrationRefusal else { return error }
        var message = refusal.description
        if refusal.kind == .migrationsFolderUnreadable {
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
    public func openDatabase() throws -> ClubDatabase {
        try openClubDatabase(requireCurrentSchema: true)
    }

    /// Opens the SQLite file for SQLite's own maintenance (`db backup`, `db check`, the source
    /// of `db copy`).
    /// - Parameter requireCurrentSchema: false for maintenance that must work on any schema
    ///   (`db backup` before a migration, `db check`); the file must still exist.
    /// - Throws: `CommandLineError.failure` when the data is on PostgreSQL (whose own tools do
    ///   this) or as `openDatabase()`.
    public func openDatabaseFile(requireCurrentSchema: Bool = true, purpose: String) throws -> ClubDatabaseFile {
        let configuration = try configuration()
        if !ClubDatabase.isSQLiteFile(configuration) {
            throw CommandLineError.failure("\(purpose) works on the SQLite file; this Belay's data is on PostgreSQL (database.url), whose own tools do it (pg_dump, amcheck). Unset database.url to work on the file at \(configuration.databasePath).")
        }
        guard let file = try openClubDatabase(requireCurrentSchema: requireCurrentSchema).file else {
            throw CommandLineError.failure("\(purpose) works on the SQLite file only.")
        }
        return file
    }

    private func openClubDatabase(requireCurrentSchema: Bool) throws -> ClubDatabase {
        let configuration = try configuration()
        let path = configuration.databasePath
        if ClubDatabase.isMissing(configuration) {
            throw CommandLineError.failure("There is no database at \(path) yet. Run `belay migrate` to create it (the path comes from data_directory / database_path in \(configuration.sourceFile ?? "the built-in defaults")).")
        }
        let database = try Self.migrationFailures { try ClubDatabase(configuration: configuration) }
        guard requireCurrentSchema else { return database }
        let status = try Self.migrationFailures { try database.migrationStatus() }
        guard status.isCurrent else {
            if status.applied.isEmpty {
                throw CommandLineError.failure("The database at \(database.location) has no Belay tables yet. Run `belay migrate` to create them (or start `belay serve`, which migrates an empty database).")
            }
            let names = status.pending.map(\.identifier).joined(separator: ", ")
            let backup = database.file == nil ? "Back it up with pg_dump" : "Back it up with `belay db backup FILE`"
            throw CommandLineError.failure("The database at \(database.location) is missing \(Plural.counted(status.pending.count, "migration")) this version of Belay needs (\(names)). \(backup), then run `belay migrate`.")
        }
        return database
    }

    /// Runs `body`, turning a migrator's refusal into a failure (see `migrationFailure`).
    private static func migrationFailures<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw migrationFailure(error) }
    }
}
