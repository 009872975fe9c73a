import BelayConfig
import BelayCore
import BelayPostgres
import BelaySQLite
import BelayStorage
import Foundation

/// The configured database, opened: the store the domain runs on, whichever engine
/// `database.url` names, with its own migrations. The one place that chooses the engine, for
/// `belay serve`, `belay worker` and every command.
public struct ClubDatabase: Sendable {
    /// The store the domain runs on.
    public var store: any DatabaseStore {
        switch opened {
        case let .sqlite(_, pool): pool
        case let .postgresql(_, store): store
        }
    }
    /// Where the data is (the SQLite file, or the server's URL without its password).
    public var location: String { store.location }
    private let opened: OpenedEngine

    /// The engine opened, with its migrator.
    private enum OpenedEngine: Sendable {
        case sqlite(Migrator, SQLitePool)
        case postgresql(Migrator, PostgresStore)
    }

    /// Opens the database `configuration` names. An SQLite file is created when missing;
    /// a PostgreSQL database must exist (its tables are created by `migrate()`).
    /// - Throws: `DatabaseError` when the file cannot be opened or the server cannot be
    ///   reached; `DatabaseError` with a `migrationRefusal` when the migrations folder is unusable.
    public init(configuration: BelayConfiguration) throws {
        if configuration.database.isPostgreSQL {
            let store = try PostgresStore(settings: PostgresStore.Settings(
                url: configuration.database.url, maximumConnections: configuration.database.maxConnections,
                writerConnections: configuration.database.writerConnections,
                statementTimeoutMilliseconds: configuration.database.statementTimeoutMilliseconds))
            opened = .postgresql(try Migrator.postgresql(directory: configuration.migrationsDirectory), store)
        } else {
            let pool = try SQLitePool(path: configuration.databasePath, configuration: DatabaseConfiguration(configuration: configuration))
            opened = .sqlite(try Migrator.sqlite(directory: configuration.migrationsDirectory), pool)
        }
    }

    /// True when the configured database is a file that does not exist yet (a first start).
    public static func isMissing(_ configuration: BelayConfiguration) -> Bool {
        isSQLiteFile(configuration) && !FileManager.default.fileExists(atPath: configuration.databasePath)
    }

    /// True when the configured data is an SQLite file on this machine; false when
    /// `database.url` names a PostgreSQL server.
    public static func isSQLiteFile(_ configuration: BelayConfiguration) -> Bool {
        !configuration.database.isPostgreSQL
    }

    /// Where the configured data is, without opening it: the SQLite file, or the server's URL
    /// without its password.
    public static func location(of configuration: BelayConfiguration) -> String {
        isSQLiteFile(configuration) ? configuration.databasePath : PasswordRedaction.redacted(configuration.database.url)
    }

    /// The directory the SQLite file goes in, to create before the file; nil when the data is
    /// on a PostgreSQL server.
    public static func fileDirectory(of configuration: BelayConfiguration) -> String? {
        isSQLiteFile(configuration) ? (configuration.databasePath as NSString).deletingLastPathComponent : nil
    }

    /// Reads the migrations shipped for the configured engine from `migrations_directory`.
    /// - Throws: `DatabaseError` with a `migrationRefusal` when the folder is missing or its
    ///   files break the naming rules.
    public static func checkMigrations(_ configuration: BelayConfiguration) throws {
        if isSQLiteFile(configuration) {
            _ = try Migrator.sqlite(directory: configuration.migrationsDirectory)
        } else {
            _ = try Migrator.postgresql(directory: configuration.migrationsDirectory)
        }
    }

    /// Brings the configured database up to the shipped migrations, as `belay migrate` does, or
    /// with `dryRun` only reads what would be applied. A missing SQLite file is created (its
    /// directory must exist) except on a dry run, which opens an existing file read-only; a
    /// PostgreSQL database must exist.
    /// - Throws: `DatabaseError` when the database cannot be opened, a migration fails (it
    ///   leaves nothing), or the migrator refuses the folder or the database.
    public static func runMigrations(_ configuration: BelayConfiguration, dryRun: Bool) throws -> MigrationRun {
        if !isSQLiteFile(configuration) {
            let database = try ClubDatabase(configuration: configuration)
            let status = try database.migrationStatus()
            let applied = dryRun ? [] : try database.migrate()
            return MigrationRun(applied: applied.map(\.identifier), pending: dryRun ? status.pending.map(\.identifier) : [],
                                alreadyApplied: status.applied.count)
        }
        let migrator = try Migrator.sqlite(directory: configuration.migrationsDirectory)
        if dryRun {
            guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
                return MigrationRun(applied: [], pending: migrator.migrations.map(\.identifier), alreadyApplied: 0)
            }
            let database = try SQLiteDatabase(path: configuration.databasePath, readOnly: true)
            let status = try migrator.status(of: database)
            try database.close()
            return MigrationRun(applied: [], pending: status.pending.map(\.identifier), alreadyApplied: status.applied.count)
        }
        let database = try ClubDatabase(configuration: configuration)
        let applied = try database.migrate()
        let status = try database.migrationStatus()
        return MigrationRun(applied: applied.map(\.identifier), pending: [], alreadyApplied: status.applied.count - applied.count)
    }

    /// Creates and migrates the configured database when it is new, on a first start: a
    /// missing SQLite file, or a PostgreSQL database with no migration recorded. A new SQLite
    /// file whose migrations fail is removed again.
    /// - Returns: the database and the migrations applied, or nil when it already existed.
    /// - Throws: `DatabaseError` when it cannot be opened or migrated.
    public static func createIfNew(_ configuration: BelayConfiguration) throws -> (database: ClubDatabase, applied: [Migration])? {
        if !isSQLiteFile(configuration) {
            let database = try ClubDatabase(configuration: configuration)
            guard try database.migrationStatus().applied.isEmpty else { return nil }
            return (database, try database.migrate())
        }
        let path = configuration.databasePath
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let database = try ClubDatabase(configuration: configuration)
            return (database, try database.migrate())
        } catch let error as DatabaseError {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// What is applied and what is pending.
    /// - Throws: `DatabaseError` (a refusal when the database holds an edited or unknown migration).
    public func migrationStatus() throws -> MigrationStatus {
        switch opened {
        case let .sqlite(migrator, pool):
            return try pool.readSQLite { try migrator.status(of: $0) }
        case let .postgresql(migrator, store):
            return try Self.translating { try store.withConnection { try migrator.status(of: $0.connection) } }
        }
    }

    /// Applies every pending migration.
    /// - Returns: the migrations applied now.
    /// - Throws: `DatabaseError` when one fails (it leaves nothing) or the database is refused.
    @discardableResult
    public func migrate() throws -> [Migration] {
        switch opened {
        case let .sqlite(migrator, pool):
            return try migrator.migrate(pool)
        case let .postgresql(migrator, store):
            return try Self.translating { try store.withConnection { try migrator.migrate($0.connection) } }
        }
    }

    /// Calls `handlers[channel]` whenever a committed write announces work on `channel`
    /// (`Database.notifyAtCommit`): this process's writes through the store, right after their
    /// commit, and on PostgreSQL every other node's through a listener, returned (start it to
    /// listen); nil on SQLite, where one machine does all the writing. Called once, where the
    /// workers are made.
    public func wakeWorkers(_ handlers: [String: @Sendable () -> Void]) -> PostgresWakeListener? {
        for (channel, wake) in handlers { store.wakeAfterCommit(on: channel, wake) }
        if case let .postgresql(_, store) = opened { return store.makeWakeListener(handlers: handlers) }
        return nil
    }

    /// The SQLite file, when the data is in one (for SQLite's own maintenance).
    public var file: ClubDatabaseFile? {
        if case let .sqlite(_, pool) = opened { return ClubDatabaseFile(pool: pool) }
        return nil
    }

    private static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            if case let .statementFailed(state) = error.kind, !state.isEmpty {
                throw DatabaseError.server(sqlState: state, message: error.message, sql: nil)
            }
            throw DatabaseError.unavailable(error.message)
        }
    }
}
