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
/// Group commit: when several threads call `write` at once, the writes queued behind the
/// one running join its transaction, each inside its own savepoint, and the last of them
/// commits for all (up to `maximumWritesPerCommit`). Every caller still returns only after
/// the commit that made its write durable, a write that throws rolls back only its own
/// savepoint, and a lone writer commits at once. This turns a commit per write (a WAL
/// write of every page it touched, plus locking system calls) into a commit per group.
///
/// Do not call `write` from inside `write` (or `read` from inside `read` more deeply than
/// the pool has readers): the locks are not re-entrant. Pass the `Database` you were given
/// to the code that needs it instead.
public final class DatabasePool: Sendable {
    /// The database file's path.
    public let path: String
    private let writer: Mutex<WriterState>
    /// Callers of `write` waiting for the writer, so the one holding it knows whether to
    /// leave the transaction open for them.
    private let waitingWriters = Atomic<Int>(0)
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
        writer = Mutex(WriterState(connection: ConnectionBox(try Database(path: path, configuration: configuration))))
        idleReaders = Mutex([])
        readerSlots = DispatchSemaphore(value: configuration.maximumReaderCount)
    }

    /// Runs `body` in a write transaction on the writer connection (`BEGIN IMMEDIATE`, shared
    /// with concurrent writes, see the type's documentation); its changes are committed when
    /// it returns and rolled back when it throws. Writes from all threads run one at a time.
    /// - Returns: what `body` returns, once its changes are committed.
    /// - Throws: what `body` throws; or `DatabaseError` when the write lock cannot be had
    ///   within the busy timeout or the commit fails (then nothing of `body` was kept).
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        waitingWriters.add(1, ordering: .relaxed)
        var outcome: Result<T, any Error>?
        var joined: CommitGroup?
        var committedByThisCall = false
        writer.withLock { state in
            waitingWriters.subtract(1, ordering: .relaxed)
            let database = state.connection.database
            if state.openGroup == nil {
                do {
                    try database.execute("BEGIN IMMEDIATE")
                } catch {
                    outcome = .failure(error)
                    return
                }
                state.openGroup = CommitGroup()
            }
            let group = state.openGroup!
            group.members += 1
            joined = group
            outcome = Result {
                try database.execute("SAVEPOINT belay_write")
                do {
                    let value = try body(database)
                    try database.execute("RELEASE belay_write")
                    return value
                } catch {
                    if database.isInTransaction {
                        try? database.execute("ROLLBACK TO belay_write")
                        try? database.execute("RELEASE belay_write")
                    }
                    throw error
                }
            }
            if !database.isInTransaction {
                // SQLite rolled the whole transaction back (I/O error, disk full, …): every
                // write of the group is lost, so every member fails.
                group.failure = outcome.flatMap { result in
                    if case let .failure(error) = result { return error }
                    return nil
                } ?? DatabaseError(.misuse(message: "The write transaction on \(path) ended unexpectedly; nothing was saved"))
                state.finish(group)
                committedByThisCall = true
                return
            }
            if waitingWriters.load(ordering: .relaxed) == 0 || group.members >= configuration.maximumWritesPerCommit {
                state.commit(group)
                committedByThisCall = true
            }
        }
        guard let group = joined else { return try outcome!.get() }
        if !committedByThisCall { group.committed.wait() }
        if case .success = outcome!, let failure = group.failure { throw failure }
        return try outcome!.get()
    }

    /// Runs `body` on the writer connection outside any transaction, one caller at a time;
    /// for statements that cannot run in a transaction (`VACUUM`, some pragmas) or that
    /// manage their own transactions (the migrator). An open group commit is committed first.
    /// - Throws: what `body` throws.
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        writer.withLock { state in
            if let group = state.openGroup { state.commit(group) }
            result = Result { try body(state.connection.database) }
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

/// The writer connection and the group commit it is collecting, guarded by the writer lock.
private struct WriterState: Sendable {
    let connection: ConnectionBox
    var openGroup: CommitGroup?

    init(connection: ConnectionBox) { self.connection = connection }

    /// Commits the open transaction for every member of `group` and wakes them.
    mutating func commit(_ group: CommitGroup) {
        let database = connection.database
        do {
            try database.execute("COMMIT")
        } catch {
            group.failure = error
            if database.isInTransaction { try? database.execute("ROLLBACK") }
        }
        finish(group)
    }

    /// Closes `group` and wakes the members waiting for it (all but the caller).
    mutating func finish(_ group: CommitGroup) {
        openGroup = nil
        for _ in 1..<max(group.members, 1) { group.committed.signal() }
    }
}

/// The writes sharing one transaction. `members` and `failure` are written under the
/// writer lock and read by members only after `committed` has woken them.
private final class CommitGroup: @unchecked Sendable {
    var members = 0
    var failure: (any Error)?
    let committed = DispatchSemaphore(value: 0)
}

/// Carries a connection between threads. Safe because a connection is only reached by the
/// one thread that holds the writer lock or has taken it off the idle-reader list.
private final class ConnectionBox: @unchecked Sendable {
    let database: Database
    init(_ database: Database) { self.database = database }
}
