import BelayConfig
import BelayPostgres
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
        case postgresql(PostgresMigrator, PostgresStore)
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
            opened = .postgresql(try PostgresMigrator(directory: configuration.migrationsDirectory), store)
        } else {
            let pool = try SQLitePool(path: configuration.databasePath, configuration: DatabaseConfiguration(configuration: configuration))
            opened = .sqlite(try Migrator(directory: configuration.migrationsDirectory), pool)
        }
    }

    /// True when the configured database is a file that does not exist yet (a first start).
    public static func isMissing(_ configuration: BelayConfiguration) -> Bool {
        !configuration.database.isPostgreSQL && !FileManager.default.fileExists(atPath: configuration.databasePath)
    }

    /// What is applied and what is pending.
    /// - Throws: `DatabaseError` (a refusal when the database holds an edited or unknown migration).
    public func migrationStatus() throws -> MigrationStatus {
        switch opened {
        case let .sqlite(migrator, pool):
            return try pool.readSQLite { try migrator.status(of: $0) }
        case let .postgresql(migrator, store):
            return try Self.translating { try store.withConnection { try migrator.status($0.connection) } }
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

    /// The SQLite pool, when the data is in a file (for SQLite's own maintenance).
    public var sqlitePool: SQLitePool? {
        if case let .sqlite(_, pool) = opened { return pool }
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
