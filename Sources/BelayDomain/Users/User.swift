import Foundation

/// What a user may do: members join and check in; hosts also run meetups; admins run everything.
public enum Role: String, Sendable, CaseIterable, Codable {
    case member
    case host
    case admin
}

/// A person known to Belay.
public struct User: Sendable, Hashable, Codable {
    public let id: Int64
    /// Unique (case-insensitively) short name, e.g. `jisoo`.
    public let handle: String
    public let displayName: String
    /// Unique (case-insensitively) when present.
    public let email: String?
    public let role: Role
    public let createdAt: Date
}

/// The fields of a new user.
public struct NewUser: Sendable, Hashable {
    /// 1–40 characters: letters, digits, `_`, `.` or `-`, starting with a letter or digit.
    public var handle: String
    /// 1–100 characters.
    public var displayName: String
    public var email: String?
    public var role: Role

    public init(handle: String, displayName: String, email: String? = nil, role: Role = .member) {
        self.handle = handle
        self.displayName = displayName
        self.email = email
        self.role = role
    }
}

/// Who is asking: a user (authenticated by a token) or the server's own command line.
///
/// Domain operations that depend on who asks (checking someone else in, editing a meetup)
/// take an `Actor` and refuse with `not_permitted` when its role does not allow it.
public struct Actor: Sendable, Hashable {
    /// The user, or nil for the command line run by the server's operator.
    public let userID: Int64?
    public let role: Role

    public init(userID: Int64?, role: Role) {
        self.userID = userID
        self.role = role
    }

    /// A user acting through the app.
    public static func user(_ id: Int64, role: Role) -> Actor { Actor(userID: id, role: role) }

    /// The operator at the server's command line, with admin rights.
    public static let commandLine = Actor(userID: nil, role: .admin)

    var isAdmin: Bool { role == .admin }
}

/// The user behind a valid API token, as `UserService.authenticate(token:)` returns it.
public struct AuthenticatedUser: Sendable, Hashable {
    public let userID: Int64
    public let handle: String
    public let displayName: String
    public let role: Role
    /// The token used, so it can be revoked or shown.
    public let tokenID: Int64
    /// The session the token belongs to; nil for a token an admin made with the CLI.
    public var sessionID: Int64? = nil
    /// When the token stops working; nil for one that lasts until revoked.
    public var expiresAt: Date? = nil

    /// The user as the `Actor` of domain operations.
    public var actor: Actor { .user(userID, role: role) }
}

/// An API token as listed (the secret itself is never stored or shown again).
public struct APIToken: Sendable, Hashable, Codable {
    public let id: Int64
    public let userID: Int64
    /// The first characters of the token, to recognise it.
    public let prefix: String
    public let label: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    public let revokedAt: Date?
    /// When the token stops working by itself; nil for one that works until revoked.
    public var expiresAt: Date? = nil
    public var isActive: Bool { revokedAt == nil }
}

/// A newly created token: `secret` is shown to the user once and cannot be recovered.
public struct IssuedToken: Sendable, Hashable {
    /// The bearer token, `belay_` followed by 43 base64url characters (256 random bits).
    public let secret: String
    public let token: APIToken
}
