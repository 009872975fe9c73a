import BelayCore
import BelayDomain
import BelayPush
import BelayTestSupport
import Foundation
import Testing

/// The APNs and FCM clients against the loopback services (HTTP/2 over TLS): provider and
/// access tokens kept and renewed by the rules of each service, a batch multiplexed on one
/// connection, and each stream answered on its own.
@Suite(.serialized) struct PushGatewayTests {
    private func delivery(_ token: String, platform: DevicePlatform, id: Int64 = 1) -> PushDelivery {
        PushDelivery(noticeID: id, deviceID: id, platform: platform, token: token, appID: "club.belay.app", environment: .production,
                     kind: .test, collapseID: "test-\(id)", payload: Array(#"{"kind":"test","title":"T","body":"B","link":"https://club.example/"}"#.utf8),
                     expiresAt: Date().addingTimeInterval(3_600), attempt: 1, createdAt: Date(), leaseOwner: "test")
    }

    @Test func aBatchGoesAsStreamsOfOneConnection() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-gateway")
        let services = try PushServicesProcess(in: directory)
        let client = try services.apnsClient(clock: SystemTimeSource())
        let outcomes = client.send((1...20).map { delivery("batch\($0)", platform: .ios, id: Int64($0)) })
        #expect(outcomes == Array(repeating: .sent(status: 200), count: 20))
        let again = client.send([delivery("batch21", platform: .ios, id: 21)])
        #expect(again == [.sent(status: 200)])
        let ports = Set(((try services.received()["apns"] as? [[String: Any]]) ?? []).compactMap { $0["client_port"] as? Int })
        #expect(ports.count == 1, "one kept-open connection for every stream: \(ports)")
    }

    /// One stream that APNs never answers holds only itself: the notices started with it are
    /// handed back as they are answered (a 503 with its Retry-After, a 200), a notice started
    /// after them goes out and comes back beside it, and it ends on its own timeout.
    @Test func aStalledStreamHoldsOnlyItself() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-gateway")
        let services = try PushServicesProcess(in: directory)
        let client = try services.apnsClient(clock: SystemTimeSource(), timeout: 4)
        try services.stall("apns", token: "stalled", seconds: 60)
        try services.answer("apns", token: "busy", status: 503, reason: "ServiceUnavailable", retryAfter: 2)
        client.start([delivery("stalled", platform: .ios, id: 1), delivery("busy", platform: .ios, id: 2), delivery("fine", platform: .ios, id: 3)])
        var outcomes: [Int64: PushOutcome] = [:]
        func collect(until done: () -> Bool) {
            // Each stream ends within its 4 s timeout: a bound on the loop, never a measure.
            let deadline = Date().addingTimeInterval(30)
            while !done() && Date() < deadline {
                for (delivery, outcome) in client.collect(waitingAtMost: 0.5) { outcomes[delivery.noticeID] = outcome }
            }
        }
        collect { outcomes[2] != nil && outcomes[3] != nil }
        #expect(outcomes[2] == .retry(after: 2, status: 503, error: "APNs answered 503 ServiceUnavailable"))
        #expect(outcomes[3] == .sent(status: 200))
        #expect(outcomes[1] == nil && client.unanswered == 1, "the stalled stream is still under way: \(outcomes)")

        client.start([delivery("next", platform: .ios, id: 4)])
        collect { outcomes[4] != nil }
        #expect(outcomes[4] == .sent(status: 200))
        #expect(outcomes[1] == nil, "a notice started after the stalled one came back before it")

        collect { outcomes[1] != nil }
        guard case let .retry(after, status, error)? = outcomes[1] else {
            Issue.record("the stalled stream did not end on its timeout: \(outcomes)")
            return
        }
        #expect(after == nil && status == nil && error.contains("no answer within 4.0 s"), "\(error)")
        #expect(client.unanswered == 0)
    }

    @Test func theProviderTokenIsKept50MinutesAndRenewedAtMostEvery20() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-gateway")
        let services = try PushServicesProcess(in: directory)
        let clock = ManualTimeSource(Date())
        let client = try services.apnsClient(clock: clock)
        #expect(client.send([delivery("apns1", platform: .ios)]) == [.sent(status: 200)])
        clock.advance(by: 40 * 60)
        #expect(client.send([delivery("apns1", platform: .ios)]) == [.sent(status: 200)])
        #expect((try services.received()["provider_tokens"] as? [String])?.count == 1, "kept while younger than 50 minutes")
        clock.advance(by: 11 * 60)
        #expect(client.send([delivery("apns1", platform: .ios)]) == [.sent(status: 200)])
        #expect((try services.received()["provider_tokens"] as? [String])?.count == 2, "made again at 50 minutes")

        // APNs says the token expired: not made again within 20 minutes of the last one…
        let before = try services.apns(token: "apns1").count
        try services.expireProviderTokens(before: clock.now().addingTimeInterval(1))
        clock.advance(by: 10 * 60)
        let refused = client.send([delivery("apns1", platform: .ios)])
        #expect(refused.count == 1)
        if case .retry(_, 403, let error) = refused[0] { #expect(error.contains("ExpiredProviderToken")) } else { Issue.record("\(refused)") }
        #expect(try services.apns(token: "apns1").count == before + 1, "not sent again with the same token")
        // …and made again, and the notice sent with it, once 20 minutes have passed.
        clock.advance(by: 11 * 60)
        #expect(client.send([delivery("apns1", platform: .ios)]) == [.sent(status: 200)])
        #expect((try services.received()["provider_tokens"] as? [String])?.count == 3)
    }

    @Test func fcmKeepsItsAccessTokenAndAsksAgainAfterA401OrBeforeItExpires() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-gateway")
        let services = try PushServicesProcess(in: directory)
        let clock = ManualTimeSource(Date())
        let client = try services.fcmClient(clock: clock)
        #expect(client.send([delivery("fcm1", platform: .android), delivery("fcm2", platform: .android, id: 2)]) == [.sent(status: 200), .sent(status: 200)])
        #expect(client.send([delivery("fcm1", platform: .android)]) == [.sent(status: 200)])
        #expect(try services.received()["token_grants"] as? Int == 1)
        try services.revokeAccessTokens()
        #expect(client.send([delivery("fcm1", platform: .android)]) == [.sent(status: 200)], "a new token and the message sent again")
        #expect(try services.received()["token_grants"] as? Int == 2)
        clock.advance(by: 3_599 - 30)
        #expect(client.send([delivery("fcm1", platform: .android)]) == [.sent(status: 200)])
        #expect(try services.received()["token_grants"] as? Int == 3, "asked for again a minute before it expires")
    }

    /// APNs settings whose key file is refused before any address is reached.
    private static func unreachableAPNs(keyFile: String) -> APNsSettings {
        APNsSettings(keyFile: keyFile, keyID: "K", teamID: "T", url: "https://apns.invalid", sandboxURL: "https://apns.invalid", caFile: "")
    }

    @Test func aKeyFileThatIsNotAnAPNsKeyIsRefusedNamingIt() throws {
        let directory = try TemporaryDirectory(prefix: "belay-push-gateway")
        let path = directory.file("not-a-key.p8")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) {
            try APNsClient(settings: Self.unreachableAPNs(keyFile: path), clock: SystemTimeSource())
        }
        do {
            _ = try APNsClient(settings: Self.unreachableAPNs(keyFile: path), clock: SystemTimeSource())
        } catch {
            #expect("\(error)".contains(path))
        }
    }
}
