#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// What an engine does for the group-commit writer: its connection and the statements that
/// open, divide and end a transaction. The writer decides everything else (which writes share
/// a transaction, savepoints, retries, reporting), the same on every engine.
public protocol GroupCommitEngine: AnyObject, Sendable {
    /// The connection a writer thread runs writes on.
    associatedtype Connection: Database
    /// How writes group: only writes of one kind share a transaction.
    associatedtype Kind: Equatable & Sendable

    /// The connection for a writer thread, made on its first group and again after it broke.
    /// - Throws: the engine's error when it cannot be had (the group fails with it).
    func connect() throws -> Connection
    /// True when `connection` can no longer be used.
    func isBroken(_ connection: Connection) -> Bool
    /// True while a transaction is open on `connection` (false once the engine has rolled it
    /// back on its own, after an I/O error or a lost connection).
    func isInTransaction(_ connection: Connection) -> Bool
    /// Opens a transaction for a group of `kind` and, when `savepoint`, the first write's
    /// savepoint (together, where the engine can send them at once).
    func begin(_ kind: Kind, savepoint: Bool, on connection: Connection) throws
    /// Releases the savepoint of the write before and opens the next write's.
    func nextSavepoint(on connection: Connection) throws
    /// Undoes the current write and leaves its savepoint open for the next.
    func rollbackToSavepoint(on connection: Connection) throws
    /// Commits, first releasing the last write's savepoint when `releasingSavepoint`.
    func commit(releasingSavepoint: Bool, on connection: Connection) throws
    /// Rolls the open transaction back, if any (nothing of it is kept).
    func rollback(on connection: Connection)
    /// The channels the open transaction on `connection` announced work on
    /// (`Database.notifyAtCommit`) since it began.
    func announcedChannels(on connection: Connection) -> Set<String>
    /// True when groups of `kind` run one at a time whichever thread takes them.
    func runsOneGroupAtATime(_ kind: Kind) -> Bool
    /// A group (or a write outside any transaction) has committed on `connection`; `report`
    /// tells its callers, at once or once the commit is on disk.
    func committed(on connection: Connection, report: @escaping @Sendable () -> Void)
    /// A writer thread ends; `connection` is its connection, if it made one.
    func writerEnded(with connection: Connection?)
}

/// Runs a store's writes on writer threads of its own, each with one connection: a thread
/// takes the writes queued at that moment (its share of them, up to `maximumWritesPerCommit`,
/// all of one kind) and runs them in one transaction, each in its own savepoint, then commits
/// once, so a commit's round trips and flush are shared. A write that throws rolls back only
/// its savepoint; a group of one needs no savepoint.
///
/// When the engine aborts the transaction for a conflict with another one (`DatabaseError`
/// whose `isConflict`), the whole group is rolled back and run again after a short random
/// pause, up to `maximumAttempts` times; a write's caller hears only of the run that
/// committed, so a write body must do nothing but talk to the database it is given. When the
/// transaction ends under the writes (the engine rolled it back on its own, the connection
/// broke), the writes run so far fail and the rest run in a new transaction.
///
/// A caller is told its outcome only after the thread has let go of its body, so the body
/// never outlives the call that passed it. After the callers of a committed group have been
/// told, the writer runs the `wakes` registered for the channels the group announced work on.
public final class GroupCommitWriter<Engine: GroupCommitEngine>: @unchecked Sendable {
    private let engine: Engine
    private let maximumWritesPerCommit: Int
    private let maximumAttempts: Int
    private let onRetry: @Sendable () -> Void
    private let location: String
    private let threadCount: Int
    /// Guards everything below.
    private let condition = NSCondition()
    private var queue: [PendingWrite] = []
    private var isStopping = false
    /// A group of a kind that runs one at a time is running: the next waits for it.
    private var exclusiveGroupRunning = false
    private var threadIDs: [pthread_t] = []
    private var threadsEnded = 0
    private let commits = Atomic<UInt64>(0)

    /// What runs after a commit that announced work on a channel.
    public let wakes = WorkWakes()

    /// How many transactions (and writes outside one) this writer has committed so far.
    public var commitCount: UInt64 { commits.load(ordering: .acquiring) }

    /// Starts `threads` writer threads.
    /// - Parameters:
    ///   - location: where the data is, for messages.
    ///   - maximumAttempts: how many times a group runs before a conflict is reported.
    ///   - onRetry: told each time a group runs again after a conflict.
    public init(engine: Engine, location: String, threads: Int = 1, threadName: String, maximumWritesPerCommit: Int,
                maximumAttempts: Int = 1, onRetry: @escaping @Sendable () -> Void = {}) {
        self.engine = engine
        self.location = location
        threadCount = max(1, threads)
        self.maximumWritesPerCommit = max(1, maximumWritesPerCommit)
        self.maximumAttempts = max(1, maximumAttempts)
        self.onRetry = onRetry
        for index in 0..<threadCount {
            let thread = Thread { [self] in run() }
            thread.name = threadCount == 1 ? threadName : "\(threadName)-\(index + 1)"
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Runs `body` on a writer thread and returns what it returned, once committed.
    /// - Parameter inTransaction: false runs it alone, outside any transaction (for statements
    ///   that cannot run in one, or that manage their own).
    /// - Throws: what `body` throws, or the error that lost its transaction.
    public func perform<T>(_ body: (Engine.Connection) throws -> T, kind: Engine.Kind, inTransaction: Bool = true) throws -> T {
        precondition(!isOnWriterThread, "A write was made from inside a write or its completion; pass the Database instead, or queue it with write(_:then:)")
        return try withoutActuallyEscaping(body) { body in
            try CompletionWait.result { completion in submit(body, kind: kind, inTransaction: inTransaction, completion: completion) }
        }
    }

    /// Queues `body` and returns at once; `completion` gets what `body` returned (or the error)
    /// once its transaction has committed (or was lost), on a writer thread (or wherever the
    /// engine reports commits): it must be quick and must not wait for another write.
    public func submit<T>(_ body: @escaping (Engine.Connection) throws -> T, kind: Engine.Kind, inTransaction: Bool = true,
                          completion: @escaping (Result<T, any Error>) -> Void) {
        let box = ResultBox<T>()
        let pending = PendingWrite(kind: kind, inTransaction: inTransaction, run: { database in
            do {
                box.value = .success(try body(database))
                return nil
            } catch {
                box.value = .failure(error)
                return error
            }
        }, failLate: { error in
            box.value = .failure(error)
        }, finish: { [location] failure in
            if let failure {
                completion(.failure(failure))
            } else {
                completion(box.value ?? .failure(DatabaseError.misuse("The write on \(location) did not run")))
            }
        })
        condition.lock()
        queue.append(pending)
        condition.signal()
        condition.unlock()
    }

    /// Lets the threads finish the writes queued so far, then end; waits for them when
    /// `waiting` (never on a writer thread itself).
    public func stop(waiting: Bool = true) {
        condition.lock()
        isStopping = true
        condition.broadcast()
        let mayWait = waiting && !threadIDs.contains { pthread_equal($0, pthread_self()) != 0 }
        while mayWait && threadsEnded < threadCount { condition.wait() }
        condition.unlock()
    }

    /// True on one of this writer's threads.
    var isOnWriterThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadIDs.contains { pthread_equal($0, pthread_self()) != 0 }
    }

    private func run() {
        condition.lock()
        threadIDs.append(pthread_self())
        condition.unlock()
        let slot = ConnectionSlot()
        while let batch = nextBatch() {
            if batch.count == 1, !batch[0].inTransaction {
                runAlone(batch[0], on: slot)
            } else {
                runGroup(batch, on: slot)
            }
            if let kind = batch.first?.kind, engine.runsOneGroupAtATime(kind) {
                condition.lock()
                exclusiveGroupRunning = false
                condition.broadcast()
                condition.unlock()
            }
        }
        engine.writerEnded(with: slot.connection)
        condition.lock()
        threadsEnded += 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next writes this thread runs: a write outside any transaction alone, or the oldest
    /// write that may run now with, up to its share, the writes of its kind queued after it
    /// (never past a write outside any transaction). Nil once stopping with nothing left.
    private func nextBatch() -> [PendingWrite]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = queue.firstIndex(where: { !engine.runsOneGroupAtATime($0.kind) || !exclusiveGroupRunning }) {
                let first = queue[index]
                guard first.inTransaction else {
                    queue.remove(at: index)
                    if engine.runsOneGroupAtATime(first.kind) { exclusiveGroupRunning = true }
                    return [first]
                }
                let kind = first.kind
                let exclusive = engine.runsOneGroupAtATime(kind)
                let eligible = queue[index...].prefix { $0.inTransaction }
                let share: Int
                if exclusive || threadCount == 1 {
                    share = maximumWritesPerCommit
                } else {
                    // Its share, so that the writes queued at once run on every thread.
                    let waiting = eligible.reduce(0) { $0 + ($1.kind == kind ? 1 : 0) }
                    share = min(maximumWritesPerCommit, (waiting + threadCount - 1) / threadCount)
                }
                if exclusive { exclusiveGroupRunning = true }
                // One pass: the batch out, the rest kept in their order.
                var batch: [PendingWrite] = []
                var rest: [PendingWrite] = []
                rest.reserveCapacity(queue.count)
                for (position, pending) in queue.enumerated() {
                    if eligible.indices.contains(position) && batch.count < share && pending.kind == kind {
                        batch.append(pending)
                    } else {
                        rest.append(pending)
                    }
                }
                queue = rest
                return batch
            }
            if queue.isEmpty && isStopping { return nil }
            condition.wait()
        }
    }

    private func runAlone(_ pending: PendingWrite, on slot: ConnectionSlot) {
        let connection: Engine.Connection
        do {
            connection = try currentConnection(slot)
        } catch {
            Self.finish([pending], failure: error)
            return
        }
        _ = pending.runBody(connection)
        pending.releaseBody()
        commits.add(1, ordering: .releasing)
        engine.committed(on: connection) { pending.report(nil) }
    }

    /// Runs `batch`, again after a conflict, until every write has its outcome.
    private func runGroup(_ batch: [PendingWrite], on slot: ConnectionSlot) {
        var attempt = 1
        var remaining = batch[...]
        while !remaining.isEmpty {
            switch runOnce(remaining, on: slot) {
            case let .settled(count):
                remaining = remaining.dropFirst(count)
            case let .conflict(error):
                guard attempt < maximumAttempts else {
                    Self.finish(Array(remaining), failure: error)
                    return
                }
                onRetry()
                // Random pauses growing to ~50 ms keep conflicting nodes from meeting again.
                usleep(UInt32.random(in: 100...UInt32(min(50_000, 500 << min(attempt, 7)))))
                attempt += 1
            case let .lost(error):
                Self.finish(Array(remaining), failure: error)
                return
            }
        }
    }

    private enum GroupOutcome {
        /// The first `count` writes have their outcome (committed, failed alone, or lost with
        /// the transaction that ended under them); the rest run in a new transaction.
        case settled(count: Int)
        /// The engine aborted the transaction for a conflict: the whole group runs again.
        case conflict(DatabaseError)
        /// The transaction could not be had or committed: every write of the group fails.
        case lost(any Error)
    }

    /// Runs `batch` in one transaction.
    private func runOnce(_ batch: ArraySlice<PendingWrite>, on slot: ConnectionSlot) -> GroupOutcome {
        guard let kind = batch.first?.kind else { return .settled(count: 0) }
        let savepoints = batch.count > 1
        let connection: Engine.Connection
        do {
            connection = try beganTransaction(kind, savepoint: savepoints, on: slot)
        } catch {
            return lost(error, slot)
        }
        var members: [PendingWrite] = []
        do {
            for pending in batch {
                if let previous = members.last {
                    do {
                        try engine.nextSavepoint(on: connection)
                    } catch let late as LaterStatementFailure {
                        if let outcome = try failLate(previous, late, members, savepoints: savepoints, on: connection) { return outcome }
                    }
                }
                members.append(pending)
                let failure = pending.runBody(connection)
                if let outcome = try settle(failure, members, savepoints: savepoints, on: connection) { return outcome }
            }
            while true {
                do {
                    try engine.commit(releasingSavepoint: savepoints, on: connection)
                    break
                } catch let late as LaterStatementFailure {
                    guard let last = members.last else { throw late.error }
                    if let outcome = try failLate(last, late, members, savepoints: savepoints, on: connection) { return outcome }
                }
            }
        } catch {
            // A commit the engine refused for a conflict has already ended the transaction.
            if !engine.isBroken(connection) && engine.isInTransaction(connection) { engine.rollback(on: connection) }
            if let conflict = error as? DatabaseError, conflict.isConflict { return .conflict(conflict) }
            return lost(error, slot)
        }
        let committed = members
        for pending in committed { pending.releaseBody() }
        commits.add(1, ordering: .releasing)
        let announced = engine.announcedChannels(on: connection)
        engine.committed(on: connection) { [wakes] in
            Self.report(committed, otherwise: nil)
            wakes.wake(announced)
        }
        return .settled(count: members.count)
    }

    /// The last of `members` has run, `failure` its error (nil when it succeeded): nil when the
    /// group goes on (a failed write alone rolled back to its savepoint), or the outcome of the
    /// group so far.
    /// - Throws: a conflict, which dooms the whole transaction; any other failure only its write.
    private func settle(_ failure: (any Error)?, _ members: [PendingWrite], savepoints: Bool,
                        on connection: Engine.Connection) throws -> GroupOutcome? {
        if let conflict = failure as? DatabaseError, conflict.isConflict { throw conflict }
        guard engine.isInTransaction(connection) else {
            // The engine ended the transaction under the writes (an I/O error, a lost
            // connection): those run so far are lost with it; the rest run in a new one.
            let gone = (failure as? DatabaseError).flatMap { $0.cause == .serverGone ? $0 : nil }
            Self.finish(members, otherwise: gone
                ?? DatabaseError.misuse("The write transaction on \(location) ended unexpectedly; nothing was saved"))
            return .settled(count: members.count)
        }
        guard failure != nil else { return nil }
        guard savepoints else {
            engine.rollback(on: connection)
            Self.finish(members, otherwise: nil)
            return .settled(count: members.count)
        }
        try engine.rollbackToSavepoint(on: connection)
        return nil
    }

    /// `write`, which ran without throwing, failed at its end (a statement it sent for later):
    /// that is its result, and it is settled as a write that threw.
    private func failLate(_ write: PendingWrite, _ late: LaterStatementFailure, _ members: [PendingWrite], savepoints: Bool,
                          on connection: Engine.Connection) throws -> GroupOutcome? {
        write.failLate(late.error)
        return try settle(late.error, members, savepoints: savepoints, on: connection)
    }

    /// The group failed for `error`; a broken connection is made again for the next group.
    private func lost(_ error: any Error, _ slot: ConnectionSlot) -> GroupOutcome {
        if let connection = slot.connection, engine.isBroken(connection) { slot.connection = nil }
        return .lost(error)
    }

    /// The slot's connection with a transaction begun on it. A kept connection that turns out
    /// broken at `BEGIN` (a server restarted since its last group) is made again and the
    /// transaction begun once more: nothing of the group has run yet.
    private func beganTransaction(_ kind: Engine.Kind, savepoint: Bool, on slot: ConnectionSlot) throws -> Engine.Connection {
        let kept = slot.connection.map { !engine.isBroken($0) } ?? false
        let connection = try currentConnection(slot)
        do {
            try engine.begin(kind, savepoint: savepoint, on: connection)
            return connection
        } catch {
            guard kept, engine.isBroken(connection) else { throw error }
            slot.connection = nil
            let fresh = try currentConnection(slot)
            try engine.begin(kind, savepoint: savepoint, on: fresh)
            return fresh
        }
    }

    private func currentConnection(_ slot: ConnectionSlot) throws -> Engine.Connection {
        if let connection = slot.connection, !engine.isBroken(connection) { return connection }
        slot.connection = nil
        let made = try engine.connect()
        slot.connection = made
        return made
    }

    /// Lets go of every body first (a caller's body must not outlive its call), then reports
    /// `failure` to every write, whatever its body did.
    private static func finish(_ writes: [PendingWrite], failure: any Error) {
        for pending in writes { pending.releaseBody() }
        for pending in writes { pending.report(failure) }
    }

    /// Lets go of every body, then reports: a write whose body threw hears its own error, the
    /// others `otherwise` (nil: their result).
    private static func finish(_ writes: [PendingWrite], otherwise: (any Error)?) {
        for pending in writes { pending.releaseBody() }
        report(writes, otherwise: otherwise)
    }

    private static func report(_ writes: [PendingWrite], otherwise: (any Error)?) {
        for pending in writes { pending.report(pending.bodyFailed ? nil : otherwise) }
    }

    /// A writer thread's connection, made on first use and again after it breaks.
    private final class ConnectionSlot {
        var connection: Engine.Connection?
    }

    /// One queued write: its body (which may run more than once) and its caller's report.
    private final class PendingWrite: @unchecked Sendable {
        let kind: Engine.Kind
        let inTransaction: Bool
        /// Runs the body and keeps its result; returns the error it threw, nil when it succeeded.
        private var run: ((Engine.Connection) -> (any Error)?)?
        /// Reports the outcome once; a failure overrides the body's own result.
        private var finish: (((any Error)?) -> Void)?

        /// Replaces the body's result with the error it met at its end.
        private let recordLateFailure: (any Error) -> Void

        init(kind: Engine.Kind, inTransaction: Bool, run: @escaping (Engine.Connection) -> (any Error)?,
             failLate: @escaping (any Error) -> Void, finish: @escaping ((any Error)?) -> Void) {
            self.kind = kind
            self.inTransaction = inTransaction
            self.run = run
            recordLateFailure = failLate
            self.finish = finish
        }

        /// The body returned, but a statement it sent for later failed: that is its result.
        func failLate(_ error: any Error) {
            recordLateFailure(error)
            bodyFailed = true
        }

        /// True when the body's last run threw (its own error is its result).
        private(set) var bodyFailed = false

        func runBody(_ connection: Engine.Connection) -> (any Error)? {
            guard let run else { return DatabaseError.misuse("The write was already reported") }
            let failure = run(connection)
            bodyFailed = failure != nil
            return failure
        }

        /// The caller's body must not outlive its call: dropped before the report.
        func releaseBody() { run = nil }

        func report(_ failure: (any Error)?) {
            let report = finish
            finish = nil
            report?(failure)
        }
    }
}
