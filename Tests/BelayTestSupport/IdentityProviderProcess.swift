import Foundation

/// A sign-in provider on a free loopback port (`scripts/testing/identity-provider.py`): it
/// publishes an RSA key ("rsa-1") and an EC P-256 key ("ec-1") as a JWKS, signs ID tokens
/// with PyJWT on request, rotates keys, goes down, and plays Apple's token and revocation
/// endpoints, checking each client secret with the team key it generated.
public final class IdentityProviderProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let script: ScriptProcess
    /// The team's private key (PKCS#8 PEM), for `AppleClientSettings.privateKeyFile`.
    public let appleTeamKeyFile: String
    public let appleTeamID: String
    public let appleKeyID: String
    public let appleClientID: String

    public var port: Int { script.port }

    /// - Throws: when Python or PyJWT cannot be set up, or the fixture does not listen.
    public init(in directory: TemporaryDirectory, appleTeamID: String = "TEAM123456", appleKeyID: String = "KEY1234567",
                appleClientID: String = "club.example.belay") throws {
        appleTeamKeyFile = directory.file("apple-team-key.p8")
        self.appleTeamID = appleTeamID
        self.appleKeyID = appleKeyID
        self.appleClientID = appleClientID
        script = try ScriptProcess(script: "identity-provider.py", arguments: [
            "--generate-apple-team-key", appleTeamKeyFile, "--apple-team-id", appleTeamID,
            "--apple-key-id", appleKeyID, "--apple-client-id", appleClientID,
        ])
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    public var jwksURL: String { url("/jwks") }

    /// A token with `claims`, signed with `alg` ("RS256", "ES256", "HS256" with the RSA public
    /// key as the secret, or "none"), naming `kid` in its header and signed with the key
    /// `signingKey` (by default the key `kid` names).
    /// - Throws: `Failure` when the fixture refuses.
    public func sign(claims: [String: Any], alg: String = "RS256", kid: String? = nil, signingKey: String? = nil,
                     headerOverrides: [String: Any]? = nil) throws -> String {
        var request: [String: Any] = ["claims": claims, "alg": alg]
        if let kid { request["kid"] = kid }
        if let signingKey { request["key"] = signingKey }
        if let headerOverrides { request["header_overrides"] = headerOverrides }
        let answer = try post("/sign", request)
        guard let token = answer["token"] as? String else { throw Failure(description: "the fixture did not sign: \(answer)") }
        return token
    }

    /// Adds a new key of `kind` ("rsa" or "ec"), withdrawing the keys in `retiring`; returns its kid.
    public func rotate(kind: String = "rsa", retiring: [String] = []) throws -> String {
        let answer = try post("/rotate", ["kind": kind, "retire": retiring])
        guard let kid = answer["kid"] as? String else { throw Failure(description: "the fixture did not rotate: \(answer)") }
        return kid
    }

    /// Serves `body` as the JWKS from now on (nil: the real keys again).
    public func serveJWKSBody(_ body: String?) throws {
        _ = try post("/jwks-body", ["body": body ?? NSNull()])
    }

    /// While down, the JWKS answers 503.
    public func setDown(_ down: Bool) throws { _ = try post(down ? "/down" : "/up", [:]) }

    /// From now on the JWKS answers after `seconds` (0: at once), as a key server under strain.
    public func setKeysDelay(_ seconds: Double) throws { _ = try post("/slow", ["seconds": seconds]) }

    /// How many times the JWKS was fetched.
    public func jwksFetches() throws -> Int {
        let response = try HTTPTestClient.request(port: port, "GET", "/stats")
        guard let count = response.jsonObject?["jwks_fetches"] as? Int else { throw Failure(description: "no stats: \(response.text)") }
        return count
    }

    /// Every request to Apple's endpoints: `endpoint`, `form` (without the secret), `verified`,
    /// `claims` of the client secret, `error`.
    public func appleRequests() throws -> [[String: Any]] {
        let response = try HTTPTestClient.request(port: port, "GET", "/apple-requests")
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]) ?? []
    }

    /// The tokens revoked through `/auth/revoke`.
    public func revokedTokens() throws -> [String] {
        let response = try HTTPTestClient.request(port: port, "GET", "/revoked")
        let entries = (try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]) ?? []
        return entries.compactMap { $0["token"] as? String }
    }

    private func post(_ path: String, _ object: [String: Any]) throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: object)
        let response = try HTTPTestClient.request(port: port, "POST", path, headers: [("Content-Type", "application/json")], body: Array(body))
        guard response.status == 200 else { throw Failure(description: "\(path) answered \(response.status): \(response.text)") }
        return response.jsonObject ?? [:]
    }
}
