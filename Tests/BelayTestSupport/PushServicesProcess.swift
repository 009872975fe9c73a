import Foundation

/// APNs and FCM on loopback (`scripts/testing/push-services.py`): HTTP/2 over TLS with a
/// certificate authority it makes, the team's APNs key and an FCM service account written
/// into a directory, every request checked and recorded, and any error answered on request.
public final class PushServicesProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let script: ScriptProcess
    /// The plain-HTTP control port (what was received, answers to give).
    public var controlPort: Int { script.port }
    /// The HTTP/2 TLS port APNs and FCM answer on.
    public let tlsPort: Int
    /// The same services in cleartext HTTP/2 with prior knowledge (h2c), as a relay answers.
    public let cleartextPort: Int
    public let caFile: String
    public let apnsKeyFile: String
    public let serviceAccountFile: String
    public let teamID = "TEAM123456"
    public let keyID = "PUSHKEY123"

    /// - Throws: when Python or its libraries cannot be set up, or the services do not listen.
    public init(in directory: TemporaryDirectory) throws {
        let folder = directory.file("push-services")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        script = try ScriptProcess(script: "push-services.py", arguments: ["--dir", folder, "--team-id", teamID, "--key-id", keyID])
        guard let plain = script.waitForLine(timeout: 60, where: { $0.hasPrefix("plain ") }), let cleartext = Int(plain.dropFirst(6)),
              let line = script.waitForLine(timeout: 60, where: { $0.hasPrefix("tls ") }), let port = Int(line.dropFirst(4)) else {
            throw Failure(description: "push-services.py did not announce its ports: \(script.lines)")
        }
        tlsPort = port
        cleartextPort = cleartext
        caFile = folder + "/ca.pem"
        apnsKeyFile = folder + "/apns-key.p8"
        serviceAccountFile = folder + "/fcm-service-account.json"
    }

    /// The `push` section of a config.json that sends everything here.
    public var pushSettings: [String: Any] { pushSettings(cleartext: false) }

    /// The `push` section that sends APNs and FCM messages here, in cleartext HTTP/2 (h2c) when
    /// `cleartext` (FCM's access tokens still come over TLS, as from Google).
    public func pushSettings(cleartext: Bool) -> [String: Any] {
        let url = cleartext ? "http://127.0.0.1:\(cleartextPort)" : "https://127.0.0.1:\(tlsPort)"
        return ["ca_file": caFile,
                "apns": ["key_file": apnsKeyFile, "key_id": keyID, "team_id": teamID, "url": url, "sandbox_url": url],
                "fcm": ["service_account_file": serviceAccountFile, "url": url]]
    }

    /// Everything received: `apns` (each `token`, `headers`, `payload`, `verified`), `fcm`
    /// (each `message`), `token_grants`, `provider_tokens`.
    public func received() throws -> [String: Any] {
        let response = try HTTPTestClient.request(port: controlPort, "GET", "/received")
        guard let object = response.jsonObject else { throw Failure(description: "no record: \(response.text)") }
        return object
    }

    /// How many notices of each kind APNs and FCM received: cheaper to ask often than
    /// `received`, which carries every request.
    public func counts() throws -> [String: Int] {
        let response = try HTTPTestClient.request(port: controlPort, "GET", "/counts")
        guard let object = response.jsonObject else { throw Failure(description: "no counts: \(response.text)") }
        return object.compactMapValues { $0 as? Int }
    }

    /// The APNs requests received for `token`.
    public func apns(token: String) throws -> [[String: Any]] {
        ((try received()["apns"] as? [[String: Any]]) ?? []).filter { $0["token"] as? String == token }
    }

    /// The FCM messages received for `token`.
    public func fcm(token: String) throws -> [[String: Any]] {
        ((try received()["fcm"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? [String: Any] }.filter { $0["token"] as? String == token }
    }

    /// The next `times` requests for `token` to `service` ("apns" or "fcm") are answered
    /// `status` with `reason` (APNs' reason, FCM's status), FCM's `errorCode`, and APNs'
    /// `timestamp` (when the token was last valid).
    public func answer(_ service: String, token: String, status: Int, reason: String = "", errorCode: String? = nil,
                       retryAfter: Int? = nil, timestamp: Date? = nil, times: Int = 1) throws {
        var request: [String: Any] = ["service": service, "token": token, "status": status, "reason": reason, "times": times]
        if let timestamp { request["timestamp"] = Int64((timestamp.timeIntervalSince1970 * 1_000).rounded(.down)) }
        if let errorCode { request["error_code"] = errorCode }
        if let retryAfter { request["retry_after"] = retryAfter }
        try post("/answer", request)
    }

    /// The next `times` requests for `token` to `service` ("apns" or "fcm") stall: they are
    /// answered `status` only after `seconds`, while every other stream is answered at once.
    public func stall(_ service: String, token: String, seconds: Double, status: Int = 200, times: Int = 1) throws {
        try post("/answer", ["service": service, "token": token, "status": status, "stall_seconds": seconds, "times": times])
    }

    /// APNs answers 403 ExpiredProviderToken to every provider token issued before `instant`.
    public func expireProviderTokens(before instant: Date) throws {
        try post("/expire-provider-tokens", ["before": instant.timeIntervalSince1970])
    }

    /// FCM refuses every access token granted so far (401).
    public func revokeAccessTokens() throws { try post("/revoke-access-tokens", [:]) }

    private func post(_ path: String, _ object: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: object)
        let response = try HTTPTestClient.request(port: controlPort, "POST", path, headers: [("Content-Type", "application/json")], body: Array(body))
        guard response.status == 200 else { throw Failure(description: "\(path) answered \(response.status): \(response.text)") }
    }
}
