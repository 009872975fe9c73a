import Foundation
import BelayArguments
import BelayComposition

/// `belay db backup|check|copy`: safe copies and health checks of the SQLite database, and
/// moving it into PostgreSQL.
struct DatabaseCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "db", abstract: "Back up, check or copy the database.", subcommands: [Backup.self, Check.self, Copy.self])
    }

    /// `belay db backup FILE`.
    struct Backup: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "backup",
                abstract: "Copy the database to FILE, safely while the server runs.",
                discussion: "Uses SQLite's online backup: the copy is one consistent snapshot and FILE is never half-written."
            )
        }

        @Argument("file", help: "Where to write the copy (an existing file is replaced only with --force).") var file: String
        @Flag("force", help: "Replace FILE if it exists.") var force: Bool

        func run(_ context: CommandContext) throws {
            let destination = context.absolutePath(file)
            let file = try context.openDatabaseFile(requireCurrentSchema: false, purpose: "`belay db backup`")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    throw CommandLineError.failure("\(destination) is a directory; give a file name such as \(destination)/belay-backup.sqlite3")
                }
                if !force && !file.isDatabaseFile(destination) {
                    throw CommandLineError.failure("\(destination) already exists; choose another name, or add --force to replace it")
                }
            }
            try file.backup(to: destination)
            let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
            context.print(destination)
            context.note("Backed up \(file.path) to \(destination) (\(size) bytes).")
        }
    }

    /// `belay db check`.
    struct Check: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "check",
                abstract: "Check the database's integrity and foreign keys.",
                discussion: "Exits 0 when the database is sound, 1 with each problem listed when it is not."
            )
        }

        @Flag(.json) var json: Bool

        struct Report: Encodable {
            var database: String
            var healthy: Bool
            var integrityProblems: [String]
            var foreignKeyViolations: [String]
        }

        func run(_ context: CommandContext) throws {
            let file = try context.openDatabaseFile(requireCurrentSchema: false, purpose: "`belay db check`")
            let result = try file.check()
            let report = Report(database: file.path, healthy: result.isHealthy, integrityProblems: result.integrityProblems,
                                foreignKeyViolations: result.foreignKeyViolations.map(\.description))
            if json {
                try context.printJSON(report)
            } else {
                for problem in report.integrityProblems { context.print("integrity: \(problem)") }
                for violation in report.foreignKeyViolations { context.print("foreign key: \(violation)") }
                if result.isHealthy { context.print("ok") }
            }
            guard result.isHealthy else {
                throw CommandLineError.failure("\(file.path) has \(report.integrityProblems.count) integrity problem(s) and \(report.foreignKeyViolations.count) broken reference(s). Stop the server, restore the latest good backup (`belay db backup` makes them), and keep the damaged file for inspection.")
            }
            context.note("\(file.path): integrity and foreign keys ok.")
        }
    }
}
