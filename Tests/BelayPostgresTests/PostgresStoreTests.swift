import BelayPostgres
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// The PostgreSQL store against a throwaway server: conflicting writes are run again until
/// they commit, a lost connection is a retryable error and is made again, statements have a
/// time limit, and values read back as the repositories expect.
@Suite(.serialized) struct PostgresStoreTests {
    let cluster: PostgresCluster

    init() throws {
        cluster = try PostgresCluster()
        try cluster.createDatabase("store")
    }

    private func store(timeout: Int = 5_000, writers: Int = 2) throws -> PostgresStore {
        try PostgresStore(settings: PostgresStore.Settings(url: cluster.url(database: "store"), maximumConnections: 4,
                                                           writerConnections: writers, statementTimeoutMilliseconds: timeout))
    }

    /// Adds 1 to counter 1, `count` times, each a write that reads the value, pauses and writes
    /// it back (two of these at once conflict under SERIALIZABLE). Returns the errors.
    private static func increments(_ count: Int, of store: PostgresStore, pausing microseconds: useconds_t) -> [String] {
        var failures: [String] = []
        for _ in 0..<count {
            do {
                try store.write { db in
                    let value = try db.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) ?? 0
                    usleep(microseconds)
                    try db.execute("UPDATE counters SET value = ? WHERE id = 1", [value + 1])
                }
            } catch {
                failures.append("\(error)")
            }
        }
        return failures
    }

    @Test func conflictingReadModifyWritesFromTwoNodesAllCommitExactlyOnce() throws {
        // Two stores are two nodes, each writing on two connections: each connection groups
        // its share of the writes, and the server aborts a group that conflicts with another
        // connection's, of this node or the other.
        let nodes = [try store(), try store()]
        let store = nodes[0]
        try store.write { try $0.execute("CREATE TABLE counters (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)") }
        try store.write { try $0.execute("INSERT INTO counters VALUES (1, 0)") }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let store = nodes[thread % 2]
            failures.withLock { $0 += Self.increments(25, of: store, pausing: 500) }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try store.read { try $0.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) } == 100)
    }

    @Test func aWriteRefusedAtItsCommitFailsWithTheServersErrorAndLeavesNothing() throws {
        let store = try store()
        try store.write { try $0.execute("CREATE TABLE tags (name TEXT, UNIQUE (name) DEFERRABLE INITIALLY DEFERRED)") }
        // The deferred constraint is checked at COMMIT, which the server refuses and which
        // ends the transaction itself: no ROLLBACK may follow it (the server would warn).
        #expect(throws: DatabaseError.self) {
            try store.write { db in
                try db.execute("INSERT INTO tags VALUES ('crimp')")
                try db.execute("INSERT INTO tags VALUES ('crimp')")
            }
        }
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM tags", as: Int64.self) } == 0)
        try store.write { try $0.execute("INSERT INTO tags VALUES ('sloper')") }
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM tags", as: Int64.self) } == 1)
        #expect(!cluster.serverLog.contains("there is no transaction in progress"))
    }

    /// A unique violation names its constraint as SQLite's store does (`table.column[,column…]`),
    /// an expression index on `lower(email)` by its column.
    @Test func aUniqueViolationNamesItsConstraintCanonically() throws {
        let store = try store()
        try store.write { db in
            try db.execute("CREATE TABLE pairs (a BIGINT, b BIGINT, email TEXT, UNIQUE (a, b))")
            try db.execute("CREATE UNIQUE INDEX pairs_email_nocase ON pairs (lower(email))")
            try db.execute("INSERT INTO pairs VALUES (1, 2, 'x@example.com')")
        }
        let pair = try #require(throws: DatabaseError.self) { try store.write { try $0.execute("INSERT INTO pairs VALUES (1, 2, NULL)") } }
        #expect(pair.violatedUniqueConstraint == "pairs.a,b")
        let email = try #require(throws: DatabaseError.self) {
            try store.write { try $0.execute("INSERT INTO pairs VALUES (3, 4, 'X@example.com')") }
        }
        #expect(email.violatedUniqueConstraint == "pairs.email")
        #expect(DatabaseError.uniqueKey(table: "users", detail: "Key (lower(email::text))=(a@b) already exists.") == "users.email")
    }

    @Test func serializableWritesOfOneNodeNeverAbortEachOther() throws {
        // Eight callers at once on a node with four writer connections: were two groups run at
        // once, these read-modify-writes of one row would abort each other.
        let store = try store(writers: 4)
        try store.write { try $0.execute("CREATE TABLE counters (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)") }
        try store.write { try $0.execute("INSERT INTO counters VALUES (1, 0)") }
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for _ in 0..<8 {
            done.enter()
            Thread {
                defer { done.leave() }
                let failed = Self.increments(25, of: store, pausing: 200)
                failures.withLock { $0 += failed }
            }.start()
        }
        done.wait()
        #expect(failures.withLock { $0 } == [])
        #expect(store.conflictRetries == 0)
        #expect(try store.read { try $0.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) } == 200)
    }

    @Test func aLockedWriteThatWaitsHoldsUpNeitherOtherLockedWritesNorSerializableOnes() throws {
        let store = try store(writers: 2)
        try store.write { try $0.execute("CREATE TABLE marks (name TEXT PRIMARY KEY)") }
        let release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        store.lockedWrite({ db in
            release.wait()
            try db.execute("INSERT INTO marks VALUES ('slow')")
        }, then: { _ in finished.signal() })
        // While the first locked write holds one writer connection, the others still commit.
        try store.lockedWrite { try $0.execute("INSERT INTO marks VALUES ('locked')") }
        try store.write { try $0.execute("INSERT INTO marks VALUES ('serializable')") }
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM marks", as: Int64.self) } == 2)
        release.signal()
        finished.wait()
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM marks", as: Int64.self) } == 3)
    }

    @Test func aWriteThatLosesAConflictRunsAgainOnTheOtherNodesResult() throws {
        let (first, second) = (try store(), try store())
        try first.write { try $0.execute("CREATE TABLE counters (id BIGINT PRIMARY KEY, value BIGINT NOT NULL)") }
        try first.write { try $0.execute("INSERT INTO counters VALUES (1, 0)") }
        let read = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        let runs = Mutex(0)
        let other = Thread {
            read.wait()
            _ = try? second.write { try $0.execute("UPDATE counters SET value = value + 10 WHERE id = 1") }
            go.signal()
        }
        other.start()
        // The first run reads 0, then the other node commits 10 before it writes: the server
        // aborts it, and the second run reads 10.
        try first.write { db in
            let value = try db.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) ?? 0
            if runs.withLock({ $0 += 1; return $0 }) == 1 {
                read.signal()
                go.wait()
            }
            try db.execute("UPDATE counters SET value = ? WHERE id = 1", [value + 1])
        }
        #expect(runs.withLock { $0 } == 2)
        #expect(first.conflictRetries == 1)
        #expect(try first.read { try $0.scalar("SELECT value FROM counters WHERE id = 1", as: Int64.self) } == 11)
    }

    @Test func afterARestartTheFirstReadsAndWritesReconnectInsteadOfFailing() throws {
        let store = try store(writers: 1)
        try store.write { try $0.execute("CREATE TABLE IF NOT EXISTS restarted (id BIGINT PRIMARY KEY)") }
        // Several idle connections, all of which the restart breaks.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = try? store.read { try $0.scalar("SELECT pg_sleep(0.05), 1", as: Int64.self) } }
        #expect(try store.read { try $0.scalar("SELECT 1", as: Int64.self) } == 1)
        try cluster.restart()
        // The server is back: no caller is answered for the connections that predate it.
        #expect(try store.read { try $0.scalar("SELECT 2", as: Int64.self) } == 2)
        #expect(try store.readSingleStatement { try $0.scalar("SELECT 3", as: Int64.self) } == 3)
        try store.write { try $0.execute("INSERT INTO restarted (id) VALUES (1)") }
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM restarted", as: Int64.self) } == 1)
    }

    @Test func theServersWarningsReachTheHandlerAsOneLineAndNoticesAreNotSent() throws {
        let lines = Mutex<[String]>([])
        let connection = try PostgresConnection(url: cluster.url(database: "store"), onNotice: { line in lines.withLock { $0.append(line) } })
        try connection.execute("DO $$ BEGIN RAISE WARNING 'the belay test warning'; RAISE NOTICE 'below the minimum'; END $$")
        #expect(lines.withLock { $0 } == ["WARNING: the belay test warning"])
    }

    @Test func aNotificationCommittedByAnyConnectionWakesTheListenerAgainAfterARestart() throws {
        let heard = Mutex<[String]>([])
        let listener = PostgresWakeListener(url: cluster.url(database: "store"), handlers: [
            "belay_render_jobs": { heard.withLock { $0.append("render") } },
            "belay_webhook_deliveries": { heard.withLock { $0.append("webhook") } },
        ])
        listener.start()
        defer { listener.stop() }
        // Generous: under a full suite's load the server takes seconds to come back.
        func waitFor(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if heard.withLock({ $0.count }) >= count { return true }
                usleep(10_000)
            }
            return false
        }
        #expect(waitFor(2), "each handler runs once on connecting, for work queued before")
        heard.withLock { $0.removeAll() }
        let store = try store()
        // What the writes asked for is sent once their group has committed.
        try store.write { try $0.notifyAtCommit("belay_webhook_deliveries") }
        #expect(waitFor(1))
        #expect(heard.withLock { $0 } == ["webhook"])
        // A notification inside a transaction that rolls back never arrives.
        _ = try? store.write { db -> Void in
            try db.notifyAtCommit("belay_render_jobs")
            throw DatabaseError.unavailable("rolled back on purpose")
        }
        usleep(300_000)
        #expect(heard.withLock { $0 } == ["webhook"])

        // Cleared before the restart: the listener may reconnect, and its handlers run, before
        // restart() returns.
        heard.withLock { $0.removeAll() }
        try cluster.restart()
        #expect(waitFor(2), "after reconnecting, every handler runs once")
        heard.withLock { $0.removeAll() }
        var sent = false
        for _ in 0..<5 where !sent {
            sent = (try? store.write { try $0.execute("NOTIFY belay_render_jobs") }) != nil
        }
        #expect(sent)
        #expect(waitFor(1))
        #expect(heard.withLock { $0 }.contains("render"))
    }

    /// The store wakes this node's workers at the commit; its own listener must not wake them a
    /// second time when the store's notification comes back, while any other sender's still wakes them.
    @Test func aStoresListenerSkipsTheStoresOwnNotificationsButNotOthers() throws {
        let store = try store()
        let wokenAtCommit = Mutex(0)
        store.wakeAfterCommit(on: "belay_webhook_deliveries") { wokenAtCommit.withLock { $0 += 1 } }
        let heard = Mutex<[String]>([])
        let listener = store.makeWakeListener(handlers: [
            "belay_render_jobs": { heard.withLock { $0.append("render") } },
            "belay_webhook_deliveries": { heard.withLock { $0.append("webhook") } },
        ])
        listener.start()
        defer { listener.stop() }
        func waitFor(_ isDone: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if isDone() { return true }
                usleep(10_000)
            }
            return false
        }
        #expect(waitFor { heard.withLock { $0.count } == 2 }, "each handler runs once on connecting")
        heard.withLock { $0.removeAll() }
        // A connection of the test's own sees the store's notification queued, so that the
        // other sender's below come after it.
        let observer = try PostgresConnection(url: cluster.url(database: "store"))
        try observer.execute("LISTEN belay_webhook_deliveries")

        try store.write { try $0.notifyAtCommit("belay_webhook_deliveries") }
        #expect(waitFor { wokenAtCommit.withLock { $0 } == 1 })
        var observed: [PostgresNotification] = []
        #expect(waitFor {
            observed += (try? observer.waitForNotifications(timeoutMilliseconds: 100)) ?? []
            return !observed.isEmpty
        })
        #expect(observed.map(\.channel) == ["belay_webhook_deliveries"])
        // The listener reads notifications in the order they were sent, so once it has woken for
        // the one below, it has read the store's.
        let otherNode = try PostgresConnection(url: cluster.url(database: "store"))
        try otherNode.execute("NOTIFY belay_render_jobs, 'another node'")
        #expect(waitFor { !heard.withLock { $0 }.isEmpty })
        #expect(heard.withLock { $0 } == ["render"], "the store's own notification woke nothing")

        // The same channel from another sender, with a payload or without, wakes.
        try otherNode.execute("NOTIFY belay_webhook_deliveries, 'another node'")
        #expect(waitFor { heard.withLock { $0.count } == 2 })
        try otherNode.execute("NOTIFY belay_webhook_deliveries")
        #expect(waitFor { heard.withLock { $0.count } == 3 })
        #expect(heard.withLock { $0 } == ["render", "webhook", "webhook"])
        #expect(wokenAtCommit.withLock { $0 } == 1)
    }

    @Test func aWriteThatThrowsLeavesNothingWhetherAloneOrInAGroup() throws {
        let store = try store(writers: 1)
        try store.write { try $0.execute("CREATE TABLE kept (id BIGINT PRIMARY KEY)") }
        // Queued at once, most of these share a transaction; the first may run alone.
        let done = DispatchGroup()
        let results = Mutex<[Int: Bool]>([:])
        for id in 0..<40 {
            done.enter()
            store.write({ db in
                try db.execute("INSERT INTO kept VALUES (?)", [Int64(id)])
                if id % 2 == 1 { throw DatabaseError.unavailable("refused on purpose") }
            }, then: { outcome in
                results.withLock { $0[id] = (try? outcome.get()) != nil }
                done.leave()
            })
        }
        done.wait()
        #expect(results.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<40).map { ($0, $0 % 2 == 0) }))
        let kept = try store.read { try $0.query("SELECT id FROM kept ORDER BY id") { try $0.get("id", as: Int64.self) } }
        #expect(kept == stride(from: 0, to: 40, by: 2).map(Int64.init))
    }

    @Test func aStatementSentForLaterThatFailsFailsOnlyItsWriteWithTheErrorItNamed() throws {
        struct Taken: Error, Equatable { let id: Int64 }
        let store = try store(writers: 1)
        try store.write { try $0.execute("CREATE TABLE kept (id BIGINT PRIMARY KEY)") }
        try store.write { try $0.execute("INSERT INTO kept VALUES (1000)") }
        // Queued at once, most of these share a transaction (each its savepoint): every third
        // sends, for later, an insert the primary key refuses, found only at its write's end.
        let done = DispatchGroup()
        let results = Mutex<[Int64: String]>([:])
        for id in Int64(0)..<30 {
            done.enter()
            store.lockedWrite({ db -> Int64 in
                let refused = id % 3 == 2
                try db.executeLater("INSERT INTO kept VALUES (?)", [refused ? 1000 : id], failure: { _ in Taken(id: id) })
                let answer = try db.queryLater("SELECT ? + 1 AS next", [id]) { try $0.get("next", as: Int64.self) }
                try db.executeLater("INSERT INTO kept VALUES (?)", [id + 2000])
                return try answer.get().first ?? -1
            }, then: { outcome in
                let text: String
                switch outcome {
                case let .success(next): text = "next \(next)"
                case let .failure(error): text = (error as? Taken).map { "taken \($0.id)" } ?? "\(error)"
                }
                results.withLock { $0[id] = text }
                done.leave()
            })
        }
        done.wait()
        let expected = Dictionary(uniqueKeysWithValues: (Int64(0)..<30).map { ($0, $0 % 3 == 2 ? "taken \($0)" : "next \($0 + 1)") })
        #expect(results.withLock { $0 } == expected)
        let kept = try store.read { try $0.query("SELECT id FROM kept ORDER BY id") { try $0.get("id", as: Int64.self) } }
        let survivors = (Int64(0)..<30).filter { $0 % 3 != 2 }
        #expect(kept == survivors + [1000] + survivors.map { $0 + 2000 })
    }

    @Test func aStatementSentForLaterFailsTheWriteAtItsCommitWhenNothingWaitedForIt() throws {
        let store = try store(writers: 1)
        try store.write { try $0.execute("CREATE TABLE kept (id BIGINT PRIMARY KEY)") }
        #expect {
            try store.lockedWrite { db in
                try db.executeLater("INSERT INTO kept VALUES (1)", [])
                try db.executeLater("INSERT INTO kept VALUES (1)", [])
            }
        } throws: { error in (error as? DatabaseError)?.isUniqueConstraintViolation == true }
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM kept", as: Int64.self) } == 0, "nothing of the write is kept")
        // The connection goes on: a write sent whole for later costs one round trip with its commit.
        let before = store.writeRoundTrips
        try store.lockedWrite { db in
            try db.executeLater("INSERT INTO kept VALUES (1)", [])
            try db.executeLater("INSERT INTO kept VALUES (2)", [])
        }
        #expect(store.writeRoundTrips - before == 1)
        #expect(try store.read { try $0.scalar("SELECT count(*) FROM kept", as: Int64.self) } == 2)
    }

    /// A change sent with the next travels inside the next change as a data-modifying `WITH`
    /// (one statement: both see the snapshot from before either), is sent on its own before
    /// anything else, and fails its write like any statement sent for later.
    @Test func aChangeSentWithTheNextTravelsInsideItAndIsSentAloneBeforeAnythingElse() throws {
        let store = try store(writers: 1)
        try store.write { db in
            try db.execute("CREATE TABLE counted (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
            try db.execute("CREATE TABLE seen (n BIGINT PRIMARY KEY)")
            try db.execute("INSERT INTO counted VALUES (1, 0)")
        }
        func seen() throws -> [Int64] { try store.read { try $0.query("SELECT n FROM seen ORDER BY n") { try $0.get("n", as: Int64.self) } } }
        func counted() throws -> Int64? { try store.read { try $0.scalar("SELECT n FROM counted WHERE id = 1", as: Int64.self) } }

        // Together: the insert reads the count as it was before the update.
        let before = store.writeRoundTrips
        let inserted = try store.lockedWrite { db -> [Int64] in
            try db.executeWithNextChange("UPDATE counted SET n = ? WHERE id = ?", [5, 1])
            return try db.queryLater("INSERT INTO seen SELECT n + ?1 FROM counted WHERE id = 1 RETURNING n", [100]) { try $0.get("n", as: Int64.self) }.get()
        }
        #expect(inserted == [100])
        #expect(try counted() == 5)
        #expect(store.writeRoundTrips - before == 2, "one for the statement read, one for the commit")

        // A read in between is sent after the change, on its own, and sees it.
        let read = try store.lockedWrite { db -> Int64? in
            try db.executeWithNextChange("UPDATE counted SET n = ? WHERE id = ?", [9, 1])
            let n = try db.queryLater("SELECT n FROM counted WHERE id = ?", [1]) { try $0.get("n", as: Int64.self) }
            try db.executeLater("INSERT INTO seen VALUES (?)", [200])
            return try n.get().first
        }
        #expect(read == 9)
        // Nothing after it: it goes with the commit.
        try store.lockedWrite { db in try db.executeWithNextChange("UPDATE counted SET n = n + 1 WHERE id = ?", [1]) }
        #expect(try counted() == 10)
        #expect(try seen() == [100, 200])

        // Its failure fails its write, and nothing of the write is kept.
        #expect {
            try store.lockedWrite { db in
                try db.executeWithNextChange("INSERT INTO seen VALUES (?)", [100])
                try db.executeLater("UPDATE counted SET n = ? WHERE id = ?", [50, 1])
            }
        } throws: { error in (error as? DatabaseError)?.isUniqueConstraintViolation == true }
        #expect(try counted() == 10)
        #expect(try seen() == [100, 200])

        // A statement whose errors the write names never carries it: its error stays its own.
        struct Named: Error {}
        #expect {
            try store.lockedWrite { db in
                try db.executeWithNextChange("INSERT INTO seen VALUES (?)", [200])
                try db.executeLater("UPDATE counted SET n = ? WHERE id = ?", [60, 1], failure: { _ in Named() })
            }
        } throws: { error in (error as? DatabaseError)?.isUniqueConstraintViolation == true }
        #expect(try counted() == 10)
    }

    @Test func betweenAWritesRoundTripsTheServerWaitsIdleInTransaction() throws {
        // So that idle_in_transaction_session_timeout frees the locks of a node that vanished
        // between them, as it did before writes were pipelined.
        let store = try store(writers: 1)
        let state = try store.lockedWrite { db -> String in
            let pid = try db.queryLater("SELECT pg_backend_pid() AS pid", []) { try $0.get("pid", as: Int64.self) }.get().first ?? 0
            // Another connection looks at the writer's now, between its round trips.
            return try store.readSingleStatement { try $0.scalar("SELECT state FROM pg_stat_activity WHERE pid = ?", [pid], as: String.self) }
                ?? "no such backend"
        }
        #expect(state == "idle in transaction")
    }

    @Test func eachKindOfCallRunsAtItsIsolation() throws {
        let store = try store()
        let isolation = "SELECT current_setting('transaction_isolation') AS level, current_setting('transaction_read_only') AS read_only"
        func level(_ db: any Database) throws -> String {
            try #require(try db.queryOne(isolation) { "\(try $0.get("level", as: String.self)) \(try $0.get("read_only", as: String.self))" })
        }
        #expect(try store.read(level) == "repeatable read on")
        #expect(try store.write(level) == "serializable off")
        #expect(try store.lockedWrite(level) == "read committed off")
        // One statement needs no transaction around it: the server's default, read-only or not.
        #expect(try store.readSingleStatement(level) == "read committed off")
    }

    @Test func onlyAWriteThatMayBeLostCommitsWithoutWaitingForTheFlushEvenWhenQueuedTogether() throws {
        // Sixteen callers at once on two writer connections: were a claim grouped with a
        // locked write, the one would wait for the flush or the other would not. The test
        // cluster does not wait for flushes at all; its database here does, as a club's would.
        try store().write { db in
            try db.execute("DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END $$")
        }
        let store = try store(writers: 2)
        let flushed = "SELECT current_setting('synchronous_commit') || ' ' || current_setting('transaction_isolation')"
        #expect(try store.lockedWriteWithoutWaitingForFlush { try $0.scalar(flushed, as: String.self) } == "off read committed")
        #expect(try store.lockedWrite { try $0.scalar(flushed, as: String.self) } == "on read committed")
        let seen = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let value = index % 2 == 0
                ? try? store.lockedWriteWithoutWaitingForFlush { "unflushed " + (try $0.scalar(flushed, as: String.self) ?? "-") }
                : try? store.lockedWrite { "locked " + (try $0.scalar(flushed, as: String.self) ?? "-") }
            seen.withLock { $0.append(value ?? "failed") }
        }
        #expect(seen.withLock { $0 }.sorted() == Array(repeating: "locked on read committed", count: 8)
                + Array(repeating: "unflushed off read committed", count: 8))
        // The setting ended with each transaction.
        #expect(try store.write { try $0.scalar(flushed, as: String.self) } == "on serializable")
    }

    @Test func aStatementPastTheTimeoutIsStoppedAsBusy() throws {
        let store = try store(timeout: 100)
        #expect {
            try store.read { try $0.execute("SELECT pg_sleep(2)") }
        } throws: { error in
            (error as? DatabaseError)?.isBusy == true && (error as? DatabaseError)?.sqlState == "57014"
        }
        #expect(try store.read { try $0.scalar("SELECT 3", as: Int64.self) } == 3, "the connection is still usable")
    }

    @Test func anInsertThatMayDoNothingAnswersTheNewIDOrNil() throws {
        let store = try store()
        try store.write { try $0.execute("CREATE TABLE names (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name TEXT NOT NULL UNIQUE)") }
        let insert = "INSERT INTO names (name) VALUES (?) ON CONFLICT (name) DO NOTHING"
        let first = try store.write { try $0.insertedID(insert, ["flash"]) }
        let second = try store.write { try $0.insertedID(insert, ["send"]) }
        let again = try store.write { try $0.insertedID(insert, ["flash"]) }
        #expect(first != nil && second != nil && first != second)
        #expect(again == nil)
    }

    @Test func valuesReadBackAsTheRepositoriesReadThem() throws {
        let store = try store()
        try store.write { db in
            try db.execute("CREATE TABLE things (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name TEXT, size BIGINT, data BYTEA, ratio DOUBLE PRECISION)")
        }
        let id = try store.write { db in
            try db.insertReturningID("INSERT INTO things (name, size, data, ratio) VALUES (?, ?, ?, ?) RETURNING id",
                                     ["climb", Int64(7), Data([0, 1, 254, 255]), 0.5])
        }
        try store.write { try $0.execute("INSERT INTO things (name, size, data, ratio) VALUES (?, ?, ?, ?)", [String?.none, Int64?.none, Data?.none, Double?.none]) }
        let row = try store.read { db in
            try db.queryOne("SELECT name, size, data, ratio, (SELECT sum(size) FROM things) AS total, ? IS NULL AS absent FROM things WHERE id = ?",
                            [String?.none, id]) { row in
                (try row.get("name", as: String.self), try row.get("size", as: Int64.self), try row.get("data", as: Data.self),
                 try row.get("ratio", as: Double.self), try row.get("total", as: Int64.self), try row.get("absent", as: Bool.self))
            }
        }
        let found = try #require(row)
        #expect(found.0 == "climb" && found.1 == 7 && found.2 == Data([0, 1, 254, 255]) && found.3 == 0.5 && found.4 == 7 && found.5)
        #expect(try store.write { db -> Int in
            try db.execute("UPDATE things SET size = 1")
            return db.changes
        } == 2)
    }
}
