import BelayDomain
import Foundation

/// What every sign-in body may say about the device and the new member.
protocol SignInRequestDetails {
    var deviceName: String? { get }
    var platform: String? { get }
    var inviteCode: String? { get }
    var locale: String? { get }
}

/// `POST /v1/auth/apple`.
struct AppleSignInRequest: Decodable, SignInRequestDetails {
    var identityToken: String
    /// The raw nonce the app generated; the token carries its SHA-256.
    var nonce: String
    /// The member's name, which Apple gives the app on the first sign-in only.
    var name: String?
    /// The app's authorization code, exchanged for a refresh token Belay revokes when the member leaves.
    var authorizationCode: String?
    var deviceName: String?
    var platform: String?
    var inviteCode: String?
    var locale: String?

    enum CodingKeys: String, CodingKey {
        case nonce, name, platform, locale
        case identityToken = "identity_token"
        case authorizationCode = "authorization_code"
        case deviceName = "device_name"
        case inviteCode = "invite_code"
    }
}

/// `POST /v1/auth/google`.
struct GoogleSignInRequest: Decodable, SignInRequestDetails {
    var idToken: String
    var nonce: String?
    var deviceName: String?
    var platform: String?
    var inviteCode: String?
    var locale: String?

    enum CodingKeys: String, CodingKey {
        case nonce, platform, locale
        case idToken = "id_token"
        case deviceName = "device_name"
        case inviteCode = "invite_code"
    }
}

/// `POST /v1/auth/email`.
struct EmailSignInRequest: Decodable {
    var email: String
    var locale: String?
}

/// `POST /v1/auth/email/verify`: `email` and `code`, or `link_token`.
struct EmailVerifyRequest: Decodable, SignInRequestDetails {
    var email: String?
    var code: String?
    var linkToken: String?
    var deviceName: String?
    var platform: String?
    var inviteCode: String?
    var locale: String?

    enum CodingKeys: String, CodingKey {
        case email, code, platform, locale
        case linkToken = "link_token"
        case deviceName = "device_name"
        case inviteCode = "invite_code"
    }
}

/// `POST /v1/auth/second-factor`: the challenge a sign-in answered and the authenticator's
/// current code or an unused recovery code.
struct SecondFactorSignInRequest: Decodable {
    var challenge: String
    var code: String
}

/// `POST /v1/auth/refresh`.
struct RefreshRequest: Decodable {
    var refreshToken: String

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }
}

/// `PATCH /v1/me`.
struct ProfileRequest: Decodable {
    var displayName: String?
    var handle: String?
    var locale: String?
    var showNameOnSharePages: Bool?

    enum CodingKeys: String, CodingKey {
        case handle, locale
        case displayName = "display_name"
        case showNameOnSharePages = "show_name_on_share_pages"
    }

    /// Members left out stay as they are; none can be removed, so `null` is refused (422
    /// naming it) rather than read as "unchanged", as the OpenAPI document types them.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeUnlessAbsent(String.self, forKey: .displayName)
        handle = try container.decodeUnlessAbsent(String.self, forKey: .handle)
        locale = try container.decodeUnlessAbsent(String.self, forKey: .locale)
        showNameOnSharePages = try container.decodeUnlessAbsent(Bool.self, forKey: .showNameOnSharePages)
    }
}

/// `POST /v1/invites`; the body itself is optional.
struct CreateInviteRequest: Decodable {
    /// How many people it admits; 1 when absent.
    var uses: Int?
    /// Days it works; 7 when absent.
    var expiresInDays: Int?

    enum CodingKeys: String, CodingKey {
        case uses
        case expiresInDays = "expires_in_days"
    }

    init() {}

    /// `null` is refused naming the member: leave it out for its default.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uses = try container.decodeUnlessAbsent(Int.self, forKey: .uses)
        expiresInDays = try container.decodeUnlessAbsent(Int.self, forKey: .expiresInDays)
    }
}
