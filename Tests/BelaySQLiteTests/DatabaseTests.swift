@testable import BelaySQLite
@testable import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct DatabaseTests {
    let directory: TemporaryDirectory
    let database: SQLiteDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try SQLiteDatabase(path: directory.file("test.sqlite"))
        try database.execute("CREATE TABLE meetups (id INTEGER PRIMARY KEY, title TEXT NOT NULL, secret TEXT UNIQUE)")
    }

    @Test func configuresWalForeignKeysAndFullDurabilityByDefault() throws {
        #expect(try database.scalar("PRAGMA journal_mode", as: String.self) == "wal")
        #expect(try database.scalar("PRAGMA foreign_keys", as: Int64.self) == 1)
        #expect(try database.scalar("PRAGMA synchronous", as: Int64.self) == 2) // FULL
        // A pool's writer commits at NORMAL and fsyncs the WAL on its sync thread before any
        // caller hears of the commit: FULL's guarantee without holding the writer.
        let pool = try SQLitePool(path: directory.file("pool.sqlite"))
        #expect(try pool.write { try $0.scalar("PRAGMA synchronous", as: Int64.self) } == 1)
        #expect(try pool.read { try $0.scalar("PRAGMA synchronous", as: Int64.self) } == 2)
        let relaxed = try SQLiteDatabase(path: directory.file("relaxed.sqlite"), configuration: DatabaseConfiguration(durability: .normal))
        #expect(try relaxed.scalar("PRAGMA synchronous", as: Int64.self) == 1) // NORMAL
    }

    @Test func textWithNulBytesIsStoredWhole() throws {
        for text in ["T\u{0}X", "\u{0}abc", "s1\u{0}zzz", "클라이밍\u{0}🧗"] {
            try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", [text, text])
            let stored = try database.queryOne("SELECT title, length(CAST(title AS BLOB)) FROM meetups WHERE secret = ?", [text]) {
                (try $0.get(0, as: String.self), try $0.get(1, as: Int64.self))
            }
            #expect(stored?.0 == text)
            #expect(stored?.1 == Int64(text.utf8.count))
        }
        // Keys that differ only after a NUL are different keys.
        try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", ["a", "k"])
        try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", ["b", "k\u{0}2"])
        #expect(try database.scalar("SELECT count(*) FROM meetups WHERE secret IN (?, ?)", ["k", "k\u{0}2"], as: Int64.self) == 2)
    }

    @Test func errorsCarryCodeMessageAndSqlButNotBoundValues() throws {
        let error = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", [DatabaseValue.null, "hunter2-secret"])
        }
        #expect(error.resultCode == 19)
        #expect(error.extendedResultCode == 1299)
        #expect(error.isConstraintViolation)
        #expect(!error.isUniqueConstraintViolation)
        #expect(error.sql == "INSERT INTO meetups (title, secret) VALUES (?, ?)")
        #expect(error.description.contains("SQLite error 19 (extended 1299): NOT NULL constraint failed: meetups.title"))
        #expect(error.description.contains("while executing `INSERT INTO meetups (title, secret) VALUES (?, ?)`"))
        #expect(!error.description.contains("hunter2-secret"))

        try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", ["Bouldering", "hunter2-secret"])
        let duplicate = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO meetups (title, secret) VALUES (?, ?)", ["Other", "hunter2-secret"])
        }
        #expect(duplicate.isUniqueConstraintViolation)
        #expect(!duplicate.description.contains("hunter2-secret"))
    }

    /// A unique violation names its constraint canonically, `table.column[,column…]`, as
    /// PostgreSQL's store does (`PostgresStoreTests`), so the domain never reads an engine's message.
    @Test func aUniqueViolationNamesItsConstraintCanonically() throws {
        try database.execute("CREATE TABLE pairs (a INTEGER, b INTEGER, email TEXT COLLATE NOCASE UNIQUE, UNIQUE (a, b))")
        try database.execute("INSERT INTO pairs VALUES (1, 2, 'x@example.com')")
        let pair = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO pairs VALUES (1, 2, NULL)") }
        #expect(pair.violatedUniqueConstraint == "pairs.a,b")
        let email = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO pairs VALUES (3, 4, 'X@example.com')") }
        #expect(email.violatedUniqueConstraint == "pairs.email")
        let other = try #require(throws: DatabaseError.self) { try database.execute("INSERT INTO meetups (title, secret) VALUES (NULL, 'k')") }
        #expect(other.violatedUniqueConstraint == nil)
    }

    @Test func syntaxErrorsNameTheSql() throws {
        let error = try #require(throws: DatabaseError.self) { try database.execute("SELEC 1") }
        #expect(error.resultCode == 1)
        #expect(error.description.contains("`SELEC 1`"))
    }

    @Test func wrongArgumentCountIsRefused() throws {
        let error = try #require(throws: DatabaseError.self) {
            try database.execute("INSERT INTO meetups (title) VALUES (?)", [])
        }
        #expect(error.description.contains("expects 1 argument(s) but 0 were given"))
    }

    @Test func roundTripsTypedValues() throws {
        try database.execute("""
            CREATE TABLE samples (i INTEGER, r REAL, t TEXT, b BLOB, flag INTEGER, at INTEGER, maybe TEXT, empty BLOB)
            """)
        let when = Date(millisecondsSince1970: 1_795_000_000_123)
        let blob = Data([0, 1, 2, 255])
        let missing: String? = nil
        try database.execute("INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             [Int64.max, 2.5, "클라이밍 🧗", blob, true, when, missing, Data()])
        #expect(database.lastInsertRowID == 1)
        #expect(database.changes == 1)
        let row = try #require(try database.queryOne("SELECT * FROM samples") { row in
            (try row.get(0, as: Int64.self), try row.get(1, as: Double.self), try row.get(2, as: String.self),
             try row.get(3, as: Data.self), try row.get(4, as: Bool.self), try row.get(5, as: Date.self),
             try row.get(6, as: String?.self), try row.get(7, as: Data.self))
        })
        #expect(row.0 == Int64.max)
        #expect(row.1 == 2.5)
        #expect(row.2 == "클라이밍 🧗")
        #expect(row.3 == blob)
        #expect(row.4 == true)
        #expect(row.5 == when)
        #expect(row.6 == nil)
        #expect(row.7 == Data())
    }

    @Test func readingNullAsNonOptionalThrowsConversionError() throws {
        let error = try #require(throws: DatabaseError.self) {
            _ = try database.scalar("SELECT NULL", as: Int64.self)
        }
        #expect(error.description.contains("Cannot read column 0 as Int64: it holds NULL"))
    }

    @Test func transactionCommitsOrRollsBack() throws {
        try database.transaction {
            try database.execute("INSERT INTO meetups (title) VALUES (?)", ["kept"])
        }
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.execute("INSERT INTO meetups (title) VALUES (?)", ["discarded"])
                throw Abort()
            }
        }
        #expect(!database.isInTransaction)
        let titles: [String] = try database.query("SELECT title FROM meetups ORDER BY id") { try $0.get(0) }
        #expect(titles == ["kept"])
    }

    @Test func nestedUseOfTheSameStatementWorks() throws {
        for title in ["a", "b", "c"] {
            try database.execute("INSERT INTO meetups (title) VALUES (?)", [title])
        }
        let sql = "SELECT title FROM meetups WHERE id >= ? ORDER BY id"
        let pairs = try database.query(sql, [1]) { row -> [String] in
            let outer: String = try row.get(0)
            let inner: [String] = try database.query(sql, [2]) { try $0.get(0) }
            return inner.map { outer + $0 }
        }
        #expect(pairs == [["ab", "ac"], ["bb", "bc"], ["cb", "cc"]])
    }

    @Test func multiStatementScriptsRunInOrderAndReportTheFailingStatement() throws {
        try database.executeScript("""
            -- a comment
            CREATE TABLE a (x INTEGER);
            INSERT INTO a VALUES (1);
            INSERT INTO a VALUES (2);
            """)
        #expect(try database.scalar("SELECT sum(x) FROM a", as: Int64.self) == 3)
        let error = try #require(throws: DatabaseError.self) {
            try database.executeScript("INSERT INTO a VALUES (3); INSERT INTO nowhere VALUES (4);")
        }
        #expect(error.sql == "INSERT INTO nowhere VALUES (4);")
    }

    @Test func closedDatabaseRefusesWork() throws {
        try database.close()
        let error = try #require(throws: DatabaseError.self) { try database.execute("SELECT 1") }
        #expect(error.description.contains("is closed"))
    }

    @Test func openingInAMissingDirectoryExplainsWhatToCheck() throws {
        let error = try #require(throws: DatabaseError.self) {
            _ = try SQLiteDatabase(path: directory.file("missing/dir/db.sqlite"))
        }
        #expect(error.description.contains("check that the directory exists"))
    }

    @Test func checkReportsForeignKeyViolations() throws {
        try database.executeScript("""
            CREATE TABLE parents (id INTEGER PRIMARY KEY);
            CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents(id));
            """)
        #expect(try database.check().isHealthy)
        try database.execute("PRAGMA foreign_keys = OFF")
        try database.execute("INSERT INTO children (parent_id) VALUES (42)")
        let report = try database.check()
        #expect(report.integrityProblems.isEmpty)
        let violation = try #require(report.foreignKeyViolations.first)
        #expect(report.foreignKeyViolations.count == 1)
        #expect(violation.table == "children")
        #expect(violation.rowID == 1)
        #expect(violation.parent == "parents")
        #expect(!report.isHealthy)
    }
}
