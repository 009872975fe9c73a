@testable import BelaySQLite
@testable import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct MigratorTests {
    let directory: TemporaryDirectory
    let migrations: String
    let databasePath: String

    init() throws {
        directory = try TemporaryDirectory()
        migrations = directory.file("Migrations")
        try FileManager.default.createDirectory(atPath: migrations, withIntermediateDirectories: true)
        databasePath = directory.file("belay.sqlite")
    }

    func write(_ name: String, _ sql: String) throws {
        try sql.write(toFile: (migrations as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    func refusal(_ body: () throws -> Void) -> MigrationRefusal? {
        do {
            try body()
            return nil
        } catch let error as DatabaseError {
            return error.migrationRefusal
        } catch {
            return nil
        }
    }

    @Test func freshDatabaseGetsEveryMigrationInOrder() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        try write("0002_names.sql", "ALTER TABLE users ADD COLUMN name TEXT;\nINSERT INTO users (name) VALUES ('first');")
        try write(".DS_Store", "ignored")
        let migrator = try Migrator.sqlite(directory: migrations)
        let database = try SQLiteDatabase(path: databasePath)
        #expect(try migrator.pendingMigrations(in: database).map(\.identifier) == ["0001_initial", "0002_names"])
        #expect(try migrator.status(of: database).isCurrent == false)

        let applied = try migrator.migrate(database)
        #expect(applied.map(\.identifier) == ["0001_initial", "0002_names"])
        #expect(try database.scalar("SELECT name FROM users", as: String.self) == "first")
        let status = try migrator.status(of: database)
        #expect(status.isCurrent)
        #expect(status.applied == ["0001_initial", "0002_names"])
        let recorded: [String] = try database.query("SELECT checksum FROM schema_migrations ORDER BY version") { try $0.get(0) }
        #expect(recorded == migrator.migrations.map(\.checksum))
        #expect(recorded[0].count == 64)
        #expect(try migrator.migrate(database).isEmpty, "a second run applies nothing")
    }

    @Test func dryRunChangesNothing() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        let migrator = try Migrator.sqlite(directory: migrations)
        let database = try SQLiteDatabase(path: databasePath)
        _ = try migrator.pendingMigrations(in: database)
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master", as: Int64.self) == 0)
    }

    @Test func incrementalRunAppliesOnlyNewMigrations() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        let database = try SQLiteDatabase(path: databasePath)
        try Migrator.sqlite(directory: migrations).migrate(database)
        try database.execute("INSERT INTO users (id) VALUES (7)")

        try write("0002_email.sql", "ALTER TABLE users ADD COLUMN email TEXT;")
        let migrator = try Migrator.sqlite(directory: migrations)
        #expect(try migrator.pendingMigrations(in: database).map(\.identifier) == ["0002_email"])
        #expect(try migrator.migrate(database).map(\.identifier) == ["0002_email"])
        #expect(try database.scalar("SELECT count(*) FROM users WHERE id = 7 AND email IS NULL", as: Int64.self) == 1)
    }

    @Test func failingMigrationLeavesNothingAndKeepsEarlierOnes() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        try write("0002_broken.sql", "CREATE TABLE half (id INTEGER);\nINSERT INTO nowhere VALUES (1);")
        let database = try SQLiteDatabase(path: databasePath)
        let error = try #require(throws: DatabaseError.self) { try Migrator.sqlite(directory: migrations).migrate(database) }
        #expect(error.description.contains("no such table: nowhere"))
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half'", as: Int64.self) == 0)
        #expect(try Migrator.sqlite(directory: migrations).status(of: database).applied == ["0001_initial"])
    }

    @Test func editedAppliedMigrationIsRefused() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        let database = try SQLiteDatabase(path: databasePath)
        try Migrator.sqlite(directory: migrations).migrate(database)
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);")
        let migrator = try Migrator.sqlite(directory: migrations)
        #expect(refusal { try migrator.migrate(database) } == .checksumChanged)
        #expect(refusal { _ = try migrator.status(of: database) } == .checksumChanged)
    }

    @Test func newerDatabaseIsRefused() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        try write("0002_future.sql", "CREATE TABLE future (id INTEGER);")
        let database = try SQLiteDatabase(path: databasePath)
        try Migrator.sqlite(directory: migrations).migrate(database)
        try FileManager.default.removeItem(atPath: (migrations as NSString).appendingPathComponent("0002_future.sql"))
        let older = try Migrator.sqlite(directory: migrations)
        let error = try #require(throws: DatabaseError.self) { try older.migrate(database) }
        #expect(error.migrationRefusal == .unknownMigrationApplied)
        #expect(error.description.contains("0002_future"))
        #expect(error.description.contains("newer version"))
    }

    @Test func gapInNumberingIsRefused() throws {
        try write("0001_initial.sql", "SELECT 1;")
        try write("0003_skipped.sql", "SELECT 1;")
        #expect(refusal { _ = try Migrator.sqlite(directory: migrations) } == .gapInNumbering)
    }

    @Test func numberingMustStartAtOne() throws {
        try write("0002_second.sql", "SELECT 1;")
        #expect(refusal { _ = try Migrator.sqlite(directory: migrations) } == .gapInNumbering)
    }

    @Test func duplicateNumberIsRefused() throws {
        try write("0001_initial.sql", "SELECT 1;")
        try write("0001_other.sql", "SELECT 1;")
        #expect(refusal { _ = try Migrator.sqlite(directory: migrations) } == .duplicateNumber)
    }

    @Test(arguments: ["1_initial.sql", "0001-initial.sql", "0001_Initial.sql", "0001_initial.txt", "notes.md"])
    func badlyNamedFileIsRefused(name: String) throws {
        try write(name, "SELECT 1;")
        let error = try #require(throws: DatabaseError.self) { _ = try Migrator.sqlite(directory: migrations) }
        #expect(error.migrationRefusal == .badFileName)
        #expect(error.description.contains(name))
    }

    @Test func missingDirectoryIsRefused() throws {
        #expect(refusal { _ = try Migrator.sqlite(directory: directory.file("nope")) } == .directoryUnreadable)
    }

    @Test func migratesThroughAPool() throws {
        try write("0001_initial.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY);")
        let pool = try SQLitePool(path: databasePath)
        let migrator = try Migrator.sqlite(directory: migrations)
        #expect(try migrator.migrate(pool).count == 1)
        #expect(try pool.readSQLite { try migrator.status(of: $0).isCurrent })
    }
}
