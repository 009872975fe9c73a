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
            var message = error.description
            if error.migrationRefusal == .directoryUnreadable {
                message += ". Set migrations_directory in the configuration file (or BELAY_MIGRATIONS_DIRECTORY), or pass --config with the config.json of a Belay checkout"
            }
            throw CommandLineError.failure(message)
        }
    }

    /// Opens the configured database for a command that reads or writes club data.
    ///
    /// Nothing is applied silently: a missing database or pending migrations are refused
    /// with the command to run (`belay migrate`), and a database migrated by a newer Belay
    /// is refused too.
    /// - Parameter requireCurrentSchema: false for maintenance that must work on any schema
    ///   (`db backup` before a migration, `db check`); the file must still exist.
    /// - Throws: `CommandLineError.failure` saying what to run; `DatabaseError` when the
    ///   file cannot be opened.
    public func openDatabase(requireCurrentSchema: Bool = true) throws -> DatabasePool {
        let configuration = try configuration()
        let path = configuration.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandLineError.failure("There is no database at \(path) yet. Run `belay migrate` to create it (the path comes from data_directory / database_path in \(configuration.sourceFile ?? "the built-in defaults")).")
        }
        let settings = DatabaseConfiguration(configuration: configuration)
        guard requireCurrentSchema else { return try DatabasePool(path: path, configuration: settings) }
        let migrator = try migrator()
        let pool = try DatabasePool(path: path, configuration: settings)
        let status: MigrationStatus
        do {
            status = try pool.read { try migrator.status(of: $0) }
        } catch let error as DatabaseError where error.migrationRefusal != nil {
            throw CommandLineError.failure(error.description)
        }
        guard status.isCurrent else {
            let names = status.pending.map(\.identifier).joined(separator: ", ")
            throw CommandLineError.failure("The database at \(path) is missing \(Plural.counted(status.pending.count, "migration")) this version of Belay needs (\(names)). Back it up with `belay db backup FILE`, then run `belay migrate`.")
        }
        return pool
    }
}
