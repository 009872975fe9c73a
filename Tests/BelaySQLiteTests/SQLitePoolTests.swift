@testable import BelaySQLite
@testable import BelayStorage
import BelayTestSupport
import CSQLiteShim
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct SQLitePoolTests {
    let directory: TemporaryDirectory
    let pool: SQLitePool

    init() throws {
        directory = try TemporaryDirectory()
        pool = try SQLitePool(path: directory.file("pool.sqlite"))
        try pool.write { try $0.execute("CREATE TABLE counters (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)") }
    }

    @Test func writeRollsBackWhenTheBodyThrows() throws {
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try pool.write { db in
                try db.execute("INSERT INTO counters (value) VALUES (?)", [1])
                throw Abort()
            }
        }
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM counters", as: Int64.self) } == 0)
    }

    @Test func readersCannotWrite() throws {
        let error = try #require(throws: DatabaseError.self) {
            try pool.read { try $0.execute("INSERT INTO counters (value) VALUES (1)") }
        }
        #expect(error.resultCode == 8) // SQLITE_READONLY
    }

    @Test func writesFromManyThreadsAreSerialised() throws {
        try pool.write { try $0.execute("INSERT INTO counters (id, value) VALUES (1, 0)") }
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                do {
                    try pool.write { db in
                        let value = try db.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) ?? 0
                        try db.execute("UPDATE counters SET value = ? WHERE id = 1", [value + 1])
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try pool.read { try $0.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) } == 400)
    }

    @Test func concurrentWritesAreCommittedWhenWriteReturnsAndAFailureLosesOnlyItsOwnChanges() throws {
        struct Refused: Error {}
        let problems = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<100 {
                let id = Int64(thread * 1_000 + index)
                do {
                    try pool.write { db in
                        try db.execute("INSERT INTO counters (id, value) VALUES (?, ?)", [id, thread])
                        if index % 10 == 3 { throw Refused() }
                    }
                    // Read-your-writes: committed before write returned.
                    let seen = try pool.read { try $0.scalar("SELECT value FROM counters WHERE id = ?", [id], as: Int64.self) }
                    if seen != Int64(thread) { problems.withLock { $0.append("row \(id) not visible after write") } }
                } catch is Refused {
                    continue
                } catch {
                    problems.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(problems.withLock { $0 } == [])
        let stored = try pool.read { db in try db.query("SELECT id FROM counters ORDER BY id") { try $0.get(0, as: Int64.self) } }
        let expected = (0..<8).flatMap { thread in (0..<100).filter { $0 % 10 != 3 }.map { Int64(thread * 1_000 + $0) } }
        #expect(stored == expected.sorted())
    }

    @Test func aWriteThatBreaksTheTransactionFailsOnlyItsGroup() throws {
        // A constraint failure inside a savepoint rolls back only that write.
        try pool.write { try $0.execute("INSERT INTO counters (id, value) VALUES (1, 1)") }
        #expect(throws: DatabaseError.self) {
            try pool.write { try $0.execute("INSERT INTO counters (id, value) VALUES (1, 2)") }
        }
        try pool.write { try $0.execute("INSERT INTO counters (id, value) VALUES (2, 2)") }
        #expect(try pool.read { try $0.scalar("SELECT sum(value) FROM counters", as: Int64.self) } == 3)
        // A nested transaction is refused without disturbing the writer.
        #expect(throws: DatabaseError.self) { try pool.write { db in try (db as? SQLiteDatabase)?.transaction { } } }
        try pool.writeWithoutTransaction { db in #expect(!db.isInTransaction) }
    }

    @Test func readersRunConcurrently() throws {
        // Each reader waits inside its read until the other has entered its own: this can
        // only finish if two reads are in progress at the same time.
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let mine = index == 0 ? first : second
            let theirs = index == 0 ? second : first
            let met = (try? pool.read { db -> Bool in
                _ = try db.scalar("SELECT count(*) FROM counters", as: Int64.self)
                mine.signal()
                return theirs.wait(timeout: .now() + 10) == .success
            }) ?? false
            outcomes.withLock { $0.append(met) }
        }
        #expect(outcomes.withLock { $0 } == [true, true])
    }

    @Test func readersSeeCommittedWritesAndOneSnapshot() throws {
        try pool.write { try $0.execute("INSERT INTO counters (value) VALUES (1)") }
        let counts = try pool.read { db -> (Int64?, Int64?) in
            let before = try db.scalar("SELECT count(*) FROM counters", as: Int64.self)
            try pool.write { try $0.execute("INSERT INTO counters (value) VALUES (2)") }
            let after = try db.scalar("SELECT count(*) FROM counters", as: Int64.self)
            return (before, after)
        }
        #expect(counts.0 == 1)
        #expect(counts.1 == 1)
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM counters", as: Int64.self) } == 2)
    }

    @Test func backupIsConsistentWhileAnotherConnectionWrites() throws {
        let stop = Atomic<Bool>(false)
        let written = Atomic<Int>(0)
        let writerDone = DispatchSemaphore(value: 0)
        let writerStarted = DispatchSemaphore(value: 0)
        // A second, independent connection plays the part of the running server.
        let path = directory.file("pool.sqlite")
        Thread.detachNewThread {
            defer { writerDone.signal() }
            guard let server = try? SQLiteDatabase(path: path) else { writerStarted.signal(); return }
            while !stop.load(ordering: .relaxed) {
                do {
                    try server.transaction {
                        for value in 0..<20 { try server.execute("INSERT INTO counters (value) VALUES (?)", [value]) }
                    }
                    if written.add(1, ordering: .relaxed).newValue == 5 { writerStarted.signal() }
                } catch {
                    if written.load(ordering: .relaxed) < 5 { writerStarted.signal() }
                    return
                }
            }
        }
        writerStarted.wait()
        let destination = directory.file("backup.sqlite")
        try pool.backup(to: destination)
        stop.store(true, ordering: .relaxed)
        writerDone.wait()
        #expect(written.load(ordering: .relaxed) >= 5)

        let copy = try SQLiteDatabase(path: destination)
        #expect(try copy.check().isHealthy)
        let rows = try copy.scalar("SELECT count(*) FROM counters", as: Int64.self) ?? 0
        #expect(rows > 0)
        #expect(rows % 20 == 0, "a backup holds whole transactions only")
        #expect(!FileManager.default.fileExists(atPath: destination + ".partial"))
    }

    @Test func anInsertThatMayDoNothingAnswersTheNewIDOrNil() throws {
        try pool.write { try $0.execute("CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        let insert = "INSERT INTO names (name) VALUES (?) ON CONFLICT (name) DO NOTHING"
        let first = try pool.write { try $0.insertedID(insert, ["flash"]) }
        let second = try pool.write { try $0.insertedID(insert, ["send"]) }
        let again = try pool.write { try $0.insertedID(insert, ["flash"]) }
        #expect(first != nil && second != nil && first != second)
        #expect(again == nil, "a row already there is no new id, not the last one written")
        #expect(try pool.read { try $0.scalar("SELECT id FROM names WHERE name = 'send'", as: Int64.self) } == second)
    }

    @Test func aQueuedWriteReportsItsCommittedResultOrItsErrorWithoutHoldingTheCaller() throws {
        struct Refused: Error {}
        let results = Mutex<[Int: Result<Int64, any Error>]>([:])
        let done = DispatchGroup()
        for index in 0..<20 {
            done.enter()
            pool.write({ db -> Int64 in
                if index == 7 { throw Refused() }
                return try db.insertReturningID("INSERT INTO counters (value) VALUES (?) RETURNING id", [index])
            }, then: { result in
                results.withLock { $0[index] = result }
                done.leave()
            })
        }
        done.wait()
        let outcomes = results.withLock { $0 }
        #expect(outcomes.count == 20)
        #expect(throws: Refused.self) { try outcomes[7]!.get() }
        let ids = try (0..<20).filter { $0 != 7 }.map { try outcomes[$0]!.get() }
        #expect(Set(ids).count == 19, "every other write committed its own row")
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM counters", as: Int64.self) } == 19)
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM counters WHERE value = 7", as: Int64.self) } == 0)
    }

    /// Holds a pool and lets go of it, in its own deinitialiser, before saying it is gone.
    private final class PoolHolder: @unchecked Sendable {
        var pool: SQLitePool?
        let gone: DispatchSemaphore
        init(_ pool: SQLitePool, gone: DispatchSemaphore) {
            self.pool = pool
            self.gone = gone
        }
        deinit {
            pool = nil
            gone.signal()
        }
    }

    @Test func aPoolWhoseLastReferenceGoesWithAWritesCompletionStopsWithoutWaitingForItself() throws {
        let directory = try TemporaryDirectory()
        let gone = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        do {
            // Full durability: the completion runs on the pool's sync thread, which the writer
            // thread waits for when it ends.
            let holder = PoolHolder(try SQLitePool(path: directory.file("last.sqlite")), gone: gone)
            holder.pool?.write({ _ in release.wait() }, then: { _ in _ = holder })
        }
        release.signal()
        #expect(gone.wait(timeout: .now() + 20) == .success, "the pool's deinitialiser returned")
    }

    @Test func checkpointsKeepTheWALBoundedAndLoseNothingUnderAStreamOfCommits() throws {
        let path = directory.file("checkpointed.sqlite")
        let pages = 64
        let pool = try SQLitePool(path: path, configuration: DatabaseConfiguration(walAutocheckpointPages: pages))
        try pool.write { try $0.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)") }
        var largestWAL: Int64 = 0
        for batch in 0..<300 {
            try pool.write { db in
                for _ in 0..<4 { try db.execute("INSERT INTO rows (data) VALUES (randomblob(1000))") }
            }
            if batch % 10 == 0 {
                let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)??.int64Value ?? 0
                largestWAL = max(largestWAL, wal)
            }
        }
        // Eight times wal_autocheckpoint is the bound the writer's hook enforces.
        #expect(largestWAL <= Int64(8 * pages + 16) * (4096 + 24), "the WAL reached \(largestWAL) bytes")
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM rows", as: Int64.self) } == 1200)
        let (log, copied) = try pool.writeWithoutTransaction { db -> (Int64, Int64) in
            try db.queryOne("PRAGMA wal_checkpoint(PASSIVE)") { (try $0.get(1, as: Int64.self), try $0.get(2, as: Int64.self)) }!
        }
        #expect(copied == log, "a final checkpoint copies whatever is left")
        let reopened = try SQLiteDatabase(path: path, readOnly: true)
        #expect(try reopened.scalar("SELECT count(*) FROM rows", as: Int64.self) == 1200)
    }

    @Test func theFileGrowsInWholeStepsAndReadsAreNotMemoryMapped() throws {
        let step: Int32 = 1 << 20
        let path = directory.file("chunked.sqlite")
        let pool = try SQLitePool(path: path, configuration: DatabaseConfiguration(fileGrowthChunkBytes: step))
        try pool.write { try $0.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)") }
        for _ in 0..<3 {
            try pool.write { db in
                for _ in 0..<100 { try db.execute("INSERT INTO blobs (data) VALUES (randomblob(4000))") }
            }
        }
        _ = try pool.writeWithoutTransaction { try $0.scalar("PRAGMA wal_checkpoint(PASSIVE)", as: Int64.self) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).int64Value
        #expect(size >= 2 * Int64(step) && size % Int64(step) == 0, "1.2 MB of rows in 1 MiB steps: \(size) bytes")
        #expect(try pool.read { try $0.scalar("PRAGMA mmap_size", as: Int64.self) } == 0)
    }

    @Test func writebackOfTheWALIsStartedForAFileAndSkippedWhenThereIsNone() throws {
        try pool.write { try $0.execute("INSERT INTO counters (value) VALUES (1)") }
        #expect(belay_start_writeback(directory.file("pool.sqlite-wal")) == 0)
        #expect(belay_start_writeback(directory.file("missing.sqlite-wal")) == ENOENT)
    }

    @Test func backupToAMissingDirectoryFailsClearly() throws {
        let error = try #require(throws: DatabaseError.self) {
            try pool.backup(to: directory.file("no/such/dir/backup.sqlite"))
        }
        #expect(error.description.contains("cannot create the backup file"))
    }
}

/// Full durability with the commit syncer: every write is reported after its group's WAL
/// sync, all of them arrive, in order per caller, and a stopped pool reports what it held.
@Suite struct CommitSyncerTests {
    @Test func concurrentWritesAreAllReportedAndKept() throws {
        let directory = try TemporaryDirectory()
        let pool = try SQLitePool(path: directory.file("synced.sqlite"))
        try pool.write { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)") }
        let done = DispatchGroup()
        let reported = Mutex(0)
        for value in 0..<400 {
            done.enter()
            pool.write({ db in try db.execute("INSERT INTO t (v) VALUES (?)", [Int64(value)]) }, then: { result in
                if case .success = result { reported.withLock { $0 += 1 } }
                done.leave()
            })
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(reported.withLock { $0 } == 400)
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 400)
        // Synchronous writes from other threads meanwhile still return.
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            _ = try? pool.write { try $0.execute("INSERT INTO t (v) VALUES (?)", [Int64(1_000 + index)]) }
        }
        #expect(try pool.read { try $0.scalar("SELECT count(*) FROM t", as: Int64.self) } == 408)
    }
}
