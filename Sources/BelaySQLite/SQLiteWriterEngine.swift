import BelayStorage

/// SQLite's part of the group-commit writer: one writer connection, `BEGIN IMMEDIATE`, and
/// the WAL's care after each commit (its writeback, its checkpoints, and with full durability
/// the fsync that every caller waits for before hearing of its commit).
final class SQLiteWriterEngine: GroupCommitEngine, @unchecked Sendable {
    /// SQLite's writes all group together: one writer holds the whole database.
    enum Kind: Equatable, Sendable { case write }

    private let connection: ConnectionBox
    /// Told of every commit; nil for a database without a WAL file (in memory).
    private let writeback: WALWriteback?
    /// The connection's WAL hook points at it, so it lives and runs as long as the
    /// connection does; nil for a database in memory.
    private let checkpointer: BackgroundCheckpointer?
    /// Reports commits once they are on disk; nil reports them as they return.
    let syncer: CommitSyncer?

    init(connection: ConnectionBox, writeback: WALWriteback?, checkpointer: BackgroundCheckpointer?, syncer: CommitSyncer?) {
        self.connection = connection
        self.writeback = writeback
        self.checkpointer = checkpointer
        self.syncer = syncer
    }

    func connect() throws -> SQLiteDatabase { connection.database }

    func isBroken(_ connection: SQLiteDatabase) -> Bool { false }

    func isInTransaction(_ connection: SQLiteDatabase) -> Bool { connection.isInTransaction }

    func begin(_ kind: Kind, savepoint: Bool, on connection: SQLiteDatabase) throws {
        connection.announcedChannels = []
        try connection.execute("BEGIN IMMEDIATE")
        if savepoint {
            do {
                try connection.execute("SAVEPOINT belay_write")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    func nextSavepoint(on connection: SQLiteDatabase) throws {
        try connection.execute("RELEASE belay_write")
        try connection.execute("SAVEPOINT belay_write")
    }

    func rollbackToSavepoint(on connection: SQLiteDatabase) throws {
        try connection.execute("ROLLBACK TO belay_write")
    }

    func commit(releasingSavepoint: Bool, on connection: SQLiteDatabase) throws {
        if releasingSavepoint { try connection.execute("RELEASE belay_write") }
        try connection.execute("COMMIT")
    }

    func rollback(on connection: SQLiteDatabase) {
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    func announcedChannels(on connection: SQLiteDatabase) -> Set<String> { connection.announcedChannels }

    func runsOneGroupAtATime(_ kind: Kind) -> Bool { false }

    func committed(on connection: SQLiteDatabase, report: @escaping @Sendable () -> Void) {
        writeback?.noteCommit()
        guard let syncer else { return report() }
        syncer.afterSync(report)
    }

    /// Closed here, on the writer thread, so the connection is never closed by whichever
    /// thread happens to drop the last reference (possibly while the process exits).
    func writerEnded(with connection: SQLiteDatabase?) {
        syncer?.stop()
        try? self.connection.database.close()
        writeback?.stop()
        checkpointer?.stop()
    }
}
