import BelayCore
import BelayDomain
import BelayIdentity
import Foundation
import Synchronization

/// Sends notices to iPhones through APNs: HTTP/2 with token authentication, each notice a
/// stream of one kept-open connection per host (production and sandbox), answered on its own.
///
/// Threading: `start` and `collect` (or `send`) from one thread at a time (the delivery
/// worker's); `interrupt` from any thread.
public final class APNsClient: StreamingPushGateway, @unchecked Sendable {
    public let settings: APNsSettings
    /// The words of each kind of notice.
    public let wording: NoticeWording
    private let providerToken: APNsProviderToken
    private let streams: HTTP2Streams
    /// The notices under way, by stream: each with the provider token it went with, and whether
    /// it is already the second try after APNs refused the first token.
    private var underWay: [Int: (delivery: PushDelivery, token: String, isRenewal: Bool)] = [:]
    /// Outcomes known without an answer (a provider token that cannot be signed).
    private var decided: [(PushDelivery, PushOutcome)] = []

    /// Reads the team's key.
    /// - Throws: `JWTSigningKeyError` or `PushSetupError` when the `.p8` file cannot be read or is not an EC P-256
    ///   key; `OutboundHTTPError` when libcurl cannot start.
    public init(settings: APNsSettings, clock: any TimeSource, wording: NoticeWording = .belay) throws {
        let key = try JWTSigningKey(file: settings.keyFile)
        guard key.algorithm == "ES256" else {
            throw PushSetupError(description: "the APNs key file \(settings.keyFile) holds an RSA key; APNs signs with the EC P-256 .p8 key from Apple's developer site (push.apns.key_file)")
        }
        self.settings = settings
        self.wording = wording
        providerToken = APNsProviderToken(key: key, keyID: settings.keyID, teamID: settings.teamID, clock: clock)
        streams = try HTTP2Streams(caFile: settings.caFile, timeout: settings.timeoutSeconds)
    }

    public func start(_ deliveries: [PushDelivery]) {
        let token: String
        do {
            token = try providerToken.token()
        } catch {
            decided += deliveries.map { ($0, .retry(after: 300, status: nil, error: "the APNs provider token could not be signed: \(error)")) }
            return
        }
        for delivery in deliveries { stream(delivery, token: token, isRenewal: false) }
    }

    public func collect(waitingAtMost seconds: Double) -> [(PushDelivery, PushOutcome)] {
        var outcomes = decided
        decided = []
        for (tag, answer) in streams.collect(waitingAtMost: outcomes.isEmpty ? seconds : 0) {
            guard let sent = underWay.removeValue(forKey: tag) else { continue }
            let outcome = judge(answer)
            // An expired or refused provider token: made again (at most every 20 minutes) and
            // the notice sent once more with it.
            if case .retry(_, 403, _) = outcome, !sent.isRenewal, (try? providerToken.renew(after: sent.token)) != nil,
               let renewed = try? providerToken.token(), renewed != sent.token {
                stream(sent.delivery, token: renewed, isRenewal: true)
                continue
            }
            outcomes.append((sent.delivery, outcome))
        }
        return outcomes
    }

    public var unanswered: Int { underWay.count + decided.count }

    public func interrupt() {
        streams.interrupt()
    }

    private func stream(_ delivery: PushDelivery, token: String, isRenewal: Bool) {
        underWay[streams.start(request(for: delivery, token: token))] = (delivery, token, isRenewal)
    }

    func request(for delivery: PushDelivery, token: String) -> HTTP2Request {
        let base = delivery.environment == .sandbox ? settings.sandboxURL : settings.url
        let expiration = Int64(delivery.expiresAt.timeIntervalSince1970.rounded(.down))
        return HTTP2Request(url: base + "/3/device/" + delivery.token,
                            headers: ["authorization: bearer \(token)", "apns-topic: \(delivery.appID)", "apns-push-type: alert",
                                      "apns-priority: 10", "apns-expiration: \(expiration)", "apns-collapse-id: \(delivery.collapseID)"],
                            body: Self.payload(delivery, wording: wording))
    }

    /// `{"aps": {"alert": {title, body}, "sound": "default", "thread-id", "mutable-content"?}, …}`
    /// with the notice's link, kind, ids and image beside `aps` for the app.
    static func payload(_ delivery: PushDelivery, wording: NoticeWording = .belay) -> [UInt8] {
        let notice = wording.shown(delivery)
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

    private func judge(_ answer: PushAnswer) -> PushOutcome {
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

    /// The 410's `timestamp`: when APNs last knew the token valid, in milliseconds since 1970
    /// (Apple: stop sending to the token until the device registers it again after then).
    /// Nil when the answer has none.
    static func lastValid(_ body: JSONValue?) -> Date? {
        guard case let .number(number)? = body?["timestamp"], let milliseconds = Double(number.text), milliseconds.isFinite,
              milliseconds >= 0 else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1_000)
    }
}
