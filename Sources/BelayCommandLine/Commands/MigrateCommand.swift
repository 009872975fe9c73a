import Foundation
import BelayComposition
import BelayArguments
import BelayCore
import BelayDomain
import BelayStorage

/// `belay migrate [--dry-run]`: brings the database's schema up to this version of Belay.
struct MigrateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "migrate",
            abstract: "Create the database or apply the migrations it is missing.",
            discussion: """
            Applies Migrations/sqlite/NNNN_name.sql files in order (Migrations/postgresql/ when database.url
            names a PostgreSQL server), each in its own transaction. Creates the SQLite database (and its
            directory) when there is none; a PostgreSQL database must exist, empty or migrated. Safe to run
            again, from several nodes at once: it applies only what is missing. Back up a live database
            first (`belay db backup FILE`, or pg_dump).
            """
        )
    }

    @Flag("dry-run", help: "List the migrations that would be applied, and apply nothing.") var dryRun: Bool
    @Flag(.json) var json: Bool

    struct Report: Encodable {
        var database: String
        var dryRun: Bool
        var applied: [String]
        var pending: [String]
        var alreadyApplied: Int
    }

    func run(_ context: CommandContext) throws {
        let configuration = try context.configuration()
        let onServer = configuration.database.isPostgreSQL
        let path = onServer ? PasswordRedaction.redacted(configuration.database.url) : configuration.databasePath
        let migrator = try context.migrator()
        let exists = onServer || FileManager.default.fileExists(atPath: path)

        var report = Report(database: path, dryRun: dryRun, applied: [], pending: [], alreadyApplied: 0)
        if onServer {
            let database = try refusalsAsFailures { try ClubDatabase(configuration: configuration) }
            let status = try refusalsAsFailures { try database.migrationStatus() }
            if dryRun {
                report.pending = status.pending.map(\.identifier)
            } else {
                report.applied = try refusalsAsFailures { try database.migrate() }.map(\.identifier)
            }
            report.alreadyApplied = status.applied.count
        } else if dryRun {
            if exists {
                let database = try SQLiteDatabase(path: path, readOnly: true)
                let status = try refusalsAsFailures { try migrator.status(of: database) }
                try database.close()
                report.pending = status.pending.map(\.identifier)
                report.alreadyApplied = status.applied.count
            } else {
                report.pending = migrator.migrations.map(\.identifier)
            }
        } else {
            let directory = (path as NSString).deletingLastPathComponent
            do {
                try createPrivateDirectory(directory)
            } catch {
                throw CommandLineError.failure("Cannot create the data directory \(directory): \(CommandLineError.reason(error)). Create it, or point data_directory somewhere writable.")
            }
            let pool = try SQLitePool(path: path, configuration: DatabaseConfiguration(configuration: configuration))
            let applied = try refusalsAsFailures { try migrator.migrate(pool) }
            let status = try pool.readSQLite { try migrator.status(of: $0) }
            report.applied = applied.map(\.identifier)
            report.alreadyApplied = status.applied.count - applied.count
        }

        if json { return try context.printJSON(report) }
        let listed = dryRun ? report.pending : report.applied
        for identifier in listed { context.print(identifier) }
        if dryRun {
            context.note(listed.isEmpty
                ? "\(path) is up to date (\(Plural.counted(report.alreadyApplied, "migration")) applied); nothing to do."
                : "Would apply \(Plural.counted(listed.count, "migration")) to \(path)\(exists ? "" : " (a new database)"). Run `belay migrate` to apply.")
        } else {
            context.note(listed.isEmpty
                ? "\(path) is up to date (\(Plural.counted(report.alreadyApplied, "migration")) applied); nothing to do."
                : "Applied \(Plural.counted(listed.count, "migration")) to \(path).")
        }
    }

    private func refusalsAsFailures<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError where error.migrationRefusal != nil || error.sqlState != nil {
            throw CommandLineError.failure(error.description)
        }
    }
}
