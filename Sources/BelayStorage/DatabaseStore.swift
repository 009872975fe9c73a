/// Where the domain keeps its data: the storage interface both engines implement
/// (`SQLitePool` for a file on this machine, the PostgreSQL store for a server that several
/// nodes share). Services hold one and run every read and write through it; the SQL itself
/// lives in the repositories.
///
/// Each engine keeps the domain's rules with its own tools: SQLite runs all writes on one
/// writer connection, one transaction at a time; PostgreSQL runs them in serializable
/// transactions and runs a write again when the server aborts it for a conflict with another
/// node's, so a write body must do nothing but talk to the database it is given (it may run
/// more than once before its result is returned).
public protocol DatabaseStore: Sendable {
    /// Where the data is, for messages and logs: the file's path, or the server's URL
    /// without its password.
    var location: String { get }

    /// Runs `body` in a write transaction: committed when it returns, rolled back when it throws.
    /// - Returns: what `body` returns, once committed.
    /// - Throws: what `body` throws; `DatabaseError` when the transaction could not be had or
    ///   committed (then nothing of `body` was kept; `isBusy` tells a caller to try later).
    func write<T>(_ body: (any Database) throws -> T) throws -> T

    /// Queues `body` like `write` and returns at once; `completion` gets the result after the
    /// commit, on a thread of the store's: keep it short and never call `write` from it.
    func write<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                  then completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// How many times this process has committed writes through this store. It changes
    /// whenever this process may have changed data, so a reader here that remembers it can
    /// tell that nothing changed here since (another process's or node's writes it does not see).
    var commitCount: UInt64 { get }

    /// Runs `body` in a read-only transaction that sees one consistent snapshot.
    /// - Throws: what `body` throws; `DatabaseError` when no connection could be had.
    func read<T>(_ body: (any Database) throws -> T) throws -> T

    /// Runs `body`, which reads with exactly one statement, as `read` does: one statement
    /// sees one snapshot by itself, so on PostgreSQL it runs outside any transaction and
    /// costs one round trip instead of three (the authentication of every request).
    /// - Throws: as `read`.
    func readSingleStatement<T>(_ body: (any Database) throws -> T) throws -> T

    /// Runs `body` like `write`, for a write that keeps its rules with the row locks it takes
    /// itself (`SQLDialect.lockingRows(of:)`, `skippingLockedRows(of:)`) and with constraints, and
    /// otherwise changes only rows whose state its statements check again (`WHERE status = …`).
    /// On PostgreSQL it runs in a `READ COMMITTED` transaction (grouped only with other locked
    /// writes), so that concurrent ones on other connections and nodes wait for each other's
    /// locks instead of aborting each other: under `SERIALIZABLE`, two check-ins at one meetup
    /// or two workers claiming jobs nearly always conflict, through the index pages they share.
    /// On SQLite, with its single writer, it is a write like any other.
    /// - Throws: as `write`.
    func lockedWrite<T>(_ body: (any Database) throws -> T) throws -> T

    /// Queues `body` like `lockedWrite` and returns at once, as `write(_:then:)` does.
    func lockedWrite<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                        then completion: @escaping @Sendable (Result<T, any Error>) -> Void)

    /// Runs `body` like `lockedWrite`, for a write that may be lost should the database server
    /// crash before its commit reaches the disk, because it is then simply made again: a
    /// worker's claim of a job (the job is claimed again, and the worker's result is refused
    /// as the lease it no longer holds). On PostgreSQL its commit does not wait for the flush
    /// of the write-ahead log (`synchronous_commit` off for its transaction, grouped only
    /// with other such writes); the next commit that waits makes it durable as well. On
    /// SQLite it is `lockedWrite`.
    /// - Throws: as `write`.
    func lockedWriteWithoutWaitingForFlush<T>(_ body: (any Database) throws -> T) throws -> T

    /// Runs `wake` after every commit of this process whose transaction announced work on
    /// `channel` (`Database.notifyAtCommit`), once the writes' callers have heard of the commit,
    /// on a thread of the store's: keep it short (a worker's wake-up) and never write from it.
    /// Registered once per worker, where the workers are made; work another node queues reaches
    /// them through that engine's own listener, if any.
    func wakeAfterCommit(on channel: String, _ wake: @escaping @Sendable () -> Void)

    /// Removes, as far as the engine can at once, the copies that rows deleted or overwritten
    /// before this call left in its files (an erased member's email): on SQLite, whose freed
    /// space is zeroed (`secure_delete`), a checkpoint copies the write-ahead log into the
    /// database file and truncates the log to nothing. PostgreSQL keeps dead row versions and
    /// its WAL until `VACUUM` and the archive's retention remove them (the README says what an
    /// operator can do); there it does nothing.
    /// - Throws: `DatabaseError` when the checkpoint could not finish (readers held the log
    ///   for longer than the busy timeout, or the file could not be written).
    func discardDeletedData() throws
}

extension DatabaseStore {
    /// Nothing to do at once on an engine that keeps no copy it could remove here.
    public func discardDeletedData() throws {}

    /// A read like any other.
    public func readSingleStatement<T>(_ body: (any Database) throws -> T) throws -> T {
        try read(body)
    }

    /// A write like any other, on an engine with a single writer.
    public func lockedWrite<T>(_ body: (any Database) throws -> T) throws -> T {
        try write(body)
    }

    /// A queued write like any other, on an engine with a single writer.
    public func lockedWrite<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                               then completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        write(body, then: completion)
    }

    /// A locked write like any other, on an engine whose commits all wait for the disk.
    public func lockedWriteWithoutWaitingForFlush<T>(_ body: (any Database) throws -> T) throws -> T {
        try lockedWrite(body)
    }
}
