import Foundation
import BelayArguments
import BelayComposition

/// `belay db backup|check|copy`: safe copies and health checks of the SQLite database, and
/// moving it into PostgreSQL.
struct DatabaseCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "db", abstract: "Back up, check or copy the database.", subcommands: [Backup.self, Backups.self, Restore.self, Check.self, Copy.self])
    }

    /// `belay db backup FILE` or `belay db backup s3://bucket/prefix/`.
    struct Backup: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "backup",
                abstract: "Copy the database to FILE, or into a bucket (s3://bucket/prefix/), safely while the server runs.",
                discussion: """
                Uses SQLite's online backup: the copy is one consistent snapshot and FILE is never half-written.
                Given s3://bucket/prefix/, the snapshot is gzip-compressed and uploaded as belay-<UTC time>.sqlite3.gz
                (in parts when large), with the endpoint and key of images.s3.*.
                """
            )
        }

        @Argument("file", help: "Where to write the copy (an existing file is replaced only with --force), or s3://bucket/prefix/.") var file: String
        @Flag("force", help: "Replace FILE if it exists.") var force: Bool

        func run(_ context: CommandContext) throws {
            if file.hasPrefix("s3://") { return try backUpToBucket(context) }
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

    /// `belay db backups list s3://…/`.
    struct Backups: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "backups", abstract: "List the backups in a bucket.", subcommands: [List.self])
        }

        /// `belay db backups list`.
        struct List: ParsableCommand {
            static var configuration: CommandConfiguration {
                CommandConfiguration(name: "list", abstract: "List the backups under s3://bucket/prefix/, oldest first.")
            }

            @Argument("location", help: "s3://bucket/prefix/ as given to `belay db backup`.") var location: String
            @Flag(.json) var json: Bool

            func run(_ context: CommandContext) throws {
                let backups = try DatabaseCommand.bucket(location, context)
                let list = try DatabaseCommand.bucketCall { try backups.list() }
                if json { return try context.printJSON(list) }
                for backup in list { context.print("\(backup.name)\t\(backup.size)") }
                context.note("\(list.count) backup(s) in \(backups.location).")
            }
        }
    }

    /// `belay db restore s3://…/NAME FILE`.
    struct Restore: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "restore",
                abstract: "Restore a backup from a bucket into FILE, and check it.",
                discussion: """
                Downloads s3://bucket/prefix/NAME, decompresses it into FILE (which must not exist) and runs SQLite's
                integrity and foreign-key checks on it. To put it into service, stop the server and move FILE to
                database_path (or point database_path at it).
                """
            )
        }

        @Argument("backup", help: "s3://bucket/prefix/NAME, a name `belay db backups list` shows.") var backup: String
        @Argument("file", help: "Where to write the restored database.") var file: String

        func run(_ context: CommandContext) throws {
            guard let slash = backup.lastIndex(of: "/"), backup.hasPrefix("s3://") else {
                throw CommandLineError.usage("\(backup) is not s3://bucket/prefix/NAME")
            }
            let name = String(backup[backup.index(after: slash)...])
            guard !name.isEmpty else { throw CommandLineError.usage("\(backup) names no backup; add its NAME (see `belay db backups list`)") }
            let destination = context.absolutePath(file)
            guard !FileManager.default.fileExists(atPath: destination) else {
                throw CommandLineError.failure("\(destination) already exists; restore into a new file")
            }
            let backups = try DatabaseCommand.bucket(String(backup[...slash]), context)
            let size = try DatabaseCommand.bucketCall { try backups.restore(name, to: destination) }
            context.print(destination)
            context.note("Restored \(name) into \(destination) (\(size) bytes); integrity and foreign keys ok.")
        }
    }

    /// The backups at an `s3://` address, with the configured endpoint and key.
    static func bucket(_ text: String, _ context: CommandContext) throws -> DatabaseBackups {
        guard let location = BackupLocation(text) else {
            throw CommandLineError.usage("\(text) is not s3://bucket/prefix/ (a bucket name of 3–63 lowercase letters, digits, dots and hyphens)")
        }
        do {
            return try DatabaseBackups(configuration: try context.configuration(), location: location, environment: context.environment)
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
    }

    /// Runs a call on the bucket, its failure said as a command failure.
    static func bucketCall<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseBackupError {
            throw CommandLineError.failure(error.description)
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

extension DatabaseCommand.Backup {
    /// `belay db backup s3://bucket/prefix/`.
    func backUpToBucket(_ context: CommandContext) throws {
        let backups = try DatabaseCommand.bucket(file, context)
        let database = try context.openDatabaseFile(requireCurrentSchema: false, purpose: "`belay db backup`")
        let scratch = URL(fileURLWithPath: database.path).deletingLastPathComponent().path
        let stored = try DatabaseCommand.bucketCall { try backups.backUp(database, scratchDirectory: scratch) }
        context.print("\(backups.location)\(stored.name)")
        context.note("Backed up \(database.path) to \(backups.location)\(stored.name) (\(stored.size) bytes compressed).")
    }
}
