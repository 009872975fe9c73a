import BelayCore
import BelayDomain
import BelayIdentity
import Foundation
import Synchronization

/// Sends notices to iPhones through APNs: HTTP/2 with token authentication, each batch's
/// notices as streams of one connection per host (production and sandbox), kept open.
///
/// Threading: `send` from one thread at a time (the delivery worker's).
public final class APNsClient: PushGateway, @unchecked Sendable {
    public let settings: APNsSettings
    private let providerToken: APNsProviderToken
    private let batch: HTTP2Batch

    /// Reads the team's key.
    /// - Throws: `JWTSigningKeyError` or `PushSetupError` when the `.p8` file cannot be read or is not an EC P-256
    ///   key; `OutboundHTTPError` when libcurl cannot start.
    public init(settings: APNsSettings, clock: any TimeSource) throws {
        let key = try JWTSigningKey(file: settings.keyFile)
        guard key.algorithm == "ES256" else {
            throw PushSetupError(description: "the APNs key file \(settings.keyFile) holds an RSA key; APNs signs with the EC P-256 .p8 key from Apple's developer site (push.apns.key_file)")
        }
        self.settings = settings
        providerToken = APNsProviderToken(key: key, keyID: settings.keyID, teamID: settings.teamID, clock: clock)
        batch = try HTTP2Batch(caFile: settings.caFile, timeout: settings.timeoutSeconds)
    }

    public func send(_ deliveries: [PushDelivery]) -> [PushOutcome] {
        let token: String
        do {
            token = try providerToken.token()
        } catch {
            return deliveries.map { _ in .retry(after: 300, status: nil, error: "the APNs provider token could not be signed: \(error)") }
        }
        var outcomes = judge(deliveries, batch.send(deliveries.map { request(for: $0, token: token) }))
        // An expired or refused provider token: made again (at most every 20 minutes) and the
        // refused notices sent once more with it.
        let refused = outcomes.indices.filter { if case .retry(_, 403, _) = outcomes[$0] { true } else { false } }
        if !refused.isEmpty, (try? providerToken.renew(after: token)) != nil, let renewed = try? providerToken.token(), renewed != token {
            let again = refused.map { deliveries[$0] }
            for (index, outcome) in zip(refused, judge(again, batch.send(again.map { request(for: $0, token: renewed) }))) {
                outcomes[index] = outcome
            }
        }
        return outcomes
    }

    func request(for delivery: PushDelivery, token: String) -> HTTP2Request {
        let base = delivery.environment == .sandbox ? settings.sandboxURL : settings.url
        let expiration = Int64(delivery.expiresAt.timeIntervalSince1970.rounded(.down))
        return HTTP2Request(url: base + "/3/device/" + delivery.token,
                            headers: ["authorization: bearer \(token)", "apns-topic: \(delivery.appID)", "apns-push-type: alert",
                                      "apns-priority: 10", "apns-expiration: \(expiration)", "apns-collapse-id: \(delivery.collapseID)"],
                            body: Self.payload(delivery))
    }

    /// `{"aps": {"alert": {title, body}, "sound": "default", "thread-id", "mutable-content"?}, …}`
    /// with the notice's link, kind, ids and image beside `aps` for the app.
    static func payload(_ delivery: PushDelivery) -> [UInt8] {
        let notice = (try? JSONParser.parse(delivery.payload))?.objectValue ?? JSONObject()
        var aps: [(String, JSONValue)] = [
            ("alert", .object(JSONObject([("title", notice["title"] ?? .string("")), ("body", notice["body"] ?? .string(""))]))),
            ("sound", .string("default")), ("thread-id", .string(delivery.kind.rawValue)),
        ]
        // Lets the app's notification service extension fetch the sticker and show it.
        if notice["image"] != nil { aps.append(("mutable-content", .int(1))) }
        var members: [(String, JSONValue)] = [("aps", .object(JSONObject(aps)))]
        for (key, value) in notice where key != "title" && key != "body" { members.append((key, value)) }
        return JSONValue.object(JSONObject(members)).jsonBytes
    }

    private func judge(_ deliveries: [PushDelivery], _ answers: [PushAnswer]) -> [PushOutcome] {
        zip(deliveries, answers).map { _, answer in
            guard let status = answer.status else { return .retry(after: nil, status: nil, error: answer.failure ?? "APNs gave no answer") }
            let body = try? JSONParser.parse(answer.body)
            let reason = body?["reason"]?.stringValue ?? ""
            let said = "APNs answered \(status)" + (reason.isEmpty ? "" : " \(reason)")
            switch (status, reason) {
            case (200, _): return .sent(status: status)
            case (410, _): return .removeDevice(status: status, reason: said, unregisteredAt: Self.lastValid(body))
            case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .removeDevice(status: status, reason: said)
            case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"): return .retry(after: nil, status: 403, error: said)
            case (429, _), (503, _), (500...599, _): return .retry(after: answer.retryAfter, status: status, error: said)
            default: return .failed(status: status, error: said)
            }
        }
    }

    /// The 410's `timestamp`: when APNs last knew the token valid, in milliseconds since 1970
    /// (Apple: stop sending to the token until the device registers it again after then).
    /// Nil when the answer has none.
    static func lastValid(_ body: JSONValue?) -> Date? {
        guard case let .number(number)? = body?["timestamp"], let milliseconds = Double(number.text), milliseconds.isFinite,
              milliseconds >= 0 else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1_000)
    }
}
