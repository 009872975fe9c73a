import Foundation

/// How a member proved who they are.
public enum SignInMethod: String, Sendable, CaseIterable, Codable {
    case apple, google, email
}

/// An identity a sign-in proved: a provider's verified ID token (Apple, Google) or an email
/// address whose code was entered. Built by the API after the proof was checked.
public struct ProvenIdentity: Sendable, Hashable {
    public var method: SignInMethod
    /// The provider's stable `sub`; for email, the address in lower case.
    public var subject: String
    public var email: String?
    /// Whether the provider vouches for `email` (always true for an email sign-in).
    public var emailVerified: Bool
    /// The name the app was given (Apple sends it on the first sign-in only).
    public var name: String?
    /// SHA-256 of the ID token, so that each token is exchanged for a session once; nil for email.
    public var tokenDigest: String?
    /// When the ID token stops being valid (its digest is kept until then).
    public var tokenExpiresAt: Date?
    /// Apple's refresh token from the app's authorization code, kept to revoke it when the member leaves.
    public var appleRefreshToken: String?

    public init(method: SignInMethod, subject: String, email: String?, emailVerified: Bool, name: String? = nil,
                tokenDigest: String? = nil, tokenExpiresAt: Date? = nil, appleRefreshToken: String? = nil) {
        self.method = method
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.tokenDigest = tokenDigest
        self.tokenExpiresAt = tokenExpiresAt
        self.appleRefreshToken = appleRefreshToken
    }
}

/// What the app says about the device signing in, shown in the member's list of sessions.
public struct DeviceDescription: Sendable, Hashable {
    /// e.g. `Jisoo's iPhone`; up to 100 characters.
    public var name: String
    /// `ios`, `android`, `web` or empty.
    public var platform: String

    public init(name: String = "", platform: String = "") {
        self.name = name
        self.platform = platform
    }
}

/// A signed-in device of a member.
public struct MemberSession: Sendable, Hashable {
    public let id: Int64
    public let userID: Int64
    public let deviceName: String
    public let platform: String
    public let signInMethod: SignInMethod
    public let createdAt: Date
    public let lastUsedAt: Date
    /// The last time the member proved who they are on this session.
    public let authenticatedAt: Date
    /// When the session ends unless its refresh token is used.
    public let expiresAt: Date
}

/// The tokens a sign-in or a refresh answers.
public struct SessionGrant: Sendable {
    /// The bearer token for every other request; lives `expiresIn` seconds.
    public let accessToken: String
    public let accessTokenExpiresAt: Date
    /// Exchanged for new tokens at `POST /v1/auth/refresh`; works once.
    public let refreshToken: String
    public let session: MemberSession
    public let user: User
    /// True when this sign-in created the account.
    public let accountCreated: Bool
}

/// An emailed sign-in: what the mail must carry. The code and link token are known only here
/// and in the mail; the database keeps their hashes.
public struct EmailSignInChallenge: Sendable {
    public let email: String
    /// Six digits.
    public let code: String
    /// The token in the link `<public_base_url>/auth/email/{token}`.
    public let linkToken: String
    public let expiresAt: Date
    /// The language to write in: the account's, or the one the app asked for.
    public let locale: MemberLocale
}

/// Changes to a member's own profile; nil leaves a field as it is.
public struct ProfileChange: Sendable, Hashable {
    public var displayName: String?
    public var handle: String?
    public var locale: MemberLocale?
    public var showNameOnSharePages: Bool?

    public init(displayName: String? = nil, handle: String? = nil, locale: MemberLocale? = nil, showNameOnSharePages: Bool? = nil) {
        self.displayName = displayName
        self.handle = handle
        self.locale = locale
        self.showNameOnSharePages = showNameOnSharePages
    }
}

/// A member's own view of their account.
public struct MemberProfile: Sendable, Hashable {
    public let user: User
    public let locale: MemberLocale?
    public let emailVerified: Bool
    public let showNameOnSharePages: Bool
}

/// What deleting an account leaves to do outside the database.
public struct AccountDeletion: Sendable {
    public let userID: Int64
    /// Apple refresh tokens to revoke at Apple.
    public let appleRefreshTokens: [String]
    /// Rewards whose badges were revoked and share pages taken down.
    public let revokedRewardIDs: [Int64]
}

/// A sign-in identity as a member's export lists it (no secrets).
public struct LinkedIdentity: Sendable, Hashable {
    public let provider: SignInMethod
    public let subject: String
    public let email: String?
    public let createdAt: Date
    public let lastUsedAt: Date
}

/// A code that lets someone create an account while sign-up is by invite.
public struct Invite: Sendable, Hashable {
    public let id: Int64
    public let code: String
    public let createdBy: Int64?
    public let maxUses: Int
    public let uses: Int
    public let expiresAt: Date
    public let createdAt: Date
    public let revokedAt: Date?

    /// Whether the invite can still admit someone at `now`.
    public func isUsable(at now: Date) -> Bool { revokedAt == nil && uses < maxUses && now < expiresAt }
}
