import Foundation

/// A sign-in held until its second factor is given: what the member's client keeps meanwhile.
public struct HeldSignInChallenge: Sendable, Equatable {
    /// The token naming the held sign-in (256 random bits; only its SHA-256 is stored): given
    /// back with the authenticator's code or a recovery code.
    public let token: String
    /// When the held sign-in is forgotten (sign in again from the start after).
    public let expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}
