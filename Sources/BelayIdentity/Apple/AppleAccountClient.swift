import BelayCore
import BelayOutbound
import Foundation

/// The club's Sign in with Apple registration: its team, key and service.
public struct AppleClientSettings: Sendable {
    public var teamID: String
    /// The key's identifier in Apple's developer account (the `kid` of the client secret).
    public var keyID: String
    /// The key file Apple issued (PKCS#8 PEM, `.p8`, an EC P-256 private key).
    public var privateKeyFile: String
    /// The app's bundle ID or the web service ID (`client_id`, the client secret's `sub`).
    public var clientID: String
    public var tokenURL: String
    public var revokeURL: String
    public var timeout: TimeInterval
    /// Whether Apple's endpoints may be on a loopback or private address (tests only).
    public var allowPrivateAddresses: Bool

    public init(teamID: String, keyID: String, privateKeyFile: String, clientID: String,
                tokenURL: String, revokeURL: String, timeout: TimeInterval = 10, allowPrivateAddresses: Bool = false) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyFile = privateKeyFile
        self.clientID = clientID
        self.tokenURL = tokenURL
        self.revokeURL = revokeURL
        self.timeout = timeout
        self.allowPrivateAddresses = allowPrivateAddresses
    }
}

/// Belay's side of Sign in with Apple on the server: the client secret (an ES256 JWT signed
/// with the team's key), exchanging an authorization code for a refresh token, and revoking
/// that token when a member deletes their account (which Apple requires).
///
/// Threading: safe from any thread; the key is only read.
public final class AppleAccountClient: Sendable {
    /// The audience of every client secret.
    public static let audience = "https://appleid.apple.com"
    /// How long a client secret is valid (Apple allows up to six months; one per request is cheap).
    public static let secretLifetime: TimeInterval = 300

    public let settings: AppleClientSettings
    private let clock: any TimeSource
    private let key: SignatureKey
    private let handles = CurlHandlePool(responseLimit: 64 * 1024, maximumIdle: 2)

    /// Reads and checks the team's key.
    /// - Throws: `AppleAccountError` `keyUnusable`, naming the file, when it cannot be read or
    ///   is not an EC P-256 private key in PEM.
    public init(settings: AppleClientSettings, clock: any TimeSource) throws {
        self.settings = settings
        self.clock = clock
        let path = settings.privateKeyFile
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw AppleAccountError(code: .keyUnusable, detail: "Apple's key file \(path) cannot be read: check the path and its permissions")
        }
        guard let key = SignatureKey.privateKey(pem: Array(contents)), key.kind == .ecP256 else {
            throw AppleAccountError(code: .keyUnusable, detail: "Apple's key file \(path) is not an EC P-256 private key in PEM (PKCS#8); use the .p8 file Apple issued for key \(settings.keyID)")
        }
        self.key = key
    }

    /// A client secret: an ES256 JWT with header {alg: ES256, kid: keyID} and claims {iss:
    /// teamID, iat: now, exp: now + 5 minutes, aud: https://appleid.apple.com, sub: clientID}.
    /// - Throws: `AppleAccountError` `signingFailed` when OpenSSL cannot sign.
    public func clientSecret() throws -> String {
        let issuedAt = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        let header: JSONValue = .object([("alg", "ES256"), ("kid", .string(settings.keyID))])
        let claims: JSONValue = .object([
            ("iss", .string(settings.teamID)), ("iat", .int(issuedAt)), ("exp", .int(issuedAt + Int64(Self.secretLifetime))),
            ("aud", .string(Self.audience)), ("sub", .string(settings.clientID)),
        ])
        let signingInput = Crypto.base64URL(header.jsonBytes) + "." + Crypto.base64URL(claims.jsonBytes)
        guard let signature = key.es256Signature(of: Array(signingInput.utf8)) else {
            throw AppleAccountError(code: .signingFailed, detail: "the client secret could not be signed with the key in \(settings.privateKeyFile)")
        }
        return signingInput + "." + Crypto.base64URL(signature)
    }

    /// Exchanges an authorization code from the app for tokens (POST to `tokenURL`).
    /// - Returns: Apple's refresh token, kept to revoke later; nil when Apple gave none.
    /// - Throws: `AppleAccountError`: `refused` with Apple's error code (`invalid_grant` for a
    ///   used or expired code, `invalid_client` for a wrong secret), `unreachable`,
    ///   `malformedAnswer`, or `signingFailed`.
    public func exchange(authorizationCode: String) throws -> String? {
        let answer = try post(settings.tokenURL, form: [
            ("client_id", settings.clientID), ("client_secret", try clientSecret()),
            ("code", authorizationCode), ("grant_type", "authorization_code"),
        ], doing: "exchange the authorization code")
        guard let body = try? JSONParser.parse(answer.body), body.objectValue != nil else {
            throw AppleAccountError(code: .malformedAnswer, status: answer.status,
                                    detail: "Apple's answer to the code exchange at \(settings.tokenURL) is not a JSON object")
        }
        return body["refresh_token"]?.stringValue
    }

    /// Revokes a refresh token (POST to `revokeURL` with `token_type_hint=refresh_token`), as
    /// Apple requires when a member deletes their account.
    /// - Throws: `AppleRevocationError` when Apple does not answer 200: `refused` with Apple's
    ///   error code, `unreachable`, or `signingFailed`.
    public func revoke(refreshToken: String) throws {
        _ = try post(settings.revokeURL, form: [
            ("client_id", settings.clientID), ("client_secret", try clientSecret()),
            ("token", refreshToken), ("token_type_hint", "refresh_token"),
        ], doing: "revoke the token")
    }

    private func post(_ url: String, form: [(String, String)], doing action: String) throws -> HTTPAnswer {
        let call = HTTPCall(url: url, form: form, timeout: settings.timeout, allowPrivateAddresses: settings.allowPrivateAddresses,
                            privateAddressSetting: "allowPrivateAddresses in Apple's settings")
        let answer: HTTPAnswer
        do {
            answer = try call.perform(with: handles)
        } catch {
            throw AppleAccountError(code: .unreachable, detail: "could not \(action) with Apple: \(error); try again later")
        }
        guard answer.status == 200 else {
            let appleCode = (try? JSONParser.parse(answer.body))?["error"]?.stringValue
            let hint = switch appleCode {
            case "invalid_client": "; check the team ID, key ID, key file and client ID in Apple's settings"
            case "invalid_grant": "; the code or token is expired, used or not this client's"
            default: ""
            }
            throw AppleAccountError(code: .refused, status: answer.status, appleErrorCode: appleCode,
                                    detail: "Apple refused to \(action): HTTP \(answer.status)\(appleCode.map { " \($0)" } ?? "")\(hint)")
        }
        return answer
    }
}
