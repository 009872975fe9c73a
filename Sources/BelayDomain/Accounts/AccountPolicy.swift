import Foundation

/// Who may create an account by signing in for the first time (`accounts.sign_up`).
public enum SignUpMode: String, Sendable, CaseIterable {
    /// Anyone who signs in gets an account.
    case open
    /// A first sign-in needs an invite code from a host or admin.
    case invite
    /// Only people who already have an account (made by an admin) may sign in.
    case closed
}

/// Who may create meetups (`meetups.created_by`).
public enum MeetupCreators: String, Sendable, CaseIterable {
    /// Every member creates and hosts their own meetups.
    case members
    /// Only hosts and admins create meetups.
    case hosts
}

/// The rules of accounts and sessions, from `config.json`'s `accounts` section and `club.locale`.
public struct AccountPolicy: Sendable, Equatable {
    public var signUp: SignUpMode
    /// How long an access token works.
    public var accessTokenLifetime: TimeInterval
    /// A session whose refresh token goes unused this long ends.
    public var refreshTokenIdleLifetime: TimeInterval
    /// How long an emailed code and link work.
    public var emailCodeLifetime: TimeInterval
    /// Wrong codes that void an emailed code.
    public var maxWrongEmailCodes: Int
    /// How recent a sign-in must be to delete the account.
    public var recentSignInWindow: TimeInterval
    /// The language of mail and texts for members who have not chosen one (`ko`, `ja`, `en`).
    public var defaultLocale: MemberLocale
    /// Whether the console sends admins without a second factor to enrol (`console.admin_second_factor`).
    public var adminSecondFactor: AdminSecondFactorRule

    public init(signUp: SignUpMode, accessTokenLifetime: TimeInterval, refreshTokenIdleLifetime: TimeInterval,
                emailCodeLifetime: TimeInterval, maxWrongEmailCodes: Int, recentSignInWindow: TimeInterval,
                defaultLocale: MemberLocale, adminSecondFactor: AdminSecondFactorRule = .optional) {
        self.adminSecondFactor = adminSecondFactor
        self.signUp = signUp
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenIdleLifetime = refreshTokenIdleLifetime
        self.emailCodeLifetime = emailCodeLifetime
        self.maxWrongEmailCodes = maxWrongEmailCodes
        self.recentSignInWindow = recentSignInWindow
        self.defaultLocale = defaultLocale
    }

    /// - Throws: `DomainError` `invalid_input` naming an impossible setting.
    public func validate() throws {
        guard accessTokenLifetime >= 60 else { throw DomainError.invalid("access_token_minutes", "An access token must live at least a minute") }
        guard refreshTokenIdleLifetime >= accessTokenLifetime else {
            throw DomainError.invalid("refresh_token_days", "A session must outlive its access token")
        }
        guard emailCodeLifetime >= 60 else { throw DomainError.invalid("email_code_minutes", "An emailed code must live at least a minute") }
        guard maxWrongEmailCodes >= 1 else { throw DomainError.invalid("max_wrong_email_codes", "At least one attempt at an emailed code is needed") }
    }
}

/// The languages Belay writes to members in.
public enum MemberLocale: String, Sendable, CaseIterable, Codable {
    case ko, ja, en

    /// The language of a locale identifier such as `ko_KR` or `en-US`; nil when not one of Belay's.
    public init?(identifier: String) {
        let language = identifier.lowercased().prefix(while: { $0.isLetter })
        self.init(rawValue: String(language))
    }
}
