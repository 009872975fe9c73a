@testable import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// The group-commit writer's own rules, run on SQLite's engine hooks with the writer held by a
/// first write so that the writes queued meanwhile form one group: a failing write loses only
/// itself, a transaction that ends under the writes fails those run so far while the rest run in
/// a new one, and a conflict runs the whole group again.
@Suite struct GroupCommitWriterTests {
    /// A pool whose writer is held by a first write until `release` is signalled. It returns
    /// once that write runs, so that what is queued next cannot join its group.
    private func heldPool() throws -> (SQLitePool, DispatchSemaphore, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let pool = try SQLitePool(path: directory.file("group.sqlite3"))
        try pool.write { try $0.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        pool.write({ _ in
            holding.signal()
            release.wait()
        }, then: { _ in })
        holding.wait()
        return (pool, release, directory)
    }

    /// Queues `bodies` behind the held write, releases it, and returns each write's outcome.
    private func runAsOneGroup(_ pool: SQLitePool, release: DispatchSemaphore,
                               _ bodies: [@Sendable (any Database) throws -> Void]) -> [Result<Void, any Error>] {
        let outcomes = Mutex<[Int: Result<Void, any Error>]>([:])
        let done = DispatchGroup()
        for (index, body) in bodies.enumerated() {
            done.enter()
            pool.write(body, then: { result in
                outcomes.withLock { $0[index] = result }
                done.leave()
            })
        }
        release.signal()
        done.wait()
        return outcomes.withLock { all in bodies.indices.map { all[$0] ?? .failure(DatabaseError.misuse("no outcome")) } }
    }

    private func names(_ pool: SQLitePool) throws -> [String] {
        try pool.read { try $0.query("SELECT name FROM item ORDER BY name") { try $0.get("name", as: String.self) } }
    }

    @Test func aWriteThatThrowsLosesOnlyItselfInItsGroup() throws {
        let (pool, release, directory) = try heldPool()
        defer { _ = directory }
        let outcomes = runAsOneGroup(pool, release: release, [
            { try $0.execute("INSERT INTO item (name) VALUES ('a')") },
            { db in
                try db.execute("INSERT INTO item (name) VALUES ('b')")
                try db.execute("INSERT INTO item (name) VALUES ('a')") // a unique violation: 'b' goes with it
            },
            { try $0.execute("INSERT INTO item (name) VALUES ('c')") },
        ])
        #expect(outcomes[0].isSuccess)
        #expect((outcomes[1].failure as? DatabaseError)?.isUniqueConstraintViolation == true)
        #expect(outcomes[2].isSuccess)
        #expect(try names(pool) == ["a", "c"])
    }

    @Test func aTransactionThatEndsUnderItsWritesFailsThoseRunSoFarAndTheRestRunInANewOne() throws {
        let (pool, release, directory) = try heldPool()
        defer { _ = directory }
        let outcomes = runAsOneGroup(pool, release: release, [
            { try $0.execute("INSERT INTO item (name) VALUES ('a')") },
            { db in
                // What SQLite does on its own after an I/O error: the transaction is gone.
                try db.execute("ROLLBACK")
                throw DatabaseError.misuse("the disk went away")
            },
            { try $0.execute("INSERT INTO item (name) VALUES ('c')") },
        ])
        #expect(outcomes[0].failure.map { "\($0)" }?.contains("ended unexpectedly") == true,
                "a write whose transaction was lost hears so, not success")
        #expect(outcomes[1].failure.map { "\($0)" } == "the disk went away", "the write that failed hears its own error")
        #expect(outcomes[2].isSuccess, "the writes after it ran in a new transaction")
        #expect(try names(pool) == ["c"])
    }

    @Test func aConflictRunsTheWholeGroupAgainAndItsCallersHearOnlyOfTheRunThatCommitted() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("retry.sqlite3"))
        try database.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        let engine = SQLiteWriterEngine(connection: ConnectionBox(database), writeback: nil, checkpointer: nil, syncer: nil)
        let writer = GroupCommitWriter(engine: engine, location: "retry.sqlite3", threadName: "test-writer",
                                       maximumWritesPerCommit: 8, maximumAttempts: 3)
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        writer.submit({ _ in
            holding.signal()
            release.wait()
        }, kind: .write, completion: { _ in })
        holding.wait()
        let runs = Atomic<Int>(0)
        let outcomes = Mutex<[Int]>([])
        let done = DispatchGroup()
        let bodies: [(SQLiteDatabase) throws -> Int] = [
            { db in
                try db.execute("INSERT INTO item (name) VALUES ('a')")
                return 1
            },
            { _ in
                // Conflicts twice, as a serializable transaction can, then goes through.
                guard runs.add(1, ordering: .relaxed).newValue >= 3 else {
                    throw DatabaseError.engine(label: "test error 40001", code: "40001", message: "conflict", sql: nil, cause: .conflict)
                }
                return 2
            },
        ]
        for body in bodies {
            done.enter()
            writer.submit(body, kind: .write, completion: { result in
                if case let .success(value) = result { outcomes.withLock { $0.append(value) } }
                done.leave()
            })
        }
        release.signal()
        done.wait()
        let count = try writer.perform({ db in try db.scalar("SELECT count(*) FROM item", as: Int.self) }, kind: .write)
        writer.stop()
        #expect(runs.load(ordering: .relaxed) == 3, "the group ran three times")
        #expect(outcomes.withLock { $0.sorted() } == [1, 2], "each caller hears of the run that committed")
        #expect(count == 1, "the first write was kept once, not three times")
    }
}

private extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }

    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
