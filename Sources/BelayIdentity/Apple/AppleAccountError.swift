/// Why Sign in with Apple's server side failed: the team key, Apple's answer, or the way there.
public struct AppleAccountError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The .p8 key file is missing, unreadable, or not an EC P-256 private key.
        case keyUnusable = "key_unusable"
        /// The client secret could not be signed.
        case signingFailed = "signing_failed"
        /// Apple could not be reached or did not answer in time.
        case unreachable
        /// Apple answered with an error (`appleErrorCode` says which, e.g. `invalid_grant`).
        case refused
        /// Apple answered 200 with a body that is not what its documentation describes.
        case malformedAnswer = "malformed_answer"
    }

    public let code: Code
    /// The HTTP status Apple answered with, when it answered.
    public let status: Int?
    /// Apple's own `error` member (`invalid_grant`, `invalid_client`, …), when it gave one.
    public let appleErrorCode: String?
    /// What failed and what to do; never the key, the client secret or a token.
    public let detail: String

    public init(code: Code, status: Int? = nil, appleErrorCode: String? = nil, detail: String) {
        self.code = code
        self.status = status
        self.appleErrorCode = appleErrorCode
        self.detail = detail
    }

    public var description: String { detail }
}

/// What `AppleAccountClient.revoke(refreshToken:)` throws.
public typealias AppleRevocationError = AppleAccountError
