import Dispatch
import Foundation
import Synchronization

/// A database shared by many threads: one writer connection whose transactions run one at
/// a time, and a small pool of reader connections that run concurrently (WAL lets readers
/// see the last committed state while the writer works).
///
/// Connections are opened once and reused; a `read` or `write` call costs a lock and a
/// `BEGIN`/`COMMIT`, never an open. Other processes using the same file are kept safe by
/// SQLite's own locks and the busy timeout.
///
/// Do not call `write` from inside `write` (or `read` from inside `read` more deeply than
/// the pool has readers): the locks are not re-entrant. Pass the `Database` you were given
/// to the code that needs it instead.
public final class DatabasePool: Sendable {
    /// The database file's path.
    public let path: String
    private let writer: Mutex<ConnectionBox>
    private let idleReaders: Mutex<[ConnectionBox]>
    private let readerSlots: DispatchSemaphore
    private let configuration: DatabaseConfiguration

    /// Opens the writer connection (creating the file and switching it to WAL when needed).
    /// Readers are opened on first use, up to `configuration.maximumReaderCount`.
    /// - Throws: `DatabaseError` when the database cannot be opened or configured.
    public init(path: String, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        precondition(configuration.maximumReaderCount >= 1, "a pool needs at least one reader")
        self.path = path
        self.configuration = configuration
        writer = Mutex(ConnectionBox(try Database(path: path, configuration: configuration)))
        idleReaders = Mutex([])
        readerSlots = DispatchSemaphore(value: configuration.maximumReaderCount)
    }

    /// Runs `body` inside a `BEGIN IMMEDIATE` transaction on the writer connection; commits
    /// when it returns, rolls back when it throws. Writes from all threads run one at a time.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws, or `DatabaseError` (e.g. busy beyond the timeout).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        writer.withLock { box in
            result = Result { try box.database.transaction(.immediate) { try body(box.database) } }
        }
        return try result!.get()
    }

    /// Runs `body` on the writer connection outside any transaction, one caller at a time;
    /// for statements that cannot run in a transaction (`VACUUM`, some pragmas) or that
    /// manage their own transactions (the migrator).
    /// - Throws: what `body` throws.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        writer.withLock { box in
            result = Result { try body(box.database) }
        }
        return try result!.get()
    }

    /// Runs `body` on a reader connection inside a read transaction, so it sees one
    /// consistent snapshot. Up to `maximumReaderCount` reads run at once; more wait.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `DatabaseError` if a reader cannot be opened, or if
    ///   `body` tries to write (readers are `query_only`).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try withReader { database in try database.transaction(.deferred) { try body(database) } }
    }

    /// Runs `body` on a reader connection outside a transaction (for the backup API, which
    /// manages its own read lock).
    /// - Throws: what `body` throws.
    public func readWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try withReader(body)
    }

    private func withReader<T>(_ body: (Database) throws -> T) throws -> T {
        readerSlots.wait()
        defer { readerSlots.signal() }
        let box: ConnectionBox
        if let idle = idleReaders.withLock({ $0.popLast() }) {
            box = idle
        } else {
            box = ConnectionBox(try Database(path: path, configuration: configuration, readOnly: true))
        }
        defer { idleReaders.withLock { $0.append(box) } }
        return try body(box.database)
    }
}

/// Carries a connection between threads. Safe because a connection is only reached by the
/// one thread that holds the writer lock or has taken it off the idle-reader list.
private final class ConnectionBox: @unchecked Sendable {
    let database: Database
    init(_ database: Database) { self.database = database }
}
