import BelayStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// The thread that owns a `SQLitePool`'s writer connection and runs every write on it.
///
/// Callers queue a closure and wait. The thread takes all transactional writes queued at that
/// moment (up to `maximumWritesPerCommit`), runs each inside its own savepoint of one
/// `BEGIN IMMEDIATE` transaction and commits once; a write outside a transaction runs alone.
/// A caller is woken only after the thread has let go of its closure, so the closure never
/// outlives the call that passed it.
final class WriterThread: @unchecked Sendable {
    private let connection: ConnectionBox
    private let path: String
    private let maximumWritesPerCommit: Int
    /// Told of every commit; nil for a database without a WAL file (in memory).
    private let writeback: WALWriteback?
    /// The connection's WAL hook points at it, so it lives and runs as long as the
    /// connection does; nil for a database in memory.
    private let checkpointer: BackgroundCheckpointer?
    /// Reports commits once they are on disk; nil reports them as they return.
    private let syncer: CommitSyncer?
    private let lifecycle = ThreadStop()
    /// Guards `queue` and `threadID`.
    private var condition: NSCondition { lifecycle.condition }
    private var queue: [PendingWrite] = []
    private var threadID: pthread_t?

    init(connection: ConnectionBox, path: String, maximumWritesPerCommit: Int, writeback: WALWriteback?,
         checkpointer: BackgroundCheckpointer?, syncer: CommitSyncer? = nil) {
        self.syncer = syncer
        self.connection = connection
        self.path = path
        self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
        self.writeback = writeback
        self.checkpointer = checkpointer
        let thread = Thread { [self] in run() }
        thread.name = "belay-db-writer"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Runs `body` on the writer thread and returns what it returned, once committed.
    /// - Throws: what `body` throws, or the error that lost its transaction (busy, I/O, commit).
    func perform<T>(_ body: (SQLiteDatabase) throws -> T, inTransaction: Bool) throws -> T {
        precondition(!isOnWriterThread && syncer?.isOnSyncThread != true,
                     "SQLitePool.write was called from inside a write or its completion; pass the Database instead, or queue it with write(_:then:)")
        return try withoutActuallyEscaping(body) { body in
            try CompletionWait.result { completion in submit(body, inTransaction: inTransaction, completion: completion) }
        }
    }

    /// Queues `body` and returns at once; `completion` gets what `body` returned (or the error)
    /// once its transaction is committed (or lost). `completion` runs on the writer thread:
    /// it must be quick and must not wait for another write.
    func submit<T>(_ body: @escaping (SQLiteDatabase) throws -> T, inTransaction: Bool,
                   completion: @escaping (Result<T, any Error>) -> Void) {
        let result = ResultBox<T>()
        let pending = PendingWrite(inTransaction: inTransaction, run: { database in
            do {
                result.value = .success(try body(database))
                return true
            } catch {
                result.value = .failure(error)
                return false
            }
        }, finished: { [path] failure in
            switch (result.value, failure) {
            case let (.failure(error)?, _): completion(.failure(error))
            case let (.success?, failure?): completion(.failure(failure))
            case let (.success(value)?, nil): completion(.success(value))
            case (nil, _): completion(.failure(failure ?? DatabaseError.misuse("The write on \(path) did not run")))
            }
        })
        condition.lock()
        queue.append(pending)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread finish the writes queued so far, then end; waits for it unless called
    /// on the thread itself.
    func stop() {
        lifecycle.stop(waiting: !isOnWriterThread)
    }

    private var isOnWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    private func run() {
        condition.lock()
        threadID = pthread_self()
        condition.unlock()
        while let batch = nextBatch() {
            if batch.count == 1, !batch[0].inTransaction {
                runAlone(batch[0])
            } else {
                runInTransactions(batch)
            }
        }
        // Closed here, before waking `stop`, so the connection is never closed by whichever
        // thread happens to drop the last reference (possibly while the process exits).
        syncer?.stop()
        try? connection.database.close()
        writeback?.stop()
        checkpointer?.stop()
        lifecycle.ended()
    }

    /// The next writes to run: one write outside a transaction, or the transactional writes at
    /// the head of the queue. Nil once stopping with nothing left.
    private func nextBatch() -> [PendingWrite]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !lifecycle.isStopping { condition.wait() }
        guard let first = queue.first else { return nil }
        guard first.inTransaction else {
            queue.removeFirst()
            return [first]
        }
        let count = queue.prefix(maximumWritesPerCommit).prefix { $0.inTransaction }.count
        let batch = Array(queue.prefix(count))
        queue.removeFirst(count)
        return batch
    }

    /// Tells the callers of `members` their outcome: at once, or once the commit is on disk.
    private func report(_ members: [PendingWrite]) {
        guard let syncer, members.contains(where: { $0.failure == nil }) else {
            for pending in members { pending.finish() }
            return
        }
        syncer.afterSync { for pending in members { pending.finish() } }
    }

    private func runAlone(_ pending: PendingWrite) {
        _ = pending.takeClosure()(connection.database)
        writeback?.noteCommit()
        report([pending])
    }

    /// Runs `batch` in as few transactions as possible: a new one starts only when SQLite
    /// rolled the last one back on its own (I/O error, disk full), which fails its members.
    private func runInTransactions(_ batch: [PendingWrite]) {
        let database = connection.database
        var next = 0
        while next < batch.count {
            do {
                try database.execute("BEGIN IMMEDIATE")
            } catch {
                for pending in batch[next...] {
                    _ = pending.takeClosure()
                    pending.failure = error
                    pending.finish()
                }
                return
            }
            var members: [PendingWrite] = []
            var transactionLost = false
            while next < batch.count, !transactionLost {
                let pending = batch[next]
                next += 1
                members.append(pending)
                runInSavepoint(pending, on: database)
                transactionLost = !database.isInTransaction
            }
            if transactionLost {
                let lost = DatabaseError.misuse("The write transaction on \(path) ended unexpectedly; nothing was saved")
                for pending in members where pending.failure == nil { pending.failure = lost }
            } else {
                do {
                    try database.execute("COMMIT")
                    writeback?.noteCommit()
                } catch {
                    for pending in members { pending.failure = error }
                    if database.isInTransaction { try? database.execute("ROLLBACK") }
                }
            }
            report(members)
        }
    }

    /// Runs one write inside its own savepoint; a write that throws (or whose savepoint cannot
    /// be released) is rolled back to the savepoint, leaving the others' work in place.
    private func runInSavepoint(_ pending: PendingWrite, on database: SQLiteDatabase) {
        let body = pending.takeClosure()
        do {
            try database.execute("SAVEPOINT belay_write")
        } catch {
            pending.failure = error
            return
        }
        var succeeded = body(database)
        if succeeded {
            do {
                try database.execute("RELEASE belay_write")
            } catch {
                pending.failure = error
                succeeded = false
            }
        }
        if !succeeded, database.isInTransaction {
            try? database.execute("ROLLBACK TO belay_write")
            try? database.execute("RELEASE belay_write")
        }
    }
}

/// One queued write; touched by the writer thread only.
private final class PendingWrite: @unchecked Sendable {
    let inTransaction: Bool
    /// Runs the caller's body and stores its result; returns false when the body threw.
    private var closure: ((SQLiteDatabase) -> Bool)?
    /// Why the write was lost although its body succeeded (busy, commit failed), if it was.
    var failure: (any Error)?
    /// Reports the outcome to the caller, once.
    private var finished: (((any Error)?) -> Void)?

    init(inTransaction: Bool, run closure: @escaping (SQLiteDatabase) -> Bool, finished: @escaping ((any Error)?) -> Void) {
        self.inTransaction = inTransaction
        self.closure = closure
        self.finished = finished
    }

    /// Tells the caller the outcome; called once the write is committed or lost.
    func finish() {
        let report = finished
        finished = nil
        report?(failure)
    }

    /// The closure, which this object no longer holds afterwards (the caller's body must not
    /// outlive its call).
    func takeClosure() -> (SQLiteDatabase) -> Bool {
        defer { closure = nil }
        return closure ?? { _ in false }
    }
}

