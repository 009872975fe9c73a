import BelayArguments
import BelayComposition
import BelayCore
import BelayDomain
import Foundation

extension DatabaseCommand {
    /// `belay db copy --to postgres://…`.
    struct Copy: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "copy",
                abstract: "Copy the whole SQLite database into an empty PostgreSQL one, and verify it.",
                discussion: """
                    Applies Belay's PostgreSQL migrations to the target, copies every table from one consistent snapshot \
                    of the SQLite database (safe while the server runs, though changes made meanwhile are not copied: \
                    stop the server first when you switch), and reads each table back to compare its row count and a \
                    SHA-256 of its rows. The copy is one transaction on the target: on any failure no row is kept \
                    (the schema the migrations made stays, and a new copy into it works). A target that already holds Belay rows, or other tables, is refused. Prints each table's rows \
                    and checksum.
                    """
            )
        }

        @Option("to", valueName: "url", help: "The empty PostgreSQL database to copy into, as a libpq URL (postgres://user:password@host:5432/belay?sslmode=require).")
        var target: String
        @Flag(.json) var json: Bool

        struct Report: Encodable {
            var table: String
            var rows: Int
            var checksum: String
        }

        func run(_ context: CommandContext) throws {
            guard target.hasPrefix("postgres://") || target.hasPrefix("postgresql://") else {
                throw CommandLineError.usage("--to must be a PostgreSQL URL starting with postgres:// or postgresql://, e.g. postgres://belay@db.example.org/belay")
            }
            let configuration = try context.configuration()
            let file = try context.openDatabaseFile(purpose: "`belay db copy`")
            let reports = try refusalsAsFailures {
                try file.copy(toPostgreSQL: target, migrationsDirectory: configuration.migrationsDirectory) { report in
                    if !json { context.note("copied \(report.table): \(Plural.counted(report.rows, "row"))") }
                }
            }
            if json {
                try context.printJSON(reports.map { Report(table: $0.table, rows: $0.rows, checksum: $0.checksum) })
            } else {
                var table = Table(columns: ["table", "rows", "sha-256"])
                for report in reports { table.append([report.table, String(report.rows), report.checksum]) }
                context.printTable(table, emptyMessage: "The database has no tables.")
                let total = reports.map(\.rows).reduce(0, +)
                context.note("Copied \(total) rows in \(reports.count) tables to \(PasswordRedaction.redacted(target)); every table read back with the same rows.")
            }
        }

        /// PostgreSQL's complaints and the migrator's refusals, in their own words.
        private func refusalsAsFailures<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch {
                guard let refusal = DatabaseRefusal(error), refusal.kind == .server || refusal.isMigrationRefusal else { throw error }
                throw CommandLineError.failure(refusal.description)
            }
        }
    }
}
