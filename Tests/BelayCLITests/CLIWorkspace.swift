import Foundation
import Testing
import BelayStorage
import BelayTestSupport

/// A temporary club installation for one test: a directory holding `config.json` whose data
/// directory is inside it, and a way to run `belay` there. Its database is SQLite in the data
/// directory, or a new database of its own on the test cluster when the run is on PostgreSQL
/// (`TEST_DATABASE_ENGINE`).
final class CLIWorkspace: @unchecked Sendable {
    let directory: TemporaryDirectory
    var environment: [String: String] = [:]
    /// The database URL on PostgreSQL; nil on SQLite (the file under the data directory).
    let databaseURL: String?

    /// - Parameters:
    ///   - migrations: SQL files to use instead of the repository's `Migrations/`, as
    ///     `[file name: contents]`; nil uses the real ones.
    ///   - settings: extra top-level JSON members for `config.json`, e.g. `"club": {...}`.
    init(migrations: [String: String]? = nil, settings: String = "") throws {
        directory = try TemporaryDirectory(prefix: "belay-cli")
        let migrationsDirectory: String
        if let migrations {
            migrationsDirectory = directory.file("Migrations")
            try FileManager.default.createDirectory(atPath: migrationsDirectory, withIntermediateDirectories: true)
            for (name, sql) in migrations { try sql.write(toFile: migrationsDirectory + "/" + name, atomically: true, encoding: .utf8) }
        } else {
            migrationsDirectory = BelayProcess.packageRoot.appendingPathComponent("Migrations").path
        }
        let assets = BelayProcess.packageRoot.appendingPathComponent("Assets").path
        var extra = settings.isEmpty ? "" : ",\n  " + settings
        databaseURL = TestDatabase.isPostgreSQL ? try TestDatabase.configuredURL() : nil
        if let databaseURL { extra += ",\n  \"database\": {\"url\": \"\(databaseURL)\"}" }
        try """
        {
          "data_directory": "./data",
          "assets_directory": "\(assets)",
          "migrations_directory": "\(migrationsDirectory)"\(extra)
        }
        """.write(toFile: directory.file("config.json"), atomically: true, encoding: .utf8)
    }

    var path: String { directory.path }
    var databasePath: String { directory.file("data/belay.sqlite3") }

    /// The club's database, opened as a test reads it (once `belay` has made it).
    /// - Throws: when it cannot be opened.
    func store() throws -> any DatabaseStore {
        try TestDatabase.reopen(databaseURL ?? databasePath)
    }

    /// Runs `belay` with `arguments` in the workspace.
    @discardableResult
    func run(_ arguments: String..., input: String? = nil) throws -> BelayProcessResult {
        try run(arguments, input: input)
    }

    /// Runs `belay` with `arguments` in the workspace.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil) throws -> BelayProcessResult {
        try BelayProcess.run(arguments, environment: environment, in: path, input: input)
    }

    /// Runs `belay` and records an issue unless it exits 0; returns standard output.
    @discardableResult
    func succeed(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try BelayProcess.run(arguments, environment: environment, in: path)
        #expect(result.status == 0, "belay \(arguments.joined(separator: " ")) failed:\n\(result)", sourceLocation: sourceLocation)
        return result.standardOutput
    }

    /// Runs `belay … --json` and parses standard output.
    func json(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        let result = try BelayProcess.run(arguments + ["--json"], environment: environment, in: path)
        #expect(result.status == 0, "belay \(arguments.joined(separator: " ")) --json failed:\n\(result)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8), options: [.fragmentsAllowed])
    }
}

/// Two small migrations for tests of `migrate` that must not depend on the real schema.
let sampleMigrations = [
    "0001_first.sql": "CREATE TABLE sample (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
    "0002_second.sql": "CREATE TABLE child (id INTEGER PRIMARY KEY, sample_id INTEGER NOT NULL REFERENCES sample(id));",
]
