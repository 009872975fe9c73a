import Foundation
import Testing
import BelayTestSupport

/// A temporary club installation for one test: a directory holding `config.json` whose data
/// directory is inside it, and a way to run `belay` there.
final class CLIWorkspace: @unchecked Sendable {
    let directory: TemporaryDirectory
    var environment: [String: String] = [:]

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
        let extra = settings.isEmpty ? "" : ",\n  " + settings
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
