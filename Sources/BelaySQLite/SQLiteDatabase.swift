import BelayStorage
import CSQLite
import CSQLiteShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How far a commit goes before it returns (`PRAGMA synchronous`).
public enum DatabaseDurability: String, Sendable, CaseIterable {
    /// Every commit fsyncs the WAL before it returns (`synchronous = FULL`): an acknowledged
    /// write survives power loss and a kernel crash. Group commit shares one fsync among every
    /// write in the group.
    case full
    /// Commits reach the operating system but are fsynced only at checkpoints
    /// (`synchronous = NORMAL`): the database never corrupts, but the last commits before a
    /// power loss or kernel crash can be lost, though they were acknowledged. A crash of the
    /// process alone loses nothing either way.
    case normal

    var pragmaValue: String { self == .full ? "FULL" : "NORMAL" }
}

/// Settings for opening a SQLite database.
public struct DatabaseConfiguration: Sendable {
    /// Whether a commit is durable against power loss when it returns (default `.full`).
    public var durability: DatabaseDurability
    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`, in milliseconds.
    public var busyTimeoutMilliseconds: Int32
    /// How many reader connections a `SQLitePool` keeps at most.
    public var maximumReaderCount: Int
    /// Page cache per connection, in KiB (`PRAGMA cache_size = -N`).
    public var cacheSizeKiB: Int
    /// How much of the file reads may memory-map (`PRAGMA mmap_size`); 0 turns it off.
    /// Off by default: in WAL mode a reader drops its whole mapping at the start of every
    /// read transaction that follows a commit, so under a stream of writes (a check-in burst)
    /// each read paid an unmap, a map and page faults, more than the reads it saved.
    public var memoryMapBytes: Int64
    /// WAL pages written before an automatic checkpoint (`PRAGMA wal_autocheckpoint`).
    /// Larger values write hot pages back less often, at the cost of a longer WAL. A
    /// `SQLitePool` checkpoints on a thread of its own instead (`BackgroundCheckpointer`:
    /// a pass every quarter of this, the WAL restarted once it holds this much, never
    /// more than eight times this); 0 turns automatic checkpoints off (the WAL is then copied
    /// back only by an explicit `PRAGMA wal_checkpoint` or when the last connection closes).
    public var walAutocheckpointPages: Int
    /// After a checkpoint, the WAL file is truncated to at most this size (`PRAGMA journal_size_limit`).
    public var walSizeLimitBytes: Int64
    /// How many concurrent `SQLitePool.write` calls may share one commit (1 turns group
    /// commit off).
    public var maximumWritesPerCommit: Int
    /// The database file grows in steps of this size (`SQLITE_FCNTL_CHUNK_SIZE`; 0: as
    /// checkpoints need), so a growing database is extended a few times instead of at
    /// nearly every checkpoint, and stays less fragmented on disk.
    public var fileGrowthChunkBytes: Int32

    /// - Parameters:
    ///   - busyTimeoutMilliseconds: lock wait before `SQLITE_BUSY` (default 5 s).
    ///   - maximumReaderCount: reader connections of a `SQLitePool` (default 4).
    ///   - cacheSizeKiB: page cache per connection (default 16 MiB).
    ///   - memoryMapBytes: memory-mapped reads (default 0: off).
    ///   - walAutocheckpointPages: checkpoint interval (default 4,000 pages, about 16 MiB).
    ///   - walSizeLimitBytes: WAL size kept after a checkpoint (default 64 MiB).
    ///   - maximumWritesPerCommit: group commit size of a `SQLitePool` (default 64).
    ///   - fileGrowthChunkBytes: the file's growth step (default 8 MiB).
    ///   - durability: `.full` (default: fsync per commit) or `.normal` (fsync at checkpoints).
    public init(busyTimeoutMilliseconds: Int32 = 5_000, maximumReaderCount: Int = 4, cacheSizeKiB: Int = 16_384,
                memoryMapBytes: Int64 = 0, walAutocheckpointPages: Int = 4_000,
                walSizeLimitBytes: Int64 = 67_108_864, maximumWritesPerCommit: Int = 64,
                fileGrowthChunkBytes: Int32 = 8 << 20, durability: DatabaseDurability = .full) {
        self.durability = durability
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maximumReaderCount = maximumReaderCount
        self.cacheSizeKiB = cacheSizeKiB
        self.memoryMapBytes = memoryMapBytes
        self.walAutocheckpointPages = walAutocheckpointPages
        self.walSizeLimitBytes = walSizeLimitBytes
        self.maximumWritesPerCommit = max(maximumWritesPerCommit, 1)
        self.fileGrowthChunkBytes = max(fileGrowthChunkBytes, 0)
    }
}

/// One SQLite connection: WAL journal, `foreign_keys=ON`, `synchronous` as configured, a busy
/// timeout, and a cache of prepared statements keyed by their SQL.
///
/// A `Database` is not thread-safe: use it from one thread at a time. To share a database
/// between threads, use `SQLitePool`, which hands out connections inside `read`/`write`.
public final class SQLiteDatabase: Database {
    public var dialect: any SQLDialect { SQLiteDialect() }

    /// How a transaction takes its lock.
    public enum TransactionKind: String, Sendable {
        /// Takes a read lock at the first read and a write lock at the first write.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so it never fails half-way with `SQLITE_BUSY`
        /// on a lock upgrade. Use it for every transaction that writes.
        case immediate = "IMMEDIATE"
    }

    /// The open connection, or nil once closed.
    private(set) var connection: OpaquePointer?
    /// The database file's path.
    public let path: String
    private var statementCache: [String: Statement] = [:]
    /// The channels the writer's open transaction announced work on (`notifyAtCommit`);
    /// emptied when the writer begins the next one.
    var announcedChannels: Set<String> = []

    var handle: OpaquePointer? { connection }

    /// Opens (and creates when missing) the database at `path` and configures it.
    ///
    /// - Parameters:
    ///   - path: the file; `":memory:"` for a private in-memory database.
    ///   - configuration: busy timeout and pool settings.
    ///   - readOnly: open a connection that refuses writes (`PRAGMA query_only`); it does
    ///     not create the file or change the journal mode.
    /// - Throws: `DatabaseError` when the file cannot be opened or configured (for example
    ///   a directory that does not exist, or a file that is not a database).
    /// Creates `path` empty with mode 0600, whatever the umask, when it does not exist yet (an
    /// empty file is a new database to SQLite). The database holds webhook, check-in and
    /// calendar secrets, and SQLite gives its `-wal` and `-shm` files the database file's mode,
    /// so none of them is readable by other users. An existing file is left as it is; an
    /// in-memory or URI name is left to SQLite.
    static func createPrivateFile(_ path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        fchmod(descriptor, 0o600)
        Glibc.close(descriptor)
    }

    public init(path: String, configuration: DatabaseConfiguration = DatabaseConfiguration(), readOnly: Bool = false) throws {
        self.path = path
        Self.configureSQLiteOnce
        var opened: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if !readOnly {
            flags |= SQLITE_OPEN_CREATE
            Self.createPrivateFile(path)
        }
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = DatabaseError(code: code, connection: opened, sql: nil)
            sqlite3_close_v2(opened)
            throw DatabaseError.sqlite(extendedCode: error.extendedResultCode ?? code,
                                        message: "\(error.engineMessage ?? "cannot open") (opening \(path); check that the directory exists and is writable)",
                                        sql: nil)
        }
        connection = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, configuration.busyTimeoutMilliseconds)
        do {
            if readOnly {
                try execute("PRAGMA query_only = ON")
            } else if path != ":memory:" && !path.isEmpty {
                let mode: String? = try queryOne("PRAGMA journal_mode = WAL") { try $0.get(0) }
                guard mode?.lowercased() == "wal" else {
                    throw DatabaseError.misuse("Cannot switch \(path) to WAL journal mode (it stayed \(mode ?? "unknown")); check that the file system supports shared memory")
                }
            }
            try execute("PRAGMA foreign_keys = ON")
            // Deleted content is overwritten with zeros, whatever this SQLite build's default
            // (`SQLITE_SECURE_DELETE`): an erased member's email must not stay in free space.
            let secureDelete = try scalar("PRAGMA secure_delete = ON", as: Int64.self)
            guard secureDelete == 1 else {
                throw DatabaseError.misuse("Cannot turn on PRAGMA secure_delete for \(path) (it stayed \(secureDelete.map(String.init) ?? "unset")); this SQLite build cannot erase deleted data")
            }
            try execute("PRAGMA synchronous = \(configuration.durability.pragmaValue)")
            // Savepoint and statement journals in memory: on disk they cost a write per page
            // touched, more than the WAL itself.
            try execute("PRAGMA temp_store = MEMORY")
            // Pragma values cannot be bound; these are integers from the configuration.
            try execute("PRAGMA cache_size = \(-max(configuration.cacheSizeKiB, 0))")
            _ = try scalar("PRAGMA mmap_size = \(max(configuration.memoryMapBytes, 0))", as: Int64.self)
            if !readOnly {
                var chunk = configuration.fileGrowthChunkBytes
                if chunk > 0 { _ = sqlite3_file_control(opened, "main", SQLITE_FCNTL_CHUNK_SIZE, &chunk) }
                _ = try scalar("PRAGMA wal_autocheckpoint = \(max(configuration.walAutocheckpointPages, 0))", as: Int64.self)
                _ = try scalar("PRAGMA journal_size_limit = \(max(configuration.walSizeLimitBytes, -1))", as: Int64.self)
            }
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(opened)
            connection = nil
            throw error
        }
    }

    /// Process-wide SQLite settings, applied before the first connection opens: no memory
    /// statistics (Belay never reads them, and keeping them takes a global lock per allocation).
    private static let configureSQLiteOnce: Void = {
        _ = belay_sqlite_disable_memory_statistics()
    }()

    deinit {
        statementCache.removeAll()
        if let connection { sqlite3_close_v2(connection) }
    }

    /// Finalises cached statements and closes the connection. Using the database afterwards throws.
    /// - Throws: `DatabaseError` when SQLite refuses to close (for example a statement still running).
    public func close() throws {
        guard let connection else { return }
        statementCache.removeAll()
        let code = sqlite3_close(connection)
        guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: connection, sql: nil) }
        self.connection = nil
    }

    private func openConnection() throws -> OpaquePointer {
        guard let connection else {
            throw DatabaseError.misuse("The database \(path) is closed; open a new connection")
        }
        return connection
    }

    // MARK: Statements

    /// The cached statement for `sql`, or a fresh one when the cached one is being stepped.
    private func statement(for sql: String) throws -> Statement {
        _ = try openConnection()
        if let cached = statementCache[sql] {
            if !cached.isInUse { return cached }
            return try Statement(database: self, sql: sql)
        }
        let statement = try Statement(database: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one statement, discarding any rows.
    ///
    /// - Parameters:
    ///   - sql: one SQL statement with `?` placeholders; never build it from input.
    ///   - arguments: values bound to the placeholders in order.
    /// - Throws: `DatabaseError` (code, message, SQL) when SQLite fails, e.g. a constraint violation.
    public func execute(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        let statement = try statement(for: sql)
        statement.isInUse = true
        defer { statement.reset(); statement.isInUse = false }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs one statement and converts each row with `read`.
    ///
    /// - Parameters:
    ///   - sql: one SQL statement with `?` placeholders.
    ///   - arguments: values bound to the placeholders in order.
    ///   - read: converts the current row; it must not keep the `Row`.
    /// - Returns: the converted rows in order.
    /// - Throws: `DatabaseError` when SQLite fails or a column cannot be converted; any error `read` throws.
    public func query<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
                         _ read: (Row) throws -> T) throws -> [T] {
        let statement = try statement(for: sql)
        statement.isInUse = true
        defer { statement.reset(); statement.isInUse = false }
        try statement.bind(arguments)
        var results: [T] = []
        while try statement.step() {
            results.append(try read(Row(cursor: statement)))
        }
        return results
    }

    /// Runs one statement and converts its first row with `read`, or returns nil when there is none.
    /// - Throws: as `query`.
    public func queryOne<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
                            _ read: (Row) throws -> T) throws -> T? {
        let statement = try statement(for: sql)
        statement.isInUse = true
        defer { statement.reset(); statement.isInUse = false }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return try read(Row(cursor: statement))
    }

    /// Notes `channel` for the writer, which wakes this process's workers after the commit
    /// (SQLite's writers share one machine: no other node listens).
    public func notifyAtCommit(_ channel: String) throws {
        announcedChannels.insert(channel)
    }

    /// Runs a script of several `;`-separated statements without arguments (migrations).
    /// - Throws: `DatabaseError` naming the statement that failed.
    public func executeScript(_ script: String) throws {
        let connection = try openConnection()
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(connection, current, -1, &handle, &tail)
                let length = tail.map { $0 - current } ?? strlen(current)
                let text = String(decoding: UnsafeRawBufferPointer(start: current, count: length)
                    .bindMemory(to: UInt8.self), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                guard code == SQLITE_OK else {
                    sqlite3_finalize(handle)
                    throw DatabaseError(code: code, connection: connection, sql: text)
                }
                cursor = tail
                guard let handle else { continue } // whitespace or a comment
                defer { sqlite3_finalize(handle) }
                var stepCode = sqlite3_step(handle)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(handle) }
                guard stepCode == SQLITE_DONE else {
                    throw DatabaseError(code: stepCode, connection: connection, sql: text)
                }
            }
        }
    }

    /// The row id of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let connection else { return 0 }
        return sqlite3_last_insert_rowid(connection)
    }

    /// Runs the `INSERT` and answers the row id it wrote, or nil when it changed nothing.
    public func insertedID(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws -> Int64? {
        try execute(sql, arguments)
        return changes == 1 ? lastInsertRowID : nil
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    public var changes: Int {
        guard let connection else { return 0 }
        return Int(sqlite3_changes(connection))
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool {
        guard let connection else { return false }
        return sqlite3_get_autocommit(connection) == 0
    }

    // MARK: Transactions

    /// Runs `body` inside a transaction: commits when it returns, rolls back when it throws.
    ///
    /// - Parameters:
    ///   - kind: `.immediate` (the default) takes the write lock at once; use it for writes.
    ///   - body: the work; it must not open another transaction.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws (after rolling back), or `DatabaseError` when the lock
    ///   cannot be had within the busy timeout or the commit fails.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw DatabaseError.misuse("A transaction is already open on \(path); nested transactions are not supported")
        }
        try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Rolls back if a transaction is still open; the original error matters more than a
    /// failed rollback (which SQLite performs automatically on some errors).
    private func rollbackQuietly() {
        if isInTransaction { try? execute("ROLLBACK") }
    }
}
