import BelayConfig
import BelayPostgres
import BelaySQLite
import BelayStorage
import Foundation
import Synchronization

/// The engine the domain and API suites run on: SQLite unless `TEST_DATABASE_ENGINE` is
/// `postgresql` (`make test` runs those suites once on each). On PostgreSQL every fixture gets
/// a database of its own on one throwaway cluster the test process starts on first use and
/// stops when it exits.
public enum TestDatabase {
    /// The engines a test run can be on.
    public enum Engine: String, Sendable {
        case sqlite
        case postgresql
    }

    /// The environment variable that chooses the engine.
    public static let engineVariable = "TEST_DATABASE_ENGINE"

    /// The engine of this test run.
    public static let engine: Engine = {
        ProcessInfo.processInfo.environment[engineVariable] == Engine.postgresql.rawValue ? .postgresql : .sqlite
    }()

    /// True when this run is on PostgreSQL.
    public static var isPostgreSQL: Bool { engine == .postgresql }

    /// A migrated, empty store: SQLite at `sqlitePath`, or a new database on the cluster.
    /// - Parameter migrations: the project's `Migrations` folder.
    /// - Throws: when the database cannot be made or migrated.
    public static func migratedStore(sqlitePath: String, migrations: String) throws -> any DatabaseStore {
        switch engine {
        case .sqlite:
            let pool = try SQLitePool(path: sqlitePath)
            try Migrator.sqlite(directory: migrations).migrate(pool)
            return pool
        case .postgresql:
            let url = try newDatabase(migratedWith: migrations)
            return try PostgresStore(settings: storeSettings(url: url))
        }
    }

    /// The `database.url` for a fixture that builds Belay from a configuration: empty on
    /// SQLite (the file under the data directory), or the URL of a new, empty database on the
    /// cluster (Belay migrates it on its first start).
    /// - Throws: when the database cannot be made.
    public static func configuredURL() throws -> String {
        isPostgreSQL ? try newDatabase(migratedWith: nil) : ""
    }

    /// A new database on the shared cluster, migrated when `migrations` is given: copied from a
    /// template migrated once per run, which is much faster than migrating each.
    /// - Throws: when the cluster will not start or the database cannot be created.
    public static func newDatabase(migratedWith migrations: String?) throws -> String {
        let cluster = try SharedCluster.cluster()
        let name = "t\(ProcessInfo.processInfo.processIdentifier)_\(SharedCluster.nextNumber())"
        let admin = try SharedCluster.adminConnection()
        if let migrations {
            try SharedCluster.template(migratedWith: migrations)
            try admin.withLock { _ = try $0.execute("CREATE DATABASE \(name) TEMPLATE belay_template") }
        } else {
            try admin.withLock { _ = try $0.execute("CREATE DATABASE \(name) TEMPLATE template0") }
        }
        return cluster.url(database: name)
    }
}

/// The one PostgreSQL cluster of a test process, started on first use and stopped at exit.
private enum SharedCluster {
    private static let state = Mutex<(cluster: PostgresCluster?, counter: Int, templateReady: Bool)>((nil, 0, false))

    static func cluster() throws -> PostgresCluster {
        try state.withLock { state in
            if let cluster = state.cluster { return cluster }
            let cluster = try PostgresCluster()
            state.cluster = cluster
            atexit { SharedCluster.stop() }
            return cluster
        }
    }

    static func nextNumber() -> Int {
        state.withLock { state in
            state.counter += 1
            return state.counter
        }
    }

    static func adminConnection() throws -> AdminConnection {
        let cluster = try cluster()
        return try AdminConnection.shared(url: cluster.url())
    }

    static func template(migratedWith migrations: String) throws {
        let cluster = try cluster()
        try state.withLock { state in
            guard !state.templateReady else { return }
            let admin = try AdminConnection.shared(url: cluster.url())
            try admin.withLock { _ = try $0.execute("CREATE DATABASE belay_template TEMPLATE template0") }
            let connection = try PostgresConnection(url: cluster.url(database: "belay_template"))
            try Migrator.postgresql(directory: migrations).migrate(connection)
            state.templateReady = true
        }
    }

    static func stop() {
        state.withLock { $0.cluster = nil }
    }
}

/// One connection to the cluster's `postgres` database for creating databases, used by one
/// thread at a time.
private final class AdminConnection: @unchecked Sendable {
    private static let instance = Mutex<AdminConnection?>(nil)
    private let lock = NSLock()
    private let connection: PostgresConnection

    private init(connection: PostgresConnection) { self.connection = connection }

    static func shared(url: String) throws -> AdminConnection {
        try instance.withLock { instance in
            if let instance { return instance }
            let made = AdminConnection(connection: try PostgresConnection(url: url))
            instance = made
            return made
        }
    }

    func withLock<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}

extension TestDatabase {
    /// A store on `url` with the built-in `database` settings, four read connections at most
    /// (tests open many stores at once).
    static func storeSettings(url: String) -> PostgresStore.Settings {
        let database = BuiltInSettings.configuration.database
        return PostgresStore.Settings(url: url, maximumConnections: 4, writerConnections: database.writerConnections,
                                      statementTimeoutMilliseconds: database.statementTimeoutMilliseconds)
    }

    /// Opens, in another process of a test, the store a fixture made: `location` is the
    /// fixture store's `location` (an SQLite path, or a PostgreSQL URL).
    /// - Throws: when it cannot be opened.
    public static func reopen(_ location: String) throws -> any DatabaseStore {
        if location.hasPrefix("postgresql://") || location.hasPrefix("postgres://") {
            return try PostgresStore(settings: storeSettings(url: location))
        }
        return try SQLitePool(path: location, configuration: DatabaseConfiguration(busyTimeoutMilliseconds: 30_000))
    }
}
