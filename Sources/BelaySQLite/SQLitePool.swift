import BelayStorage
import CSQLite
import Dispatch
import Foundation
import Synchronization

/// A database shared by many threads: one writer connection, driven by a thread of its own,
/// and a small pool of reader connections that run concurrently (WAL lets readers see the
/// last committed state while the writer works).
///
/// Connections are opened once and reused; a `read` or `write` call costs a hand-off and a
/// `BEGIN`/`COMMIT`, never an open. Other processes using the same file are kept safe by
/// SQLite's own locks and the busy timeout.
///
/// Writes: `write` hands its closure to the writer thread and waits. The writer thread takes
/// every write queued at that moment (up to `maximumWritesPerCommit`) and runs them in one
/// transaction, each inside its own savepoint, then commits once for all of them (group
/// commit). Every caller still returns only after the commit that made its write durable
/// (with full durability the group's WAL is fsynced on a thread of its own, `CommitSyncer`,
/// while the writer goes on with the next group),
/// and a write that throws rolls back only its own savepoint. Running writes on one thread
/// instead of passing a lock between callers means no caller ever waits for another one to be
/// scheduled, and a caller running at low priority (a render worker at nice 19) cannot hold
/// the writer while the kernel runs others.
///
/// Do not call `write` from inside `write` (or `read` from inside `read` more deeply than
/// the pool has readers): the writer runs one closure at a time. Pass the `Database` you were
/// given to the code that needs it instead.
public final class SQLitePool: DatabaseStore {
    /// The database file's path.
    public let path: String

    public var location: String { path }
    private let writer: GroupCommitWriter<SQLiteWriterEngine>
    private let writerEngine: SQLiteWriterEngine
    private let idleReaders: Mutex<[ConnectionBox]>
    private let readerSlots: DispatchSemaphore
    private let configuration: DatabaseConfiguration

    /// Opens the writer connection (creating the file and switching it to WAL when needed)
    /// and starts its thread. Readers are opened on first use, up to
    /// `configuration.maximumReaderCount`.
    /// - Throws: `DatabaseError` when the database cannot be opened or configured.
    public init(path: String, configuration: DatabaseConfiguration = DatabaseConfiguration()) throws {
        precondition(configuration.maximumReaderCount >= 1, "a pool needs at least one reader")
        self.path = path
        self.configuration = configuration
        let inMemory = path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:")
        // With full durability the writer commits at NORMAL and a thread of its own fsyncs the
        // WAL before any caller hears of the commit (see `CommitSyncer`).
        let syncer = !inMemory && configuration.durability == .full ? CommitSyncer(databasePath: path) : nil
        var writerConfiguration = configuration
        if syncer != nil { writerConfiguration.durability = .normal }
        let connection = ConnectionBox(try SQLiteDatabase(path: path, configuration: writerConfiguration))
        var checkpointer: BackgroundCheckpointer?
        if !inMemory && configuration.walAutocheckpointPages > 0 {
            checkpointer = try BackgroundCheckpointer(path: path, configuration: configuration)
            checkpointer?.attach(to: connection.database)
        }
        // With full durability the syncer fsyncs the WAL after every group; starting its
        // writeback early would only add I/O beside those fsyncs.
        let writeback = inMemory || syncer != nil ? nil : WALWriteback(databasePath: path)
        writerEngine = SQLiteWriterEngine(connection: connection, writeback: writeback, checkpointer: checkpointer, syncer: syncer)
        writer = GroupCommitWriter(engine: writerEngine, location: path, threadName: "belay-db-writer",
                                   maximumWritesPerCommit: configuration.maximumWritesPerCommit)
        idleReaders = Mutex([])
        readerSlots = DispatchSemaphore(value: configuration.maximumReaderCount)
    }

    deinit {
        // The last reference can go with a write's completion, on the sync thread: waiting
        // there for the writer, which waits for that thread to end, would never return.
        writer.stop(waiting: writerEngine.syncer?.isOnSyncThread != true)
    }

    /// Runs `body` in a write transaction on the writer connection (`BEGIN IMMEDIATE`, shared
    /// with concurrent writes, see the type's documentation); its changes are committed when
    /// it returns and rolled back when it throws. Writes from all threads run one at a time.
    /// - Returns: what `body` returns, once its changes are committed.
    /// - Throws: what `body` throws; or `DatabaseError` when the write lock cannot be had
    ///   within the busy timeout or the commit fails (then nothing of `body` was kept).
    public func write<T>(_ body: (any Database) throws -> T) throws -> T {
        try perform(body, inTransaction: true)
    }

    /// Queues `body` like `write` but returns at once: `completion` gets what `body` returned,
    /// or the error that lost it, after the commit. For callers that must not hold a thread
    /// while the write waits for its turn (an HTTP request whose connection is suspended).
    ///
    /// `completion` runs on the writer thread (with full durability, on the pool's sync thread,
    /// once the commit is on disk), which every write waits for: keep it short (hand the
    /// result on), and never call `write` from it.
    public func write<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                         then completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        writer.submit(body, kind: .write, completion: completion)
    }

    public func wakeAfterCommit(on channel: String, _ wake: @escaping @Sendable () -> Void) {
        writer.wakes.add(channel, wake)
    }

    /// Runs `body` on the writer connection outside any transaction, one caller at a time;
    /// for statements that cannot run in a transaction (`VACUUM`, some pragmas) or that
    /// manage their own transactions (the migrator). Writes queued before it commit first.
    /// - Throws: what `body` throws.
    public var commitCount: UInt64 { writer.commitCount }

    public func writeWithoutTransaction<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try perform(body, inTransaction: false)
    }

    private func perform<T>(_ body: (SQLiteDatabase) throws -> T, inTransaction: Bool) throws -> T {
        precondition(writerEngine.syncer?.isOnSyncThread != true,
                     "SQLitePool.write was called from a write's completion; queue it with write(_:then:)")
        return try writer.perform(body, kind: .write, inTransaction: inTransaction)
    }

    /// Copies the whole write-ahead log into the database file and truncates it to nothing
    /// (`wal_checkpoint(TRUNCATE)`, on the writer connection, after the writes queued before
    /// it), so that the old versions of pages a deletion changed are no longer in any file:
    /// the database file's freed space is zeroed (`secure_delete`), the log is empty, and the
    /// shared-memory file holds page numbers only. Readers in the middle of a read (here or in
    /// another process) are waited for up to the busy timeout, a few times.
    /// - Throws: `DatabaseError` when readers kept the log busy throughout, or the checkpoint failed.
    public func discardDeletedData() throws {
        let inMemory = path.isEmpty || path == ":memory:" || path.hasPrefix("file::memory:")
        guard !inMemory else { return }
        try writeWithoutTransaction { database in
            for attempt in 1...5 {
                let busy = try database.queryOne("PRAGMA wal_checkpoint(TRUNCATE)") { try $0.get(0, as: Int64.self) }
                if busy == 0 { return }
                if attempt < 5 { usleep(200_000) }
            }
            throw DatabaseError.sqlite(extendedCode: SQLITE_BUSY, message: "The write-ahead log of \(path) could not be truncated: readers kept it busy; deleted data stays in it until the next checkpoint", sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Runs `body` on a reader connection inside a read transaction, so it sees one
    /// consistent snapshot. Up to `maximumReaderCount` reads run at once; more wait.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; `DatabaseError` if a reader cannot be opened, or if
    ///   `body` tries to write (readers are `query_only`).
    public func read<T>(_ body: (any Database) throws -> T) throws -> T {
        try readSQLite(body)
    }

    /// `read`, with the SQLite connection itself (for SQLite's own checks and pragmas).
    /// - Throws: as `read`.
    public func readSQLite<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try withReader { database in try database.transaction(.deferred) { try body(database) } }
    }

    /// Runs `body` on a reader connection outside a transaction (for the backup API, which
    /// manages its own read lock).
    /// - Throws: what `body` throws.
    public func readWithoutTransaction<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try withReader(body)
    }

    private func withReader<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        readerSlots.wait()
        defer { readerSlots.signal() }
        let box: ConnectionBox
        if let idle = idleReaders.withLock({ $0.popLast() }) {
            box = idle
        } else {
            box = ConnectionBox(try SQLiteDatabase(path: path, configuration: configuration, readOnly: true))
        }
        defer { idleReaders.withLock { $0.append(box) } }
        return try body(box.database)
    }
}

/// Carries a connection between threads. Safe because a connection is only reached by the
/// writer thread or by the one thread that has taken it off the idle-reader list.
final class ConnectionBox: @unchecked Sendable {
    let database: SQLiteDatabase
    init(_ database: SQLiteDatabase) { self.database = database }
}
