import BelayCore
import BelayHTTP
import BelayStorage
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `belay serve` delivering webhooks to a receiver on loopback that checks every signature
/// with the Standard Webhooks reference library, fails, holds and answers; and a server
/// killed with SIGKILL in the middle of a delivery loses no event.
@Suite(.serialized) struct WebhookEndToEndTests {
    /// Short back-off and polling so the test runs in seconds; loopback allowed for the receiver.
    static let settings = ["allow_private_addresses": 1, "retry_base_seconds": 1, "poll_milliseconds": 50, "timeout_seconds": 20,
                           "workers": 2]

    /// Creates a meetup starting now and `count` members in it.
    private func meetupWithMembers(_ workspace: ClubWorkspace, count: Int) throws -> (meetupID: Int64, handles: [String]) {
        _ = try workspace.user("host1", role: "host")
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Hook night", "--place", "더클라임 강남점",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-60), utcOffsetSeconds: 9 * 3600),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 9 * 3600),
                                        "--capacity", "10", "--host", "host1"])
        let meetupID = try #require(meetup["id"]?.intValue)
        let handles = (1...count).map { "climber\($0)" }
        for handle in handles { _ = try workspace.user(handle) }
        try workspace.cli(["attendees", "add", "\(meetupID)"] + handles)
        return (meetupID, handles)
    }

    /// The message ids of every queued event, oldest first, and whether every delivery succeeded.
    private func events(_ workspace: ClubWorkspace) throws -> (ids: [String], allDelivered: Bool) {
        try workspace.store().read { db in
            let ids: [String] = try db.query("SELECT message_id FROM webhook_events ORDER BY id", []) { try $0.get("message_id") }
            let open = try db.scalar("SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded'", as: Int.self) ?? 1
            return (ids, open == 0)
        }
    }

    @Test func signedEventsArriveInOrderThroughFailuresAndDelays() throws {
        let workspace = try ClubWorkspace.served(webhooks: Self.settings)
        let receiver = try WebhookReceiverProcess(arguments: ["--fail-first", "2", "--delay-ms", "50"], in: workspace.directory)
        let server = try workspace.serve()
        let added = try workspace.cli(["webhooks", "add", receiver.url(), "--description", "chat bot"])
        let webhookID = try #require(added["id"]?.intValue)
        try receiver.useSecret(try #require(added["secret"]?.stringValue))

        let (meetupID, handles) = try meetupWithMembers(workspace, count: 2)
        try workspace.cli(["attendees", "check-in", "\(meetupID)", handles[0]])
        let queued = try events(workspace).ids
        // meetup.created, two joins, one check-in (and reward.ready once its images are drawn).
        #expect(queued.count >= 4)

        #expect(receiver.wait(timeout: 120) { requests in
            Set(requests.filter { $0.answer == 200 }.map(\.id)).isSuperset(of: queued)
        }, "every event arrives: \(receiver.requests.map { ($0.id, $0.attempt, $0.answer) })")
        let requests = receiver.requests.filter { queued.contains($0.id) }
        #expect(requests.allSatisfy { $0.verified }, "\(requests.compactMap { $0.error })")
        // In order, one at a time: each event is failed twice, then accepted, before the next is sent.
        #expect(requests.map(\.id) == queued.flatMap { [$0, $0, $0] })
        #expect(requests.map(\.answer) == queued.flatMap { _ in [503, 503, 200] })
        let types = requests.filter { $0.answer == 200 }.compactMap(\.type)
        #expect(Array(types.prefix(4)) == ["meetup.created", "attendance.joined", "attendance.joined", "check_in.created"])
        let checkIn = try #require(requests.first { $0.type == "check_in.created" })
        let payload = try JSONValue.parse(Array(checkIn.body.utf8))
        #expect(payload["data"]?["meetup_id"]?.intValue == meetupID)
        #expect(payload["data"]?["status"]?.stringValue == "checked_in")
        #expect(payload["data"]?["checked_in_at"]?.stringValue?.hasSuffix("+09:00") == true, "the API's representation")

        // The delivery log says what happened.
        let log = try BelayProcess.run(["webhooks", "log", "\(webhookID)", "--config", workspace.configPath], in: workspace.directory.path)
        #expect(log.status == 0)
        #expect(log.standardOutput.contains("check_in.created"))
        #expect(log.standardOutput.contains("succeeded  3 "), "\(log.standardOutput)")
        #expect(log.standardError.contains("Webhook \(webhookID) \(receiver.url()): enabled"))

        // The admin API shows the endpoint without its secret and the same log.
        let admin = try workspace.user("boss", role: "admin")
        let listed = try server.call("GET", "/v1/webhooks", token: admin.token)
        #expect(listed.status == 200)
        #expect(listed["items"]?.arrayValue?.first?["url"]?.stringValue == receiver.url())
        #expect(listed["items"]?.arrayValue?.first?["secret"] == nil)
        // Newest first; the reward.ready event may still be on its way.
        let deliveries = try server.call("GET", "/v1/webhooks/\(webhookID)/deliveries?limit=2", token: admin.token)
        #expect(deliveries["items"]?.arrayValue?.count == 2)
        let cursor = try #require(deliveries["next_cursor"]?.stringValue)
        let older = try server.call("GET", "/v1/webhooks/\(webhookID)/deliveries?limit=500&cursor=\(cursor)", token: admin.token)
        let oldest = try #require(older["items"]?.arrayValue?.last)
        #expect(oldest["type"]?.stringValue == "meetup.created")
        #expect(oldest["status"]?.stringValue == "succeeded")
        #expect(oldest["attempts"]?.intValue == 3)
        #expect(oldest["last_status_code"]?.intValue == 200)
        let member = try workspace.user("nosy")
        #expect(try server.call("GET", "/v1/webhooks", token: member.token).status == 403)
        let refused = try server.call("POST", "/v1/webhooks", token: admin.token, json: #"{"url":"ftp://example.com/"}"#)
        #expect(refused.status == 422)
        #expect(refused["field"]?.stringValue == "url")
        _ = server.terminate()
    }

    @Test func aServerKilledMidDeliveryLosesNoEvent() throws {
        let workspace = try ClubWorkspace.served(webhooks: Self.settings)
        let receiver = try WebhookReceiverProcess(arguments: ["--hold-first", "check_in.created", "--hold-seconds", "60"],
                                                  in: workspace.directory)
        var server = try workspace.serve()
        let added = try workspace.cli(["webhooks", "add", receiver.url(), "--events",
                                       "meetup.created,attendance.joined,check_in.created,attendance.left"])
        try receiver.useSecret(try #require(added["secret"]?.stringValue))
        let (meetupID, handles) = try meetupWithMembers(workspace, count: 3)
        try workspace.cli(["attendees", "check-in", "\(meetupID)", handles[0]])

        // The receiver holds the check-in without answering; the server dies meanwhile.
        let holding = try #require(receiver.waitForLine(timeout: 120) { $0.hasPrefix("holding ") })
        let heldID = String(holding.dropFirst("holding ".count))
        server.send(SIGKILL)
        #expect(server.wait().status == 128 + SIGKILL)
        // More changes while it is down queue behind the one in flight.
        try workspace.cli(["attendees", "remove", "\(meetupID)", handles[2]])

        server = try workspace.serve()
        let queued = try events(workspace).ids
        #expect(queued.contains(heldID))
        #expect(receiver.wait(timeout: 120) { requests in
            Set(requests.filter { $0.answer == 200 && $0.attempt >= ($0.id == heldID ? 2 : 1) }.map(\.id)).isSuperset(of: queued)
        }, "\(receiver.requests.map { ($0.id, $0.attempt, $0.answer) })")
        #expect(server.poll { try? events(workspace).allDelivered == true ? true : nil } == true)
        let requests = receiver.requests
        #expect(requests.allSatisfy { $0.verified })
        // The held event went again with the same webhook-id, and still before the later ones.
        var firstSeen: [String] = []
        for request in requests where !firstSeen.contains(request.id) { firstSeen.append(request.id) }
        #expect(firstSeen == queued)
        #expect(requests.contains { $0.id == heldID && $0.attempt == 2 && $0.answer == 200 })
        // The dead server's leases: the held delivery, and any of its batch whose success it had
        // not yet recorded (sent again: at least once).
        #expect(server.standardError.contains { $0.contains("took over ") && $0.contains(" webhook deliveries of ") })
        _ = server.terminate()
    }
}
