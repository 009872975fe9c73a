import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// `belay serve` against the loopback APNs when what matters meets a flood or a stall: a
/// "sticker ready" queued while two thousand reminders go out overtakes them, and a notice
/// answered `503 Retry-After: 2` beside a stream that APNs never answers is tried again two
/// seconds later, not after the stalled stream's timeout.
@Suite(.serialized) struct PushFloodEndToEndTests {
    private func register(_ server: BelayServerProcess, _ token: String, device: String) throws {
        let answer = try server.call("POST", "/v1/me/devices", token: token, json: """
            {"platform": "ios", "token": "\(device)", "app_id": "club.belay.app", "environment": "production", "locale": "en"}
            """)
        #expect(answer.status == 201, "\(answer.response.text)")
    }

    private func meetup(_ workspace: ClubWorkspace, title: String, startsIn: TimeInterval, capacity: Int) throws -> Int64 {
        let now = Date()
        let created = try workspace.cli(["meetups", "create", "--title", title, "--place", "더클라임 강남점",
                                         "--starts", RFC3339.string(from: now.addingTimeInterval(startsIn), utcOffsetSeconds: 9 * 3600),
                                         "--ends", RFC3339.string(from: now.addingTimeInterval(startsIn + 7_200), utcOffsetSeconds: 9 * 3600),
                                         "--capacity", "\(capacity)", "--host", "host1"])
        return try #require(created["id"]?.intValue)
    }

    /// Waits until `condition` holds, asking every 0.2 s at most `timeout` seconds.
    private func waitUntil(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        return false
    }

    /// Two thousand reminders (low priority) fall due at once; a check-in's "sticker ready"
    /// (high) queued while they go out is sent before those still waiting: at most the
    /// notices already under way when it was queued arrive between its queueing and its own
    /// arrival. First in, first out, it waited for every reminder queued before it.
    @Test func aStickerReadyQueuedDuringAFloodOfRemindersOvertakesThem() throws {
        let flood = 2_000
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try ClubWorkspace.served(settings: ["push": services.pushSettings])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        let host = try workspace.user("host1", role: "host")
        let ana = try workspace.user("ana")
        try register(server, ana.token, device: "ana-phone")
        let now = try meetup(workspace, title: "Morning climb", startsIn: -60, capacity: 5)
        #expect(try server.call("POST", "/v1/meetups/\(now)/join", token: ana.token).status == 201)
        // The flood: members going to one meetup, given iPhones and moved to 100 minutes ahead
        // (inside the reminders' 120) in one transaction, so that the server's next look at the
        // schedule queues every reminder at once.
        try workspace.cli(["dev", "seed-bench", "--members", "\(flood)", "--capacity", "\(flood)", "--upcoming", "0",
                           "--tokens", workspace.directory.file("tokens.txt")])
        try workspace.store().write { db in
            let meetupID = try #require(try db.queryOne("SELECT meetup_id FROM attendances GROUP BY meetup_id HAVING count(*) = ?", [flood]) {
                try $0.get("meetup_id", as: Int64.self)
            })
            try db.execute("""
                INSERT INTO devices (user_id, session_id, platform, token, app_id, environment, locale, created_at, updated_at)
                SELECT member_id, NULL, 'ios', 'flood-' || member_id, 'club.belay.app', 'production', 'en', 0, 0
                FROM attendances WHERE meetup_id = ?
                """, [meetupID])
            let starts = Date().addingTimeInterval(100 * 60)
            try db.execute("UPDATE meetups SET starts_at = ?, ends_at = ? WHERE id = ?", [starts, starts.addingTimeInterval(7_200), meetupID])
        }
        #expect(try waitUntil(timeout: 60) { try services.counts()["meetup_reminder", default: 0] > 0 }, "the flood began")

        let code = try #require(try server.call("GET", "/v1/meetups/\(now)/check-in-code", token: host.token)["code"]?.stringValue)
        let checkIn = try server.call("POST", "/v1/meetups/\(now)/check-in", token: ana.token, json: #"{"code": "\#(code)"}"#)
        #expect(checkIn.status == 201, "\(checkIn.response.text)")
        #expect(try waitUntil(timeout: 60) { try services.counts()["reward_ready", default: 0] > 0 }, "the sticker's notice arrived")
        #expect(try waitUntil(timeout: 300) { try services.counts()["meetup_reminder", default: 0] >= flood }, "every reminder arrived")

        let queuedAt = try #require(try workspace.store().read { db in
            try db.queryOne("SELECT created_at FROM push_notices WHERE kind = 'reward_ready'", []) { try $0.get("created_at", as: Date.self) }
        }).timeIntervalSince1970
        let requests = (try services.received()["apns"] as? [[String: Any]]) ?? []
        func arrivals(_ kind: String) -> [Double] {
            requests.filter { ($0["payload"] as? [String: Any])?["kind"] as? String == kind }.compactMap { $0["time"] as? Double }
        }
        let readyAt = try #require(arrivals("reward_ready").first)
        let reminders = arrivals("meetup_reminder")
        let waiting = reminders.filter { $0 > queuedAt }.count
        let overtaking = reminders.filter { $0 > queuedAt && $0 < readyAt }.count
        try #require(waiting >= 600, "the flood must still be going out when the sticker is stored: \(waiting) reminders arrived after it was queued")
        // At most the window under way (200) and what its answers let in meanwhile; FIFO, all
        // of `waiting` came first.
        #expect(overtaking <= 400, "\(overtaking) of the \(waiting) reminders still to come when it was queued arrived before the sticker's notice")
        #expect(readyAt < (reminders.max() ?? 0))
    }

    /// One batch (a cancellation told to three phones): APNs never answers one stream, answers
    /// another `503` with `Retry-After: 2`, and the third at once. The 503's notice is tried
    /// again after its two seconds, while the stalled stream still waits for its 10-second
    /// limit; the stalled notice is tried again after that limit, and sent.
    @Test func aStreamThatStallsHoldsOnlyItsOwnNotice() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try ClubWorkspace.served(settings: ["push": services.pushSettings])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        _ = try workspace.user("host1", role: "host")
        let admin = try workspace.user("boss", role: "admin")
        let members = try ["stalled", "busy", "fine"].map { device in (device, try workspace.user("\(device)-member")) }
        for (device, member) in members { try register(server, member.token, device: device) }
        try services.stall("apns", token: "stalled", seconds: 60)
        try services.answer("apns", token: "busy", status: 503, reason: "ServiceUnavailable", retryAfter: 2)
        let id = try meetup(workspace, title: "Stalled evening", startsIn: 5 * 3_600, capacity: 5)
        for (_, member) in members { #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201) }
        // The three notices are written in one transaction: one claim, one batch.
        #expect(try server.call("POST", "/v1/meetups/\(id)/cancel", token: admin.token).status == 200)

        func times(_ token: String) throws -> [Double] { try services.apns(token: token).compactMap { $0["time"] as? Double } }
        #expect(try waitUntil(timeout: 40) { try times("busy").count >= 2 }, "the 503's notice was tried again")
        let busy = try times("busy")
        let stalledAt = try #require(try times("stalled").first)
        #expect(try times("fine").count == 1)
        guard busy.count >= 2 else { return }
        #expect(busy[1] - busy[0] >= 1.9, "Retry-After is honoured")
        #expect(busy[1] < stalledAt + 10, "tried again \(busy[1] - busy[0]) s after the 503, before the stalled stream's 10 s limit ran out")

        #expect(try waitUntil(timeout: 60) { try times("stalled").count >= 2 }, "the stalled notice was tried again after its limit")
        let stalled = try times("stalled")
        if stalled.count >= 2 { #expect(stalled[1] - stalled[0] >= 10) }
        #expect(try waitUntil(timeout: 30) {
            try workspace.store().read { db in
                try db.queryOne("SELECT count(*) AS n FROM push_notices WHERE status = 'sent'", []) { try $0.get("n", as: Int64.self) }
            } == 3
        }, "all three sent in the end")
    }
}
