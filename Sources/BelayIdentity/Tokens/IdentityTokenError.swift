/// A refusal of an ID token with a stable code: the caller maps it to 401 (the token), 422
/// (the request) or 503 (`keysUnavailable`, with `retryAfterSeconds`).
public struct IdentityTokenError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case malformedToken = "malformed_token"
        case algorithmNotAllowed = "algorithm_not_allowed"
        case keyMismatch = "key_mismatch"
        case unknownKey = "unknown_key"
        case badSignature = "bad_signature"
        case wrongIssuer = "wrong_issuer"
        case wrongAudience = "wrong_audience"
        case wrongAuthorizedParty = "wrong_authorized_party"
        case expired = "token_expired"
        case issuedInFuture = "issued_in_future"
        case notYetValid = "token_not_yet_valid"
        case wrongNonce = "wrong_nonce"
        case missingNonce = "missing_nonce"
        case keysUnavailable = "keys_unavailable"
        case malformedKeys = "malformed_keys"
    }

    public let code: Code
    /// What was wrong and what to do; never the token, its subject, e-mail or nonce.
    public let detail: String
    /// For `keysUnavailable`: when to try again.
    public let retryAfterSeconds: Int?

    public init(code: Code, detail: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
