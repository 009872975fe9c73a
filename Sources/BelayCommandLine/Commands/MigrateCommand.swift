import Foundation
import BelayComposition
import BelayArguments
import BelayDomain

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
        let path = ClubDatabase.location(of: configuration)
        try context.checkMigrations()
        let exists = !ClubDatabase.isMissing(configuration)

        if !dryRun, let directory = ClubDatabase.fileDirectory(of: configuration) {
            do {
                try createPrivateDirectory(directory)
            } catch {
                throw CommandLineError.failure("Cannot create the data directory \(directory): \(CommandLineError.reason(error)). Create it, or point data_directory somewhere writable.")
            }
        }
        let run = try refusalsAsFailures { try ClubDatabase.runMigrations(configuration, dryRun: dryRun) }
        let report = Report(database: path, dryRun: dryRun, applied: run.applied, pending: run.pending, alreadyApplied: run.alreadyApplied)

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
        do {
            return try body()
        } catch {
            // The migrator's refusals and the statements a server refused, in the database's words.
            guard let refusal = DatabaseRefusal(error), refusal.kind != .server else { throw error }
            throw CommandLineError.failure(refusal.description)
        }
    }
}
