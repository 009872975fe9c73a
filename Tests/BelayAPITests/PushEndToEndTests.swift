import BelayCore
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `belay serve` telling members' phones through a loopback APNs and FCM that speak HTTP/2
/// over TLS and check the provider token, the access-token grant, the headers and payloads:
/// every kind of notice in the member's language, each error answer handled, and a server
/// killed with SIGKILL losing no notice.
@Suite(.serialized) struct PushEndToEndTests {
    private func workspace(_ services: PushServicesProcess, push: [String: Any] = [:]) throws -> ClubWorkspace {
        try ClubWorkspace.served(settings: [
            "push": services.pushSettings.merging(push) { $1 },
            "waitlist": ["claim_minutes": 30, "cutoff_minutes": 60],
        ])
    }

    private func register(_ server: BelayServerProcess, _ token: String, platform: String, device: String, locale: String,
                          environment: String = "production") throws {
        let answer = try server.call("POST", "/v1/me/devices", token: token, json: """
            {"platform": "\(platform)", "token": "\(device)", "app_id": "club.belay.app", "environment": "\(environment)", "locale": "\(locale)"}
            """)
        #expect(answer.status == 201, "\(answer.response.text)")
    }

    private func meetup(_ workspace: ClubWorkspace, title: String, startsIn: TimeInterval, capacity: Int = 1) throws -> Int64 {
        let now = Date()
        let created = try workspace.cli(["meetups", "create", "--title", title, "--place", "더클라임 강남점",
                                         "--starts", RFC3339.string(from: now.addingTimeInterval(startsIn), utcOffsetSeconds: 9 * 3600),
                                         "--ends", RFC3339.string(from: now.addingTimeInterval(startsIn + 7_200), utcOffsetSeconds: 9 * 3600),
                                         "--capacity", "\(capacity)", "--host", "host1"])
        return try #require(created["id"]?.intValue)
    }

    /// The kinds each APNs token or FCM token has been told, waiting until `expected` are all there.
    private func waitForKinds(_ services: PushServicesProcess, apns: [String: Set<String>] = [:], fcm: [String: Set<String>] = [:],
                              timeout: TimeInterval = 60) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let apnsDone = try apns.allSatisfy { token, kinds in
                Set(try services.apns(token: token).compactMap { ($0["payload"] as? [String: Any])?["kind"] as? String }).isSuperset(of: kinds)
            }
            let fcmDone = try fcm.allSatisfy { token, kinds in
                Set(try services.fcm(token: token).compactMap { ($0["data"] as? [String: Any])?["kind"] as? String }).isSuperset(of: kinds)
            }
            if apnsDone && fcmDone { return true }
            usleep(200_000)
        }
        return false
    }

    @Test func everyKindOfNoticeReachesAPNsAndFCMInTheMembersLanguage() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try workspace(services, push: ["offer_warning_minutes": 30])
        let server = try workspace.serve()
        let host = try workspace.user("host1", role: "host")
        let ana = try workspace.user("ana"), ben = try workspace.user("ben"), cat = try workspace.user("cat")
        try register(server, ana.token, platform: "ios", device: "aa11aa11", locale: "ko", environment: "sandbox")
        try register(server, ben.token, platform: "android", device: "fcm-ben", locale: "en")
        try register(server, cat.token, platform: "ios", device: "cc33cc33", locale: "ja")

        // Within the waitlist's cutoff a freed place goes to the next in line at once.
        let soon = try meetup(workspace, title: "Evening session", startsIn: 20 * 60)
        #expect(try server.call("POST", "/v1/meetups/\(soon)/join", token: ana.token).status == 201)
        #expect(try server.call("POST", "/v1/meetups/\(soon)/join", token: ben.token).status == 201)
        #expect(try server.call("POST", "/v1/meetups/\(soon)/leave", token: ana.token).status == 200)
        // Further out, the place is offered with a claim window (and the warning, 30 minutes here).
        let later = try meetup(workspace, title: "Weekend bouldering", startsIn: 3 * 3_600)
        #expect(try server.call("POST", "/v1/meetups/\(later)/join", token: cat.token).status == 201)
        #expect(try server.call("POST", "/v1/meetups/\(later)/join", token: ana.token).status == 201)
        #expect(try server.call("POST", "/v1/meetups/\(later)/leave", token: cat.token).status == 200)
        // The warning comes from the server's schedule (every few seconds) while the offer stands.
        #expect(try waitForKinds(services, apns: ["aa11aa11": ["waitlist_offer", "waitlist_offer_expiring"]]))
        let moved = RFC3339.string(from: Date().addingTimeInterval(4 * 3_600), utcOffsetSeconds: 9 * 3600)
        let movedEnd = RFC3339.string(from: Date().addingTimeInterval(6 * 3_600), utcOffsetSeconds: 9 * 3600)
        #expect(try server.call("PATCH", "/v1/meetups/\(later)", token: host.token,
                                json: #"{"starts_at": "\#(moved)", "ends_at": "\#(movedEnd)"}"#).status == 200)
        #expect(try server.call("POST", "/v1/meetups/\(later)/cancel", token: host.token).status == 200)
        // A check-in: the sticker is ready.
        let now = try meetup(workspace, title: "Morning climb", startsIn: -60, capacity: 5)
        #expect(try server.call("POST", "/v1/meetups/\(now)/join", token: cat.token).status == 201)
        let code = try #require(try server.call("GET", "/v1/meetups/\(now)/check-in-code", token: host.token)["code"]?.stringValue)
        let checkIn = try server.call("POST", "/v1/meetups/\(now)/check-in", token: cat.token, json: #"{"code": "\#(code)"}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue, "\(checkIn.response.text)")

        let arrived = try waitForKinds(services,
                                       apns: ["aa11aa11": ["waitlist_offer", "waitlist_offer_expiring", "meetup_changed", "meetup_cancelled"],
                                              "cc33cc33": ["reward_ready"]],
                                       fcm: ["fcm-ben": ["waitlist_promoted", "meetup_reminder", "check_in_open"]])
        let received = try services.received()
        #expect(arrived, "\(received)")

        // APNs: HTTP/2, a provider token APNs accepts, the headers, Korean text in the meetup's zone.
        let anaRequests = try services.apns(token: "aa11aa11")
        #expect(anaRequests.allSatisfy { $0["verified"] as? Bool == true && $0["http_version"] as? String == "2" })
        let offer = try #require(anaRequests.first { ($0["payload"] as? [String: Any])?["kind"] as? String == "waitlist_offer" })
        let headers = try #require(offer["headers"] as? [String: String])
        #expect(headers["apns-topic"] == "club.belay.app")
        #expect(headers["apns-push-type"] == "alert")
        #expect(headers["apns-priority"] == "10")
        #expect(headers["apns-collapse-id"]?.hasPrefix("offer-a") == true)
        let expiration = try #require(headers["apns-expiration"].flatMap(Double.init))
        #expect(expiration > Date().timeIntervalSince1970 + 20 * 60 && expiration < Date().timeIntervalSince1970 + 31 * 60,
                "an offer is of no use once it runs out")
        let alert = try #require(((offer["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["title"] == "자리가 났어요")
        #expect(alert["body"]?.contains("Weekend bouldering") == true && alert["body"]?.contains("까지 확정하세요") == true, "\(alert)")
        #expect((offer["payload"] as? [String: Any])?["link"] as? String == "http://127.0.0.1:8080/meetups/\(later)")
        let cancelled = try #require(anaRequests.first { ($0["payload"] as? [String: Any])?["kind"] as? String == "meetup_cancelled" })
        #expect((((cancelled["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: String])?["title"] == "Weekend bouldering 취소")

        // The sticker's notice carries its image for the notification extension (Japanese).
        let ready = try #require(try services.apns(token: "cc33cc33").first { ($0["payload"] as? [String: Any])?["kind"] as? String == "reward_ready" })
        let readyPayload = try #require(ready["payload"] as? [String: Any])
        #expect((readyPayload["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
        #expect((readyPayload["image"] as? String)?.hasPrefix("http://127.0.0.1:8080/v1/rewards/\(rewardID)/sticker/") == true)
        #expect(readyPayload["reward_id"] as? Int == Int(rewardID))
        #expect((((readyPayload["aps"] as? [String: Any])?["alert"] as? [String: String])?["title"]) == "ステッカーができました")

        // FCM: an access token from the service account, collapse key and ttl, English text.
        let benMessages = try services.fcm(token: "fcm-ben")
        let promoted = try #require(benMessages.first { ($0["data"] as? [String: Any])?["kind"] as? String == "waitlist_promoted" })
        #expect((promoted["notification"] as? [String: String])?["title"] == "You're going: Evening session")
        let android = try #require(promoted["android"] as? [String: Any])
        #expect((android["collapse_key"] as? String)?.hasPrefix("promoted-a") == true)
        #expect((android["ttl"] as? String)?.hasSuffix("s") == true)
        #expect((promoted["data"] as? [String: String])?["meetup_id"] == "\(soon)")
        #expect(try services.received()["token_grants"] as? Int == 1, "the access token is kept")

        // Each notice is told once per device.
        let collapseIDs = anaRequests.compactMap { ($0["headers"] as? [String: String])?["apns-collapse-id"] }
        #expect(Set(collapseIDs).count == collapseIDs.count, "\(collapseIDs)")

        // The operator sees them counted.
        let admin = try workspace.user("boss", role: "admin")
        let metrics = try server.call("GET", "/metrics", token: admin.token).response.text
        let sent = metrics.split(separator: "\n").first { $0.hasPrefix("belay_push_notices_sent_total ") }
        #expect((sent?.split(separator: " ").last).flatMap { Double($0) } ?? 0 >= 8, "\(sent ?? "no belay_push_notices_sent_total")")
        #expect(metrics.contains("belay_push_delivery_lag_seconds_bucket"))

        // The operator's test notice, with each service's answer.
        let test = try BelayProcess.run(["push", "test", "ana", "--config", workspace.configPath], in: workspace.directory.path)
        #expect(test.status == 0, "\(test.standardError)")
        #expect(test.standardOutput.contains("HTTP 200") && test.standardOutput.contains("sent"), "\(test.standardOutput)")
        let devices = try BelayProcess.run(["push", "devices", "ben", "--config", workspace.configPath], in: workspace.directory.path)
        #expect(devices.status == 0)
        #expect(devices.standardOutput.contains("android") && devices.standardOutput.contains("fcm-ben"), "\(devices.standardOutput)")
        _ = server.terminate()
    }

    @Test func eachErrorAnswerIsHandled() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try workspace(services)
        let server = try workspace.serve()
        let ana = try workspace.user("ana")
        // Unregistered (410) and BadDeviceToken (400) at APNs, UNREGISTERED at FCM: the device goes.
        try register(server, ana.token, platform: "ios", device: "gone410", locale: "en")
        // A 410 whose token stopped being valid before the phone registered it (again): it stays.
        try register(server, ana.token, platform: "ios", device: "back410", locale: "en")
        try register(server, ana.token, platform: "ios", device: "later410", locale: "en")
        try register(server, ana.token, platform: "ios", device: "bad400", locale: "en")
        try register(server, ana.token, platform: "android", device: "fcm-gone", locale: "en")
        // 429 and 503 with Retry-After: tried again after it, then sent.
        try register(server, ana.token, platform: "ios", device: "busy429", locale: "en")
        try register(server, ana.token, platform: "android", device: "fcm-busy", locale: "en")
        try services.answer("apns", token: "gone410", status: 410, reason: "Unregistered")
        try services.answer("apns", token: "back410", status: 410, reason: "Unregistered", timestamp: Date().addingTimeInterval(-3_600))
        try services.answer("apns", token: "later410", status: 410, reason: "Unregistered", timestamp: Date().addingTimeInterval(60))
        try services.answer("apns", token: "bad400", status: 400, reason: "BadDeviceToken")
        try services.answer("fcm", token: "fcm-gone", status: 404, reason: "NOT_FOUND", errorCode: "UNREGISTERED")
        try services.answer("apns", token: "busy429", status: 429, reason: "TooManyRequests", retryAfter: 2)
        try services.answer("fcm", token: "fcm-busy", status: 503, reason: "UNAVAILABLE", retryAfter: 2)
        let test = try BelayProcess.run(["push", "test", "ana", "--config", workspace.configPath], in: workspace.directory.path)
        #expect(test.status == 1, "not every phone took it")
        #expect(test.standardOutput.contains("device removed") && test.standardOutput.contains("will retry"), "\(test.standardOutput)")
        let left = try server.call("GET", "/v1/me/devices", token: ana.token)
        let tokens = Set((left["items"]?.arrayValue ?? []).compactMap { $0["token"]?.stringValue })
        #expect(tokens == ["busy429", "fcm-busy", "back410"], "the unregistered devices are removed, not one registered after its 410's timestamp")

        // The two busy ones are sent again by the server after Retry-After, with the same collapse id.
        let sentAgain = try server.poll(timeout: 30) { () -> Bool? in
            let busy = try services.apns(token: "busy429"), fcmBusy = try services.fcm(token: "fcm-busy")
            return busy.count >= 2 && fcmBusy.count >= 2 ? true : nil
        }
        #expect(sentAgain == true)
        let attempts = try services.apns(token: "busy429")
        let first = try #require(attempts.first?["time"] as? Double), second = try #require(attempts.dropFirst().first?["time"] as? Double)
        #expect(second - first >= 1.9, "Retry-After is honoured")
        #expect(Set(attempts.compactMap { ($0["headers"] as? [String: String])?["apns-collapse-id"] }).count == 1)
        _ = server.terminate()
    }

    /// APNs and FCM reached in cleartext HTTP/2 with prior knowledge (a relay or an egress proxy
    /// on the club's network): every notice of a batch of forty arrives, as over TLS.
    @Test func aCleartextHTTP2RelayGetsEveryNoticeOfABatch() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try ClubWorkspace.served(settings: ["push": services.pushSettings(cleartext: true)])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        _ = try workspace.user("host1", role: "host")
        let admin = try workspace.user("boss", role: "admin")
        var members: [(token: String, platform: String, device: String)] = []
        for index in 0..<40 {
            let member = try workspace.user("relay\(index)")
            let (platform, device) = index % 2 == 0 ? ("ios", "relay-ios-\(index)") : ("android", "relay-android-\(index)")
            try register(server, member.token, platform: platform, device: device, locale: "en")
            members.append((member.token, platform, device))
        }
        // Two batches of forty: the second goes over the connections the first left open.
        for round in 1...2 {
            let id = try meetup(workspace, title: "Relay night \(round)", startsIn: Double(4 + round) * 3_600, capacity: 40)
            for member in members { #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201) }
            #expect(try server.call("POST", "/v1/meetups/\(id)/cancel", token: admin.token).status == 200)
            let arrived = try server.poll(timeout: 45) { () -> Bool? in
                let counts = try members.map { member in
                    member.platform == "ios" ? try services.apns(token: member.device).count : try services.fcm(token: member.device).count
                }
                return counts.allSatisfy { $0 >= round } ? true : nil
            }
            #expect(arrived == true, "round \(round): every notice of the batch crossed the cleartext relay")
        }
        let failed = try workspace.store().read { db in
            try db.queryOne("SELECT count(*) AS n FROM push_notices WHERE status <> 'sent'", []) { try $0.get("n", as: Int64.self) }
        }
        #expect(failed == 0, "every notice sent, none failed or waiting")
    }

    @Test func aServerKilledMidDeliveryLosesNoNotice() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push")
        let services = try PushServicesProcess(in: directory)
        let workspace = try workspace(services)
        var server = try workspace.serve()
        _ = try workspace.user("host1", role: "host")
        let members = try (1...3).map { try workspace.user("member\($0)") }
        for (index, member) in members.enumerated() {
            try register(server, member.token, platform: "ios", device: "kill\(index)", locale: "en")
        }
        let id = try meetup(workspace, title: "Crash test", startsIn: 5 * 3_600, capacity: 10)
        for member in members { #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201) }
        // The first device's notice is answered 503 (retry in 60 s): it is still pending when the server dies.
        try services.answer("apns", token: "kill0", status: 503, reason: "ServiceUnavailable", retryAfter: 60)
        let admin = try workspace.user("boss", role: "admin")
        #expect(try server.call("POST", "/v1/meetups/\(id)/cancel", token: admin.token).status == 200)
        #expect(try server.poll(timeout: 30) { try services.apns(token: "kill0").isEmpty ? nil : true } == true)
        server.send(SIGKILL)
        #expect(server.wait().status == 128 + SIGKILL)
        // The notice waits out its Retry-After in the database; moved forward, a new server sends it.
        try workspace.store().write { db in try db.execute("UPDATE push_notices SET next_attempt_at = 0 WHERE status = 'pending'", []) }
        server = try workspace.serve()
        #expect(try waitForKinds(services, apns: ["kill0": ["meetup_cancelled"], "kill1": ["meetup_cancelled"], "kill2": ["meetup_cancelled"]]))
        let delivered = try #require(try server.poll(timeout: 30) { () -> [[String: Any]]? in
            let all = try services.apns(token: "kill0")
            return all.count >= 2 ? all : nil
        })
        #expect(Set(delivered.compactMap { ($0["headers"] as? [String: String])?["apns-collapse-id"] }) == ["cancelled-m\(id)"])
        _ = server.terminate()
    }
}
