import BelayCore
import BelayStorage
import Foundation

/// A club installed for one test, as an admin would have it: a directory holding `config.json`,
/// the data directory inside it, and the real `belay` binary run there, for its commands and
/// for `belay serve`. Its database is SQLite in the data directory, or a database of its own on
/// the test cluster when the run is on PostgreSQL (`TEST_DATABASE_ENGINE`).
public final class ClubWorkspace: @unchecked Sendable {
    public let directory: TemporaryDirectory
    /// Extra environment of every `belay` run here.
    public var environment: [String: String] = [:]
    /// The database URL on PostgreSQL; nil on SQLite (the file under the data directory).
    public let databaseURL: String?

    /// - Parameters:
    ///   - migrations: SQL files to use instead of the repository's `Migrations/`, as
    ///     `[file name: contents]`; nil uses the real ones.
    ///   - assetsDirectory: the artworks, the repository's `Assets/` when nil.
    ///   - settings: top-level `config.json` members, e.g. `["club": ["timezone": "Asia/Seoul"]]`.
    ///   - settingsJSON: more of them as JSON text without the braces, e.g. `"club": {...}`,
    ///     for a test that writes its file as an admin would.
    ///   - engine: the database engine, the run's (`TestDatabase.engine`) when nil; a test of
    ///     SQLite's own behaviour (its file, its write lock) says `.sqlite`.
    /// - Throws: when the directory or the file cannot be written, or `settingsJSON` is not JSON.
    public init(migrations: [String: String]? = nil, assetsDirectory: String? = nil, settings: [String: Any] = [:],
                settingsJSON: String = "", engine: TestDatabase.Engine? = nil) throws {
        directory = try TemporaryDirectory(prefix: "belay-club")
        let root = BelayProcess.packageRoot
        var migrationsDirectory = root.appendingPathComponent("Migrations").path
        if let migrations {
            migrationsDirectory = directory.file("Migrations")
            try FileManager.default.createDirectory(atPath: migrationsDirectory, withIntermediateDirectories: true)
            for (name, sql) in migrations { try sql.write(toFile: migrationsDirectory + "/" + name, atomically: true, encoding: .utf8) }
        }
        var file: [String: Any] = [
            "data_directory": "./data",
            "assets_directory": assetsDirectory ?? root.appendingPathComponent("Assets").path,
            "migrations_directory": migrationsDirectory,
        ]
        databaseURL = (engine ?? TestDatabase.engine) == .postgresql ? try TestDatabase.configuredURL() : nil
        if let databaseURL { file["database"] = ["url": databaseURL] }
        file.merge(settings) { $1 }
        if !settingsJSON.isEmpty {
            guard let written = try JSONSerialization.jsonObject(with: Data("{\(settingsJSON)}".utf8)) as? [String: Any] else {
                throw Failure("settings are not JSON members: \(settingsJSON)")
            }
            file.merge(written) { $1 }
        }
        try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: directory.file("config.json")))
    }

    /// A club set up for `belay serve` on a free loopback port (2 threads), with Instagram's
    /// app id so the share payloads are complete.
    /// - Parameters:
    ///   - server: `server` settings over those.
    ///   - webhooks: the `webhooks` settings, when the test needs them.
    /// - Throws: as `init`.
    public static func served(share: [String: String] = ["instagram_app_id": "1234567890", "facebook_app_id": ""],
                              server: [String: Any] = [:], webhooks: [String: Int]? = nil,
                              settings: [String: Any] = [:]) throws -> ClubWorkspace {
        var file: [String: Any] = [
            "server": (["host": "127.0.0.1", "port": 8080, "threads": 2, "public_base_url": "http://127.0.0.1:8080"] as [String: Any])
                .merging(server) { $1 },
            "share": share,
        ]
        if let webhooks { file["webhooks"] = webhooks }
        return try ClubWorkspace(settings: file.merging(settings) { $1 })
    }

    public var path: String { directory.path }
    public var configPath: String { directory.file("config.json") }
    public var databasePath: String { directory.file("data/belay.sqlite3") }
    /// The database the binary uses: its SQLite file, or its PostgreSQL URL.
    public var databaseLocation: String { databaseURL ?? databasePath }

    /// The club's database, opened as a test reads it (once `belay` has made it).
    /// - Throws: when it cannot be opened.
    public func store() throws -> any DatabaseStore {
        try TestDatabase.reopen(databaseLocation)
    }

    /// Runs `belay` with `arguments` here.
    /// - Throws: when the binary cannot be started.
    @discardableResult
    public func run(_ arguments: String..., input: String? = nil) throws -> BelayProcessResult {
        try run(arguments, input: input)
    }

    /// Runs `belay` with `arguments` here.
    /// - Throws: when the binary cannot be started.
    @discardableResult
    public func run(_ arguments: [String], input: String? = nil) throws -> BelayProcessResult {
        try BelayProcess.run(arguments, environment: environment, in: path, input: input)
    }

    /// Runs `belay` and returns its standard output.
    /// - Throws: `Failure` with everything it printed unless it exits 0.
    @discardableResult
    public func succeed(_ arguments: String...) throws -> String {
        try succeeded(arguments).standardOutput
    }

    /// Runs `belay … --json` and parses standard output.
    /// - Throws: `Failure` unless it exits 0; when the output is not JSON.
    public func json(_ arguments: String...) throws -> Any {
        let result = try succeeded(arguments + ["--json"])
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8), options: [.fragmentsAllowed])
    }

    /// Runs `belay <arguments> --config <file> --json` and returns its standard output as JSON.
    /// - Throws: `Failure` unless it exits 0; when the output is not JSON.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> JSONValue {
        let result = try succeeded(arguments + ["--config", configPath, "--json"])
        return try JSONValue.parse(Array(result.standardOutput.utf8))
    }

    /// A user created with the CLI, and their token.
    /// - Throws: as `cli`; `Failure` when the output lacks the id or the token.
    public func user(_ handle: String, role: String = "member") throws -> (id: Int64, token: String) {
        let created = try cli(["users", "create", handle, "--name", handle.capitalized, "--role", role, "--token"])
        guard let id = created["user"]?["id"]?.intValue, let token = created["token"]?["secret"]?.stringValue else {
            throw Failure("belay users create \(handle) printed no id or token: \(created)")
        }
        return (id, token)
    }

    /// `belay serve` here, once it listens.
    /// - Throws: `BelayServerProcess.ServerDidNotStart`.
    public func serve(environment extra: [String: String] = [:]) throws -> BelayServerProcess {
        try BelayServerProcess(arguments: ["--config", configPath], environment: environment.merging(extra) { $1 }, in: path)
    }

    private func succeeded(_ arguments: [String]) throws -> BelayProcessResult {
        let result = try run(arguments)
        guard result.status == 0 else { throw Failure("belay \(arguments.joined(separator: " ")) failed:\n\(result)") }
        return result
    }

    /// A `belay` command here that did not do what the test needed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
