import BelayCore
import BelayDomain
import Foundation

/// The caller's own account, as `GET /v1/me` and `PATCH /v1/me` answer it.
public struct ProfileBody: JSONRepresentable {
    public let profile: MemberProfile
    public let role: Role
    public var calendarURL: String?
    public var progress: MemberProgress?
    /// For the member's own view: whether they moderate, and the terms they must accept
    /// first (nil when none); left out when nil.
    public var safety: (moderator: Bool, terms: (version: String, url: String?)?)?

    public init(profile: MemberProfile, calendarURL: String? = nil, progress: MemberProgress? = nil) {
        self.profile = profile
        self.role = profile.user.role
        self.calendarURL = calendarURL
        self.progress = progress
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", profile.user.id)
            json.member("handle", profile.user.handle)
            json.member("display_name", profile.user.displayName)
            json.member("role", role.rawValue)
            json.key("email")
            if let email = profile.user.email { json.string(email) } else { json.null() }
            json.member("email_verified", profile.emailVerified)
            json.key("locale")
            if let locale = profile.locale { json.string(locale.rawValue) } else { json.null() }
            json.member("show_name_on_share_pages", profile.showNameOnSharePages)
            json.member("created_at", utc: profile.user.createdAt)
            if let calendarURL { json.member("calendar_url", calendarURL) }
            if let progress {
                json.key("progress")
                ProgressBody(progress: progress).write(to: &json)
            }
            if let safety {
                json.member("moderator", safety.moderator)
                json.key("terms_to_accept")
                if let terms = safety.terms {
                    json.object { json in
                        json.member("version", terms.version)
                        json.member("url", terms.url)
                    }
                } else {
                    json.null()
                }
            }
        }
    }
}

/// A signed-in device in `GET /v1/me/sessions`.
public struct SessionBody: JSONRepresentable {
    public let session: MemberSession
    public let isCurrent: Bool

    public init(session: MemberSession, isCurrent: Bool) {
        self.session = session
        self.isCurrent = isCurrent
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", session.id)
            json.member("device_name", session.deviceName)
            json.member("platform", session.platform)
            json.member("sign_in_method", session.signInMethod.rawValue)
            json.member("created_at", utc: session.createdAt)
            json.member("last_used_at", utc: session.lastUsedAt)
            json.member("expires_at", utc: session.expiresAt)
            json.member("current", isCurrent)
        }
    }
}

/// The answer of a sign-in or a refresh: the tokens and who they belong to.
public struct SessionGrantBody: JSONRepresentable {
    public let grant: SessionGrant
    public let now: Date

    public init(grant: SessionGrant, now: Date) {
        self.grant = grant
        self.now = now
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("access_token", grant.accessToken)
            json.member("token_type", "Bearer")
            json.member("expires_in", Int64(max(0, grant.accessTokenExpiresAt.timeIntervalSince(now)).rounded()))
            json.member("refresh_token", grant.refreshToken)
            json.member("refresh_token_expires_at", utc: grant.session.expiresAt)
            json.member("session_id", grant.session.id)
            json.member("account_created", grant.accountCreated)
            json.key("user")
            json.object { json in
                json.member("id", grant.user.id)
                json.member("handle", grant.user.handle)
                json.member("display_name", grant.user.displayName)
                json.member("role", grant.user.role.rawValue)
            }
        }
    }
}

/// An invite code, as hosts and admins see it.
public struct InviteBody: JSONRepresentable {
    public let invite: Invite
    /// `<public_base_url>/invite/{code}`, the link the app opens.
    public let link: String
    public let now: Date

    public init(invite: Invite, link: String, now: Date) {
        self.invite = invite
        self.link = link
        self.now = now
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", invite.id)
            json.member("code", invite.code)
            json.member("link", link)
            json.member("max_uses", Int64(invite.maxUses))
            json.member("uses", Int64(invite.uses))
            json.member("expires_at", utc: invite.expiresAt)
            json.member("created_at", utc: invite.createdAt)
            json.member("revoked_at", utc: invite.revokedAt)
            json.member("usable", invite.isUsable(at: now))
        }
    }
}
