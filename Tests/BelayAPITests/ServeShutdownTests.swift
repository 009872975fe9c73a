import BelayCore
import BelayHTTP
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `belay serve` stopped with SIGTERM while a check-in waits for a database writer that stays
/// busy past the grace period: the waiting check-in is answered 503, the process exits 0, and
/// every acknowledged write is in the database.
@Suite(.serialized) struct ServeShutdownTests {
    // Another process holds SQLite's write lock to keep the writer busy; PostgreSQL has no
    // such single lock (its shutdown path is the same code).
    @Test(.enabled(if: !TestDatabase.isPostgreSQL))
    func sigtermWithTheWriterBusyPastTheGracePeriodExitsZero() throws {
        let workspace = try ClubWorkspace.served()
        var server = try BelayServerProcess(arguments: ["--config", workspace.configPath],
                                            environment: ["BELAY_SERVER_SHUTDOWN_GRACE_SECONDS": "1",
                                                          // A loaded machine may take a while between the two requests.
                                                          "BELAY_SERVER_HEADER_TIMEOUT_SECONDS": "300"],
                                            in: workspace.directory.path)
        let host = try workspace.user("host1", role: "host")
        let admin = try workspace.user("admin1", role: "admin")
        var members: [Int64] = []
        for handle in ["first", "second"] {
            members.append(try #require(try workspace.cli(["users", "create", handle, "--name", handle])["user"]?["id"]?.intValue))
        }
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Last call", "--place", "Bouldering hall",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-300), utcOffsetSeconds: 0),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 0),
                                        "--capacity", "10", "--host", "host1"])
        let meetupID = try #require(meetup["id"]?.intValue)
        try workspace.cli(["attendees", "add", "\(meetupID)", "first", "second"])

        func checkIn(_ member: Int64) -> [UInt8] {
            HTTPTestClient.requestBytes("POST", "/v1/meetups/\(meetupID)/check-in",
                                        headers: [("Authorization", "Bearer \(host.token)"), ("Idempotency-Key", "check-in-\(member)"),
                                                  ("Content-Type", "application/json")],
                                        body: Array(#"{"user_id": \#(member)}"#.utf8))
        }
        // One keep-alive connection, already accepted, so the second request is served after SIGTERM too.
        let client = try HTTPTestClient(port: server.port, timeoutSeconds: 60)
        try client.send(checkIn(members[0]))
        #expect(try client.readResponse().status == 201, "the first check-in is acknowledged")

        // Another process holds the write lock: the server's writer waits for it.
        let databasePath = workspace.directory.file("data/belay.sqlite3")
        let blocker = try SQLiteDatabase(path: databasePath)
        try blocker.execute("BEGIN IMMEDIATE")
        try client.send(checkIn(members[1]))
        // SIGTERM only once the server holds that check-in suspended, waiting for the writer. (Counting
        // requests in flight instead raced: the previous /metrics call may not have been counted out yet.)
        let held = try server.poll(timeout: 30) { () -> Bool? in
            let metrics = try server.call("GET", "/metrics", token: admin.token).response.text
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("belay_http_requests_suspended ") }
            return (line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0) >= 1 ? true : nil
        }
        #expect(held == true, "the second check-in never reached the server")
        server.send(SIGTERM)
        let late: HTTPTestResponse
        do {
            late = try client.readResponse()
        } catch {
            Issue.record("no answer to the held check-in; the server said: \(server.wait().standardError)")
            throw error
        }
        #expect(late.status == 503)
        #expect(late.jsonObject?["code"] as? String == "shutting_down")
        #expect(late.header("Retry-After") != nil)
        // The writer gets the lock only after the grace period is over and the answer is out.
        try blocker.execute("ROLLBACK")
        try blocker.close()

        let stopped = server.wait()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(!stopped.standardError.contains("suspended connections"))
        try SQLitePool(path: databasePath).read { db throws in
            #expect(try db.scalar("SELECT count(*) FROM rewards WHERE member_id = ?", [members[0]], as: Int.self) == 1,
                    "the acknowledged check-in and its reward are committed")
        }

        // The app retries what got a 503, with the same key, and gets one check-in and one reward.
        server = try workspace.serve()
        let retry = try HTTPTestClient(port: server.port)
        try retry.send(checkIn(members[1]))
        let status = try retry.readResponse().status
        #expect(status == 200 || status == 201)
        try SQLitePool(path: databasePath).read { db throws in
            #expect(try db.scalar("SELECT count(*) FROM rewards WHERE member_id = ?", [members[1]], as: Int.self) == 1)
        }
        #expect(server.terminate().status == 0)
    }
}
