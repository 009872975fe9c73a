import BelayStorage
import Foundation

/// The threads that run a `PostgresStore`'s writes, each on its own connection: as SQLite's
/// writer does, a thread takes the writes queued at that moment (its share of them, up to
/// `maximumWritesPerCommit`, all of one `Isolation`) and runs them in one transaction, each in
/// its own savepoint, then commits once, so a commit's round trips and flush are shared.
/// Several threads keep the server busy while each waits for its round trips.
///
/// Serializable groups run one at a time (on whichever thread takes the next), as SQLite's one
/// writer runs them: the writes of one process then never abort each other (joins to one
/// meetup all read and write its row and its attendances, and two at once on two connections
/// conflicted so often that a burst of joins outlasted the retries). Locked writes, which
/// keep their rules with row locks, run on every thread at once.
///
/// When the server aborts the transaction for a conflict with another transaction (another
/// thread's or another node's; SQLSTATE 40001 or 40P01, in any statement or at `COMMIT`), the
/// whole group is rolled back and run again after a short random pause, up to
/// `maximumAttempts` times; a write's caller hears only of the run that committed. A write
/// that throws anything else rolls back only its savepoint. A connection that breaks fails
/// the group with `DatabaseError.unavailable` and is made again for the next one.
final class PostgresWriter: @unchecked Sendable {
    private let connect: () throws -> PostgresDatabase
    private let maximumWritesPerCommit: Int
    private let maximumAttempts: Int
    private let onRetry: () -> Void
    private let notifier: PostgresNotifier
    /// The threads' stop handshake; its condition also guards the queue.
    private let lifecycle = ThreadStop()
    private var condition: NSCondition { lifecycle.condition }
    private var queue: [PendingPostgresWrite] = []
    /// A serializable group is running, under `condition`: the next waits for it.
    private var serializableRunning = false
    private let threads: Int

    init(connect: @escaping () throws -> PostgresDatabase, threads: Int, maximumWritesPerCommit: Int, maximumAttempts: Int,
         notifier: PostgresNotifier, onRetry: @escaping () -> Void) {
        self.connect = connect
        self.notifier = notifier
        self.threads = max(1, threads)
        self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
        self.maximumAttempts = max(1, maximumAttempts)
        self.onRetry = onRetry
        for index in 0..<self.threads {
            let thread = Thread { [self] in run(WriterConnection()) }
            thread.name = "belay-postgres-writer-\(index + 1)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// How a write's transaction runs: its isolation and, for locked writes, whether its
    /// commit waits for the log's flush. Writes are grouped only with writes of the same one.
    enum Isolation {
        /// Grouped with the other writes queued with it.
        case serializable
        /// Grouped only with other such writes (see `DatabaseStore.lockedWrite`).
        case readCommitted
        /// As `readCommitted`, and the commit does not wait for the log's flush; grouped only
        /// with other such writes (see `DatabaseStore.lockedWriteWithoutWaitingForFlush`).
        case readCommittedWithoutWaitingForFlush

        /// What opens a transaction of this isolation.
        var begin: String {
            switch self {
            case .serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE"
            case .readCommitted: "BEGIN ISOLATION LEVEL READ COMMITTED"
            case .readCommittedWithoutWaitingForFlush: "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL synchronous_commit TO off"
            }
        }
    }

    /// Queues `body`; `completion` gets its result once its group committed (or was lost),
    /// on the writer thread.
    func submit<T>(_ body: @escaping (any Database) throws -> T, isolation: Isolation = .serializable,
                   completion: @escaping (Result<T, any Error>) -> Void) {
        let box = ResultBox<T>()
        let pending = PendingPostgresWrite(
            isolation: isolation,
            run: { database in
                do {
                    box.value = .success(try body(database))
                    return nil
                } catch {
                    box.value = .failure(error)
                    return error
                }
            },
            finish: { failure in
                if let failure {
                    completion(.failure(failure))
                } else {
                    completion(box.value ?? .failure(DatabaseError.unavailable("The write did not run")))
                }
            })
        condition.lock()
        queue.append(pending)
        condition.signal()
        condition.unlock()
    }

    /// Lets the writes queued so far finish, then ends the threads.
    func stop() {
        lifecycle.stop(waiting: false)
    }

    private func run(_ slot: WriterConnection) {
        while let batch = nextBatch() {
            runGroup(batch, on: slot)
            if batch.first?.isolation == .serializable {
                condition.lock()
                serializableRunning = false
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// The next group this thread runs: the oldest queued write that may run now and, up to its
    /// share, the writes of the same isolation queued after it. Nil once stopping with nothing left.
    private func nextBatch() -> [PendingPostgresWrite]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = queue.first(where: { $0.isolation != .serializable || !serializableRunning }) {
                let isolation = first.isolation
                let share: Int
                if isolation == .serializable {
                    share = maximumWritesPerCommit
                    serializableRunning = true
                } else {
                    // Its share, so that the locked writes queued at once run on every thread.
                    let waiting = queue.reduce(0) { $0 + ($1.isolation == isolation ? 1 : 0) }
                    share = min(maximumWritesPerCommit, (waiting + threads - 1) / threads)
                }
                var batch: [PendingPostgresWrite] = []
                var rest: [PendingPostgresWrite] = []
                rest.reserveCapacity(queue.count)
                for pending in queue {
                    if batch.count < share && pending.isolation == isolation { batch.append(pending) } else { rest.append(pending) }
                }
                queue = rest
                return batch
            }
            if queue.isEmpty && lifecycle.isStopping { return nil }
            condition.wait()
        }
    }

    private func runGroup(_ batch: [PendingPostgresWrite], on slot: WriterConnection) {
        var attempt = 1
        while true {
            let outcome = runOnce(batch, on: slot)
            switch outcome {
            case .settled:
                Self.finish(batch, nil)
                return
            case let .conflict(error):
                guard attempt < maximumAttempts else {
                    Self.finish(batch, error)
                    return
                }
                onRetry()
                // Random pauses growing to ~50 ms keep conflicting nodes from meeting again.
                usleep(UInt32.random(in: 100...UInt32(min(50_000, 500 << min(attempt, 7)))))
                attempt += 1
            case let .lost(error):
                Self.finish(batch, error)
                return
            }
        }
    }

    /// Lets go of every body first (a caller's body must not outlive its call), then reports.
    private static func finish(_ batch: [PendingPostgresWrite], _ failure: (any Error)?) {
        for pending in batch { pending.releaseBody() }
        for pending in batch { pending.finish(failure) }
    }

    private enum GroupOutcome {
        /// Every write has its result: the group committed, or its one write failed and was
        /// rolled back.
        case settled
        case conflict(DatabaseError)
        case lost(any Error)
    }

    /// Runs the group in one transaction. The statements around the writes travel together,
    /// each set in one round trip: `BEGIN` with the first `SAVEPOINT`, each `RELEASE` with the
    /// next `SAVEPOINT`, the last `RELEASE` with `COMMIT`. A group of one write needs no
    /// savepoint: its failure rolls the whole transaction back. The `NOTIFY`s the writes asked
    /// for go to the notifier once the group has committed.
    private func runOnce(_ batch: [PendingPostgresWrite], on slot: WriterConnection) -> GroupOutcome {
        let database: PostgresDatabase
        let savepoints = batch.count > 1
        let begin = (batch.first?.isolation ?? .serializable).begin
        do {
            database = try beganTransaction(slot, savepoints ? begin + "; SAVEPOINT belay_write" : begin)
        } catch {
            return lost(error, slot)
        }
        database.channelsToNotify = []
        defer { database.channelsToNotify = nil }
        do {
            for (index, pending) in batch.enumerated() {
                if index > 0 { try database.executeScript("RELEASE SAVEPOINT belay_write; SAVEPOINT belay_write") }
                if let failure = pending.runBody(database) {
                    // A conflict dooms the whole transaction; any other failure only this write.
                    if let conflict = failure as? DatabaseError, conflict.isConflict { throw conflict }
                    guard savepoints else {
                        try database.execute("ROLLBACK")
                        return .settled
                    }
                    try database.execute("ROLLBACK TO SAVEPOINT belay_write")
                }
            }
            try database.executeScript(savepoints ? "RELEASE SAVEPOINT belay_write; COMMIT" : "COMMIT")
            notifier.owe(database.channelsToNotify ?? [])
            return .settled
        } catch {
            return abandon(database, error, slot)
        }
    }

    /// Rolls back after `error` and says whether running the group again may succeed.
    private func abandon(_ database: PostgresDatabase, _ error: any Error, _ slot: WriterConnection) -> GroupOutcome {
        // A COMMIT the server refused for a conflict has already ended the transaction.
        if !database.isBroken && database.isInTransaction { try? database.execute("ROLLBACK") }
        if let error = error as? DatabaseError, error.isConflict { return .conflict(error) }
        return lost(error, slot)
    }

    /// The group failed for `error` (a broken connection is already `unavailable`, see
    /// `PostgresDatabase`); a broken connection is made again for the next group.
    private func lost(_ error: any Error, _ slot: WriterConnection) -> GroupOutcome {
        if slot.database?.isBroken ?? true { slot.database = nil }
        return .lost(error)
    }

    /// The slot's connection with `begin` run on it. A kept connection that turns out broken
    /// at `BEGIN` (the server restarted since its last group) is made again and `BEGIN` sent
    /// once more: nothing of the group has run yet, so its writes need not fail for it.
    private func beganTransaction(_ slot: WriterConnection, _ begin: String) throws -> PostgresDatabase {
        let kept = slot.database.map { !$0.isBroken } ?? false
        let database = try currentConnection(slot)
        do {
            try database.executeScript(begin)
            return database
        } catch {
            guard kept, database.isBroken else { throw error }
            slot.database = nil
            let fresh = try currentConnection(slot)
            try fresh.executeScript(begin)
            return fresh
        }
    }

    private func currentConnection(_ slot: WriterConnection) throws -> PostgresDatabase {
        if let database = slot.database, !database.isBroken { return database }
        slot.database = nil
        let made = try connect()
        slot.database = made
        return made
    }
}

/// A writer thread's connection, made on first use and again after it breaks.
private final class WriterConnection {
    var database: PostgresDatabase?
}

/// One queued write: its body (which may run more than once) and its caller's report.
private final class PendingPostgresWrite: @unchecked Sendable {
    let isolation: PostgresWriter.Isolation
    /// Runs the body; returns the error it threw, nil when it succeeded.
    private var run: ((PostgresDatabase) -> (any Error)?)?
    /// Reports the outcome once; `failure` overrides the body's own result.
    let finish: ((any Error)?) -> Void

    init(isolation: PostgresWriter.Isolation, run: @escaping (PostgresDatabase) -> (any Error)?,
         finish: @escaping ((any Error)?) -> Void) {
        self.isolation = isolation
        self.run = run
        self.finish = finish
    }

    func runBody(_ database: PostgresDatabase) -> (any Error)? {
        guard let run else { return DatabaseError.unavailable("The write was already reported") }
        return run(database)
    }

    func releaseBody() { run = nil }
}

