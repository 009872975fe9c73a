import BelayStorage
import Dispatch
import Foundation
import Synchronization

/// The domain's data on a PostgreSQL server (`DatabaseStore`), shared by every node that
/// points at the same database.
///
/// Writes run on a few writer connections per process (`writerConnections`), grouped into
/// `SERIALIZABLE` transactions (see `PostgresWriterEngine` and `GroupCommitWriter`), so every rule the domain checks inside
/// a write (capacity, one reward per attendance, the check-in lock-out, leases) holds across
/// threads and nodes exactly as it does on SQLite's single writer: when two transactions
/// conflict, the server aborts one (SQLSTATE 40001 or 40P01) and its group runs again after a
/// short random pause, up to `maximumAttempts` times. Reads run on a pool of connections, in read-only
/// `REPEATABLE READ` transactions (one snapshot each).
///
/// Connections are opened on demand up to `maximumConnections` and reused. One that breaks
/// (the server restarted, the network dropped) is thrown away and the next call opens a new
/// one; while none can be opened, calls throw `DatabaseError.unavailable` (`isBusy`), which
/// the API answers with 503 and `Retry-After`. Every statement is bounded by the statement
/// timeout.
public final class PostgresStore: DatabaseStore {
    /// What the store needs to know.
    public struct Settings: Sendable {
        /// The libpq connection URL or string.
        public var url: String
        /// Connections this process keeps open at most for reads.
        public var maximumConnections: Int
        /// Connections this process writes on, each with its own thread.
        public var writerConnections: Int
        /// The longest one statement may run, in milliseconds (0: no limit).
        public var statementTimeoutMilliseconds: Int
        /// How many times a group of writes aborted for a conflict is run in all.
        public var maximumAttempts: Int
        /// The most writes one transaction carries.
        public var maximumWritesPerCommit: Int

        /// The connections and statement timeout come from `config.json`'s `database` section;
        /// the attempts and writes per commit are Belay's own.
        public init(url: String, maximumConnections: Int, writerConnections: Int, statementTimeoutMilliseconds: Int,
                    maximumAttempts: Int = 30, maximumWritesPerCommit: Int = 100) {
            self.url = url
            self.maximumConnections = maximumConnections
            self.writerConnections = writerConnections
            self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
            self.maximumAttempts = maximumAttempts
            self.maximumWritesPerCommit = maximumWritesPerCommit
        }
    }

    public let settings: Settings
    private let idle = Mutex<[ConnectionHolder]>([])
    private let slots: DispatchSemaphore
    private let writer: GroupCommitWriter<PostgresWriterEngine>
    private let notifier: PostgresNotifier
    /// The payload of the notifications this store's writes send after their commit: a token of
    /// its own, by which its wake listener (`makeWakeListener`) knows them from other nodes'.
    private let notificationPayload = UUID().uuidString
    /// Opens a connection with the session settings.
    private let connect: @Sendable () throws -> PostgresDatabase
    private let retries: SharedCounter
    private let writerRoundTrips = SharedCounter()

    public var location: String { PostgresConnection.redacted(settings.url) }

    /// How many writes were run again after a conflict since the store was made.
    public var conflictRetries: Int { retries.count.load(ordering: .relaxed) }

    /// How many times the writer connections have waited for the server since the store was
    /// made (their set-up left out): what a write costs in round trips.
    public var writeRoundTrips: Int { writerRoundTrips.count.load(ordering: .relaxed) }

    /// Makes the store and opens one connection, so a wrong URL or a server that is down is
    /// reported at once.
    /// - Throws: `DatabaseError.unavailable` when the server cannot be reached.
    public init(settings: Settings) throws {
        precondition(settings.maximumConnections >= 1, "a store needs at least one connection")
        self.settings = settings
        slots = DispatchSemaphore(value: settings.maximumConnections)
        let connect: @Sendable () throws -> PostgresDatabase = {
            try PostgresDatabase(url: settings.url, statementTimeoutMilliseconds: settings.statementTimeoutMilliseconds)
        }
        self.connect = connect
        let first = ConnectionHolder(try connect())
        idle.withLock { $0.append(first) }
        let retries = SharedCounter()
        self.retries = retries
        let notifier = PostgresNotifier(connect: connect, payload: notificationPayload)
        self.notifier = notifier
        let writerRoundTrips = self.writerRoundTrips
        let connectWriter: @Sendable () throws -> PostgresDatabase = {
            let database = try connect()
            database.connection.roundTripCounter = writerRoundTrips
            return database
        }
        writer = GroupCommitWriter(engine: PostgresWriterEngine(connect: connectWriter, notifier: notifier),
                                   location: PostgresConnection.redacted(settings.url), threads: settings.writerConnections,
                                   threadName: "belay-postgres-writer", maximumWritesPerCommit: settings.maximumWritesPerCommit,
                                   maximumAttempts: settings.maximumAttempts, onRetry: { retries.count.add(1, ordering: .relaxed) })
    }

    deinit {
        writer.stop(waiting: false)
        notifier.stop()
    }

    public var commitCount: UInt64 { writer.commitCount }

    public func wakeAfterCommit(on channel: String, _ wake: @escaping @Sendable () -> Void) {
        writer.wakes.add(channel, wake)
    }

    /// A listener that calls `handlers[channel]` when another node commits work on `channel`
    /// (or anything else sends `NOTIFY channel`), not started. The notifications of this store's
    /// own writes are left out: their wakes (`wakeAfterCommit`) ran at their commit.
    public func makeWakeListener(handlers: [String: @Sendable () -> Void]) -> PostgresWakeListener {
        PostgresWakeListener(url: settings.url, handlers: handlers, ignoringPayload: notificationPayload)
    }

    public func write<T>(_ body: (any Database) throws -> T) throws -> T {
        try submitAndWait(body, isolation: .serializable)
    }

    public func write<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                         then completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        writer.submit(body, kind: .serializable, completion: completion)
    }

    public func lockedWrite<T>(_ body: (any Database) throws -> T) throws -> T {
        try submitAndWait(body, isolation: .readCommitted)
    }

    public func lockedWriteWithoutWaitingForFlush<T>(_ body: (any Database) throws -> T) throws -> T {
        try submitAndWait(body, isolation: .readCommittedWithoutWaitingForFlush)
    }

    private func submitAndWait<T>(_ body: (any Database) throws -> T, isolation: PostgresWriterEngine.Kind) throws -> T {
        try writer.perform(body, kind: isolation)
    }

    public func lockedWrite<T>(_ body: @escaping @Sendable (any Database) throws -> T,
                               then completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        writer.submit(body, kind: .readCommitted, completion: completion)
    }

    public func read<T>(_ body: (any Database) throws -> T) throws -> T {
        try withConnection(retryingStale: true) { database in
            try database.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let value = try body(database)
                try database.execute("COMMIT")
                return value
            } catch {
                if !database.isBroken { try? database.execute("ROLLBACK") }
                throw error
            }
        }
    }

    public func readSingleStatement<T>(_ body: (any Database) throws -> T) throws -> T {
        try withConnection(retryingStale: true) { database in try body(database) }
    }

    /// Runs `body` on a pooled connection outside any transaction (the migrator). A broken
    /// connection is not returned to the pool; its errors are already `unavailable`.
    /// - Throws: what `body` throws; `DatabaseError.unavailable` when no connection can be had.
    public func withConnection<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
        try withConnection(retryingStale: false, body)
    }

    /// - Parameter retryingStale: run `body` (a read, safe to run twice) once more on a new
    ///   connection when the pooled one it got turns out broken: after the server restarted,
    ///   each idle connection would otherwise fail one caller before it is replaced.
    private func withConnection<T>(retryingStale: Bool, _ body: (PostgresDatabase) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let pooled = idle.withLock { $0.popLast() }
        let holder = try pooled ?? ConnectionHolder(try connect())
        do {
            let value = try body(holder.database)
            if !holder.database.isBroken { idle.withLock { $0.append(holder) } }
            return value
        } catch {
            guard holder.database.isBroken else {
                idle.withLock { $0.append(holder) }
                throw error
            }
            guard retryingStale, pooled != nil else { throw error }
            // Every other idle connection predates the break too: let them go with it.
            idle.withLock { $0.removeAll() }
            let fresh = ConnectionHolder(try connect())
            let value = try body(fresh.database)
            if !fresh.database.isBroken { idle.withLock { $0.append(fresh) } }
            return value
        }
    }
}

/// Counts events on several threads (groups run again, round trips).
final class SharedCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// Carries a connection between threads; only the thread that took it off the idle list uses it.
private final class ConnectionHolder: @unchecked Sendable {
    let database: PostgresDatabase
    init(_ database: PostgresDatabase) { self.database = database }
}
