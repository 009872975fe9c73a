import BelayStorage

/// PostgreSQL's part of the group-commit writer: a connection per writer thread, a
/// transaction of the isolation its writes need, run in libpq's pipeline mode so that the
/// statements around the writes cost no round trip of their own (`BEGIN` and the first
/// `SAVEPOINT` go with the first write's first statement that waits for an answer, each
/// `RELEASE` and the next `SAVEPOINT` with the statements the write sent for later, the last
/// `RELEASE` and `COMMIT` likewise), and the `NOTIFY`s a group asked for sent once it committed.
///
/// Serializable groups run one at a time (on whichever thread takes the next), as SQLite's one
/// writer runs them: the writes of one process then never abort each other (joins to one
/// meetup all read and write its row and its attendances, and two at once on two connections
/// conflicted so often that a burst of joins outlasted the retries). Locked writes, which
/// keep their rules with row locks, run on every thread at once.
final class PostgresWriterEngine: GroupCommitEngine, @unchecked Sendable {
    /// How a write's transaction runs: its isolation and, for locked writes, whether its
    /// commit waits for the log's flush. Writes are grouped only with writes of the same one.
    enum Kind: Equatable, Sendable {
        /// Grouped with the other writes queued with it; one group at a time.
        case serializable
        /// Grouped only with other such writes (see `DatabaseStore.lockedWrite`).
        case readCommitted
        /// As `readCommitted`, and the commit does not wait for the log's flush; grouped only
        /// with other such writes (see `DatabaseStore.lockedWriteWithoutWaitingForFlush`).
        case readCommittedWithoutWaitingForFlush

        /// What opens a transaction of this isolation.
        var begin: [String] {
            switch self {
            case .serializable: ["BEGIN ISOLATION LEVEL SERIALIZABLE"]
            case .readCommitted: ["BEGIN ISOLATION LEVEL READ COMMITTED"]
            case .readCommittedWithoutWaitingForFlush: ["BEGIN ISOLATION LEVEL READ COMMITTED", "SET LOCAL synchronous_commit TO off"]
            }
        }
    }

    private let makeConnection: () throws -> PostgresDatabase
    private let notifier: PostgresNotifier

    init(connect: @escaping () throws -> PostgresDatabase, notifier: PostgresNotifier) {
        makeConnection = connect
        self.notifier = notifier
    }

    func connect() throws -> PostgresDatabase { try makeConnection() }

    func isBroken(_ connection: PostgresDatabase) -> Bool { connection.isBroken }

    func isInTransaction(_ connection: PostgresDatabase) -> Bool { connection.isInTransaction }

    func begin(_ kind: Kind, savepoint: Bool, on connection: PostgresDatabase) throws {
        try connection.begin(sending: savepoint ? kind.begin + ["SAVEPOINT belay_write"] : kind.begin)
        connection.channelsToNotify = []
    }

    func nextSavepoint(on connection: PostgresDatabase) throws {
        try connection.endWrite(sending: ["RELEASE SAVEPOINT belay_write", "SAVEPOINT belay_write"], leavingPipeline: false)
    }

    func rollbackToSavepoint(on connection: PostgresDatabase) throws {
        try connection.rollbackWrite(sending: "ROLLBACK TO SAVEPOINT belay_write")
    }

    func commit(releasingSavepoint: Bool, on connection: PostgresDatabase) throws {
        try connection.endWrite(sending: releasingSavepoint ? ["RELEASE SAVEPOINT belay_write", "COMMIT"] : ["COMMIT"], leavingPipeline: true)
    }

    func rollback(on connection: PostgresDatabase) {
        connection.channelsToNotify = nil
        connection.settle()
        if !connection.isBroken && connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    func announcedChannels(on connection: PostgresDatabase) -> Set<String> { connection.channelsToNotify ?? [] }

    func runsOneGroupAtATime(_ kind: Kind) -> Bool { kind == .serializable }

    func committed(on connection: PostgresDatabase, report: @escaping @Sendable () -> Void) {
        notifier.owe(connection.channelsToNotify ?? [])
        connection.channelsToNotify = nil
        report()
    }

    func writerEnded(with connection: PostgresDatabase?) {}
}
