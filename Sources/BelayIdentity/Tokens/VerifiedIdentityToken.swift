import Foundation

/// What a verified ID token says.
public struct VerifiedIdentityToken: Sendable, Hashable {
    public let provider: IdentityProvider
    /// The provider's stable identifier of the person (`sub`).
    public let subject: String
    public let email: String?
    /// Whether the provider vouches for `email` (`email_verified`, a boolean or the string "true").
    public let emailVerified: Bool
    /// Whether `email` is one of Apple's private relay addresses (`is_private_email`).
    public let isPrivateRelayEmail: Bool
    public let issuedAt: Date
    public let expiresAt: Date
    /// The SHA-256 (lowercase hex) of the whole compact token, for the caller's replay detection.
    public let tokenDigest: String

    public init(provider: IdentityProvider, subject: String, email: String?, emailVerified: Bool, isPrivateRelayEmail: Bool,
                issuedAt: Date, expiresAt: Date, tokenDigest: String) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateRelayEmail = isPrivateRelayEmail
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.tokenDigest = tokenDigest
    }
}
