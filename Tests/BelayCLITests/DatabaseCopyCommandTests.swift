import Foundation
import Testing
import BelayTestSupport

/// `belay db copy --to postgres://…` against a throwaway PostgreSQL cluster: a club's whole
/// history arrives, verified table by table, and a second copy into the same database is refused.
@Suite(.enabled(if: !TestDatabase.isPostgreSQL, "copies a club's SQLite file into PostgreSQL")) struct DatabaseCopyCommandTests {
    @Test func aClubsHistoryIsCopiedVerifiedAndNotCopiedTwice() throws {
        let cluster = try PostgresCluster()
        try cluster.createDatabase("club")
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("holds", "import")
        try workspace.succeed("dev", "seed-history", "--meetups", "6", "--members", "8", "--start", "2026-01-05")
        try workspace.succeed("backfill")
        try workspace.succeed("webhooks", "add", "https://hooks.example.com/belay")

        let copy = try workspace.run("db", "copy", "--to", cluster.url(database: "club"))
        #expect(copy.status == 0, "\(copy)")
        #expect(copy.standardError.contains("every table read back with the same rows"))
        let lines = copy.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("TABLE") == true)
        #expect(lines.contains { $0.hasPrefix("attendances ") && $0.contains(" 48 ") }, "6 meetups x 8 members, with their checksum")

        // Every table holds what SQLite holds, counted independently by psql and sqlite3.
        for table in ["users", "meetups", "attendances", "rewards", "render_jobs", "holds", "backgrounds", "webhook_endpoints",
                      "calendar_feed_secret", "catalog_generation"] {
            let sqlite = try ExternalTool.output("/usr/bin/sqlite3", [workspace.databasePath, "SELECT count(*) FROM \(table)"])
            #expect(try cluster.psql("SELECT count(*) FROM \(table)", database: "club") == sqlite.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines),
                    "\(table)")
        }
        let sqliteCounts = try ExternalTool.output("/usr/bin/sqlite3", [workspace.databasePath,
            "SELECT sum(going_count) || '/' || sum(waitlist_count) FROM meetups"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cluster.psql("SELECT sum(going_count) || '/' || sum(waitlist_count) FROM meetups", database: "club") == sqliteCounts,
                "the attendance counters arrive as they are, not counted again by the triggers")
        let secret = try ExternalTool.output("/usr/bin/sqlite3", [workspace.databasePath, "SELECT hex(secret) FROM calendar_feed_secret"])
        #expect(try cluster.psql("SELECT upper(encode(secret, 'hex')) FROM calendar_feed_secret", database: "club")
            == secret.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), "calendar feed URLs stay valid")
        // New rows continue after the copied ids.
        let maxID = try cluster.psql("SELECT max(id) FROM users", database: "club")
        let next = try cluster.psql("INSERT INTO users (handle, display_name, role, created_at) VALUES ('newcomer', 'N', 'member', 0) RETURNING id",
                                    database: "club")
        #expect(next.split(separator: "\n").first.map(String.init) == String((Int(maxID) ?? 0) + 1))
        // A changed meetup takes a revision past every copied one, which searches read changes by.
        let maxRevision = Int(try cluster.psql("SELECT max(revision) FROM meetups", database: "club")) ?? 0
        #expect(maxRevision > 0)
        let revised = try cluster.psql("UPDATE meetups SET capacity = capacity + 1 WHERE id = (SELECT min(id) FROM meetups) RETURNING revision",
                                       database: "club")
        #expect(Int(revised.split(separator: "\n").first.map(String.init) ?? "") == maxRevision + 1, "\(revised)")

        let again = try workspace.run("db", "copy", "--to", cluster.url(database: "club"))
        #expect(again.status == 1)
        #expect(again.standardError.contains("The target database is not empty"), "\(again)")
        #expect(try cluster.psql("SELECT count(*) FROM users WHERE handle = 'newcomer'", database: "club") == "1", "nothing was touched")
    }

    @Test func aTargetWithOtherTablesOrABadURLIsRefused() throws {
        let cluster = try PostgresCluster()
        try cluster.createDatabase("other")
        _ = try cluster.psql("CREATE TABLE invoices (id int)", database: "other")
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        let foreign = try workspace.run("db", "copy", "--to", cluster.url(database: "other"))
        #expect(foreign.status == 1)
        #expect(foreign.standardError.contains("already has tables that are not Belay's"), "\(foreign)")
        #expect(try cluster.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", database: "other") == "1")

        let notPostgres = try workspace.run("db", "copy", "--to", "mysql://localhost/belay")
        #expect(notPostgres.status == 64)
        #expect(notPostgres.standardError.contains("must be a PostgreSQL URL"))
        let unreachable = try workspace.run("db", "copy", "--to", "postgres://belay:hunter2@127.0.0.1:\(try FreePort.next())/belay?connect_timeout=2")
        #expect(unreachable.status == 1)
        #expect(unreachable.standardError.contains("Cannot connect to PostgreSQL at postgres://belay:***@127.0.0.1"), "\(unreachable)")
        #expect(!unreachable.standardError.contains("hunter2"))
    }
}
