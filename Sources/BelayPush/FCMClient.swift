import BelayCore
import BelayDomain
import BelayIdentity
import Foundation

/// Sends notices to Android phones through Firebase Cloud Messaging's HTTP v1 API: an OAuth
/// access token from the service account (the JWT-bearer grant at its `token_uri`), kept
/// until a minute before it expires, then each message an HTTP/2 stream of one kept-open
/// connection, answered on its own.
///
/// Threading: `start` and `collect` (or `send`) from one thread at a time (the delivery
/// worker's); `interrupt` from any thread.
public final class FCMClient: StreamingPushGateway, @unchecked Sendable {
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    public let settings: FCMSettings
    /// The words of each kind of notice.
    public let wording: NoticeWording
    private let clock: any TimeSource
    private let account: ServiceAccount
    private let streams: HTTP2Streams
    private var accessToken: (token: String, expiresAt: Date)?
    /// The messages under way, by stream: each with the access token it went with, and whether
    /// it is already the second try after FCM refused the first token.
    private var underWay: [Int: (delivery: PushDelivery, token: String, isRenewal: Bool)] = [:]
    /// Outcomes known without an answer (no access token to be had).
    private var decided: [(PushDelivery, PushOutcome)] = []

    struct ServiceAccount {
        let projectID: String
        let clientEmail: String
        let tokenURI: String
        let key: JWTSigningKey
    }

    /// Reads the service account's key file.
    /// - Throws: `PushSetupError` or `JWTSigningKeyError` naming what is missing or wrong in the file;
    ///   `OutboundHTTPError` when libcurl cannot start.
    public init(settings: FCMSettings, clock: any TimeSource, wording: NoticeWording = .belay) throws {
        self.settings = settings
        self.wording = wording
        self.clock = clock
        account = try Self.readServiceAccount(settings.serviceAccountFile)
        streams = try HTTP2Streams(caFile: settings.caFile, timeout: settings.timeoutSeconds)
    }

    static func readServiceAccount(_ path: String) throws -> ServiceAccount {
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw PushSetupError(description: "the FCM service account file \(path) cannot be read: check push.fcm.service_account_file and its permissions")
        }
        guard let json = try? JSONParser.parse(Array(contents)), json.objectValue != nil else {
            throw PushSetupError(description: "the FCM service account file \(path) is not JSON; download the key of a service account from the Firebase console (Project settings → Service accounts)")
        }
        var fields: [String: String] = [:]
        for name in ["project_id", "client_email", "private_key", "token_uri"] {
            guard let value = json[name]?.stringValue, !value.isEmpty else {
                throw PushSetupError(description: "the FCM service account file \(path) has no \"\(name)\"; it is not a service account key")
            }
            fields[name] = value
        }
        let key = try JWTSigningKey(pem: Array((fields["private_key"] ?? "").utf8), describedAs: "the private_key of \(path)")
        return ServiceAccount(projectID: fields["project_id"] ?? "", clientEmail: fields["client_email"] ?? "",
                              tokenURI: fields["token_uri"] ?? "", key: key)
    }

    public func start(_ deliveries: [PushDelivery]) {
        let token: String
        do {
            token = try currentAccessToken()
        } catch {
            decided += deliveries.map { ($0, .retry(after: 60, status: nil, error: "\(error)")) }
            return
        }
        for delivery in deliveries { stream(delivery, token: token, isRenewal: false) }
    }

    public func collect(waitingAtMost seconds: Double) -> [(PushDelivery, PushOutcome)] {
        var outcomes = decided
        decided = []
        var noNewToken = false
        for (tag, answer) in streams.collect(waitingAtMost: outcomes.isEmpty ? seconds : 0) {
            guard let sent = underWay.removeValue(forKey: tag) else { continue }
            let outcome = judge(answer)
            // A refused access token (revoked, or the clock moved): a new one (once for all the
            // messages refused with it), and the message sent once more with it.
            if case .retry(_, 401, _) = outcome, !sent.isRenewal, !noNewToken {
                if accessToken?.token == sent.token { accessToken = nil }
                if let renewed = try? currentAccessToken(), renewed != sent.token {
                    stream(sent.delivery, token: renewed, isRenewal: true)
                    continue
                }
                noNewToken = true
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

    /// The access token, asked for again a minute before it expires.
    /// - Throws: `FCMTokenError` when the token endpoint refuses or cannot be reached.
    func currentAccessToken() throws -> String {
        let now = clock.now()
        if let accessToken, now < accessToken.expiresAt.addingTimeInterval(-60) { return accessToken.token }
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let assertion = try account.key.sign(claims: .object(JSONObject([
            ("iss", .string(account.clientEmail)), ("scope", .string(Self.scope)), ("aud", .string(account.tokenURI)),
            ("iat", .int(issuedAt)), ("exp", .int(issuedAt + 3_600)),
        ])), keyID: nil, type: "JWT")
        let form = "grant_type=" + Self.formEscaped("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + assertion
        let answer = streams.send([HTTP2Request(url: account.tokenURI, headers: [], body: Array(form.utf8),
                                                contentType: "application/x-www-form-urlencoded")])[0]
        guard let status = answer.status else {
            throw FCMTokenError(description: "the FCM token endpoint \(account.tokenURI) could not be reached: \(answer.failure ?? "no answer")")
        }
        let json = try? JSONParser.parse(answer.body)
        guard status == 200, let token = json?["access_token"]?.stringValue, !token.isEmpty else {
            let reason = json?["error_description"]?.stringValue ?? json?["error"]?.stringValue ?? ""
            throw FCMTokenError(description: "the FCM token endpoint \(account.tokenURI) answered \(status)" + (reason.isEmpty ? "" : ": \(reason)") + "; check push.fcm.service_account_file")
        }
        var lifetime: Double = 3_600
        if case let .number(seconds)? = json?["expires_in"], seconds.doubleValue > 0 { lifetime = seconds.doubleValue }
        accessToken = (token, now.addingTimeInterval(lifetime))
        return token
    }

    func request(for delivery: PushDelivery, token: String) -> HTTP2Request {
        HTTP2Request(url: settings.url + "/v1/projects/\(account.projectID)/messages:send",
                     headers: ["Authorization: Bearer \(token)"], body: Self.message(delivery, now: clock.now(), wording: wording))
    }

    /// `{"message": {token, notification: {title, body, image?}, data: {…strings}, android:
    /// {collapse_key, ttl, priority, notification: {tag}}}}`.
    static func message(_ delivery: PushDelivery, now: Date, wording: NoticeWording = .belay) -> [UInt8] {
        let notice = wording.shown(delivery)
        var shown: [(String, JSONValue)] = [("title", notice["title"] ?? .string("")), ("body", notice["body"] ?? .string(""))]
        if let image = notice["image"] { shown.append(("image", image)) }
        var data: [(String, JSONValue)] = []
        for (key, value) in notice where key != "title" && key != "body" {
            // FCM's data values are strings only.
            data.append((key, .string(value.stringValue ?? String(decoding: value.jsonBytes, as: UTF8.self))))
        }
        let ttl = max(0, Int64(delivery.expiresAt.timeIntervalSince(now).rounded(.down)))
        let android: [(String, JSONValue)] = [
            ("collapse_key", .string(delivery.collapseID)), ("ttl", .string("\(ttl)s")), ("priority", .string("HIGH")),
            ("notification", .object(JSONObject([("tag", .string(delivery.collapseID))]))),
        ]
        return JSONValue.object(JSONObject([("message", .object(JSONObject([
            ("token", .string(delivery.token)), ("notification", .object(JSONObject(shown))), ("data", .object(JSONObject(data))),
            ("android", .object(JSONObject(android))),
        ])))])).jsonBytes
    }

    private func judge(_ answer: PushAnswer) -> PushOutcome {
        guard let status = answer.status else { return .retry(after: nil, status: nil, error: answer.failure ?? "FCM gave no answer") }
        let error = (try? JSONParser.parse(answer.body))?["error"]
        let code = error?["details"]?.arrayValue?.compactMap { $0["errorCode"]?.stringValue }.first ?? error?["status"]?.stringValue ?? ""
        let said = "FCM answered \(status)" + (code.isEmpty ? "" : " \(code)")
        switch (status, code) {
        case (200, _): return .sent(status: status)
        case (_, "UNREGISTERED"), (404, _): return .removeDevice(status: status, reason: said)
        case (401, _): return .retry(after: nil, status: 401, error: said)
        case (429, _), (503, _), (500...599, _): return .retry(after: answer.retryAfter, status: status, error: said)
        default: return .failed(status: status, error: said)
        }
    }

    private static func formEscaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

/// Why FCM's access token could not be had, for a person.
public struct FCMTokenError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
