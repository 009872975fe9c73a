import Foundation
import Testing
import BelayTestSupport

/// `belay migrate`, `belay db backup` and `belay db check` against small sample migrations.
@Suite struct DatabaseCommandTests {
    @Test(.enabled(if: TestDatabase.isPostgreSQL, "the refusal of a club on PostgreSQL"))
    func fileCommandsOnPostgreSQLPointToTheServersOwnTools() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        for command in [["db", "check"], ["db", "backup", "copy.sqlite3"]] {
            let result = try workspace.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.standardOutput == "")
            #expect(result.standardError.contains("works on the SQLite file; this Belay's data is on PostgreSQL"), "\(result)")
            #expect(result.standardError.contains("pg_dump"))
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("copy.sqlite3")))
    }

    @Test(.enabled(if: TestDatabase.isPostgreSQL, "a club on PostgreSQL"))
    func anEmptyPostgreSQLDatabaseIsToBeMigratedNotBackedUp() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run("users", "list")
        #expect(result.status == 1)
        #expect(result.standardError.contains("has no Belay tables yet. Run `belay migrate` to create them"), "\(result)")
        #expect(!result.standardError.contains("pg_dump"), "nothing to back up yet")
    }

    @Test func dryRunListsWithoutCreatingTheDatabase() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        let result = try workspace.run("migrate", "--dry-run")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "0001_first\n0002_second\n")
        #expect(result.standardError.contains("Would apply 2 migrations"))
        if !TestDatabase.isPostgreSQL { #expect(!FileManager.default.fileExists(atPath: workspace.databasePath)) }
    }

    @Test func oneMigrationIsCountedInTheSingular() throws {
        let workspace = try ClubWorkspace(migrations: ["0001_first.sql": sampleMigrations["0001_first.sql"]!])
        #expect(try workspace.run("migrate").standardError.contains("Applied 1 migration to "))
        #expect(try workspace.run("migrate").standardError.contains("up to date (1 migration applied)"))
    }

    @Test func migrateCreatesTheDatabaseAndIsIdempotent() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        let first = try workspace.run("migrate")
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput == "0001_first\n0002_second\n")
        #expect(first.standardError.contains("Applied 2 migrations"))
        if !TestDatabase.isPostgreSQL { #expect(FileManager.default.fileExists(atPath: workspace.databasePath)) }

        let again = try workspace.run("migrate")
        #expect(again.status == 0)
        #expect(again.standardOutput == "")
        #expect(again.standardError.contains("up to date (2 migrations applied)"))

        let report = try #require(try workspace.json("migrate", "--dry-run") as? [String: Any])
        #expect(report["pending"] as? [String] == [])
        #expect(report["already_applied"] as? Int == 2)
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func commandsRefuseAMissingDatabase() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        let result = try workspace.run("db", "check")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Error: There is no database at "))
        #expect(result.standardError.contains("Run `belay migrate` to create it"))
        #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func commandsRefusePendingMigrations() throws {
        let workspace = try ClubWorkspace(migrations: ["0001_first.sql": sampleMigrations["0001_first.sql"]!])
        try workspace.succeed("migrate")
        try sampleMigrations["0002_second.sql"]!.write(toFile: workspace.directory.file("Migrations/0002_second.sql"), atomically: true, encoding: .utf8)
        let stale = try workspace.run("holds", "list")
        #expect(stale.status == 1)
        #expect(stale.standardError.contains("is missing 1 migration this version of Belay needs (0002_second)"))
        #expect(stale.standardError.contains("Back it up with `belay db backup FILE`, then run `belay migrate`"))
        // The advice works: maintenance runs on the old schema, then migrate brings it up to date.
        try workspace.succeed("db", "check")
        try workspace.succeed("db", "backup", "before-0002.sqlite3")
        try workspace.succeed("migrate")
        try workspace.succeed("db", "check")
    }

    @Test func newerSchemaIsRefused() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        try FileManager.default.removeItem(atPath: workspace.directory.file("Migrations/0002_second.sql"))
        for command in [["migrate"], ["holds", "list"]] {
            let result = try BelayProcess.run(command, in: workspace.path)
            #expect(result.status == 1)
            #expect(result.standardError.contains("0002_second, which this version of Belay does not know"), "\(command)")
        }
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func checkReportsAHealthyDatabase() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        let result = try workspace.run("db", "check")
        #expect(result.status == 0)
        #expect(result.standardOutput == "ok\n")
        let report = try #require(try workspace.json("db", "check") as? [String: Any])
        #expect(report["healthy"] as? Bool == true)
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func backupWritesAUsableCopyAndRefusesToOverwrite() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        let result = try workspace.run("db", "backup", "copy.sqlite3")
        #expect(result.status == 0, "\(result)")
        let copy = URL(fileURLWithPath: workspace.path).standardizedFileURL.path + "/copy.sqlite3"
        #expect(result.standardOutput == copy + "\n")
        #expect(result.standardError.contains("Backed up"))

        // The copy is a database with the same migrations applied.
        let checkCopy = try BelayProcess.run(["migrate", "--dry-run", "--json"],
                                             environment: ["BELAY_DATABASE_PATH": copy], in: workspace.path)
        #expect(checkCopy.status == 0, "\(checkCopy)")
        #expect(checkCopy.standardOutput.contains("\"already_applied\" : 2"))

        let again = try workspace.run("db", "backup", "copy.sqlite3")
        #expect(again.status == 1)
        #expect(again.standardError.contains("already exists; choose another name, or add --force"))
        try workspace.succeed("db", "backup", "copy.sqlite3", "--force")
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func backupRefusesToReplaceTheLiveDatabaseEvenWithForce() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath))
        try FileManager.default.createSymbolicLink(atPath: workspace.directory.file("alias.sqlite3"),
                                                   withDestinationPath: workspace.databasePath)
        try FileManager.default.linkItem(atPath: workspace.databasePath, toPath: workspace.directory.file("hardlink.sqlite3"))
        for (name, force) in [("data/belay.sqlite3", true), ("data/belay.sqlite3", false), ("data/../data/belay.sqlite3", true),
                              ("alias.sqlite3", true), ("hardlink.sqlite3", true)] {
            let result = force ? try workspace.run("db", "backup", name, "--force") : try workspace.run("db", "backup", name)
            #expect(result.status == 1, "\(name): \(result)")
            #expect(result.standardOutput == "", "\(name)")
            #expect(result.standardError.hasPrefix("Error: Refusing to back up "), "\(name): \(result.standardError)")
            #expect(result.standardError.contains("the database itself (the same file on disk)"), "\(name)")
            #expect(result.standardError.contains("Choose a destination outside the database's files"), "\(name)")
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath))
        #expect(after == before, "the live database is untouched")
        #expect(try workspace.succeed("db", "check") == "ok\n")
        let report = try #require(try workspace.json("migrate", "--dry-run") as? [String: Any])
        #expect(report["already_applied"] as? Int == 2)
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "`belay db` works on the SQLite file"))
    func backupRemovesStaleWriteAheadFilesBesideTheDestination() throws {
        let workspace = try ClubWorkspace(migrations: sampleMigrations)
        try workspace.succeed("migrate")
        let copy = workspace.directory.file("copy.sqlite3")
        // Left by a database that lived at the destination before: SQLite would replay them onto the copy.
        for suffix in ["-wal", "-shm", "-journal"] {
            try Data("stale \(suffix) of an older database".utf8).write(to: URL(fileURLWithPath: copy + suffix))
        }
        let result = try workspace.run("db", "backup", "copy.sqlite3")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.contains("Backed up"))
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: copy + suffix), "\(suffix) is removed")
        }
        let checkCopy = try BelayProcess.run(["db", "check"], environment: ["BELAY_DATABASE_PATH": copy], in: workspace.path)
        #expect(checkCopy.status == 0, "\(checkCopy)")
        #expect(checkCopy.standardOutput == "ok\n")
    }
}
