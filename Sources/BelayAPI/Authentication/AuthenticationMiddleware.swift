import BelayDomain
import BelayHTTP

/// Finds the user behind `Authorization: Bearer <token>` and puts them in the context;
/// answers 401 (with a `WWW-Authenticate: Bearer` challenge) when the header is missing,
/// malformed, or names a token that is unknown or revoked.
///
/// Runs on every request, so it asks `TokenCache` first and the database (`authenticate`,
/// one SHA-256 and one indexed read) only on a miss.
public struct AuthenticationMiddleware: RouterMiddleware {
    let users: UserService
    let cache: TokenCache

    public init(users: UserService, cache: TokenCache) {
        self.users = users
        self.cache = cache
    }

    public func handle(_ request: Request, context: APIContext, next: (Request, APIContext) -> ResponseFuture) throws -> ResponseFuture {
        guard let header = request.headers["Authorization"] else { throw AuthenticationProblems.missingToken() }
        let token = try Self.bearerToken(in: header)
        var context = context
        if let user = cache.user(for: token) {
            context.user = user
        } else {
            guard let user = try users.authenticate(token: token) else { throw AuthenticationProblems.invalidToken() }
            cache.store(user, for: token)
            context.user = user
        }
        return next(request, context)
    }

    /// The token of a `Bearer` credential (RFC 6750 §2.1; the scheme is case-insensitive).
    /// - Throws: `HTTPError` 401 `invalid_authorization` for another scheme or no token.
    static func bearerToken(in header: String) throws -> String {
        let utf8 = header.utf8
        guard utf8.count > 7 else { throw AuthenticationProblems.malformedHeader() }
        let scheme = utf8.prefix(6)
        guard scheme.elementsEqual("bearer".utf8, by: { ($0 | 0x20) == $1 }),
              utf8[utf8.index(utf8.startIndex, offsetBy: 6)] == UInt8(ascii: " ") else {
            throw AuthenticationProblems.malformedHeader()
        }
        let token = header.utf8.dropFirst(7).drop { $0 == UInt8(ascii: " ") }
        guard !token.isEmpty, !token.contains(UInt8(ascii: " ")) else { throw AuthenticationProblems.malformedHeader() }
        return String(Substring(token))
    }
}

/// The 401 answers of the API.
enum AuthenticationProblems {
    static let realm = "Bearer realm=\"belay\""

    static func missingToken() -> HTTPError {
        HTTPError.unauthorized(
            detail: "This endpoint needs a token: send `Authorization: Bearer <token>` with the `access_token` of a sign-in (POST /v1/auth/apple, /v1/auth/google or /v1/auth/email), or an API token an admin issued with `belay users token HANDLE`.",
            challenge: realm, code: "missing_token")
    }

    static func malformedHeader() -> HTTPError {
        HTTPError.unauthorized(
            detail: "The Authorization header must be `Bearer <token>` with the token Belay issued (it starts with `belay_`).",
            challenge: realm + ", error=\"invalid_request\"", code: "invalid_authorization")
    }

    static func invalidToken() -> HTTPError {
        HTTPError.unauthorized(
            detail: "This token is no longer valid: its session ended (signed out, ended from another device, or the account was deleted) or it expired. Sign in again in the app to get a new one (an access token that only expired is renewed with POST /v1/auth/refresh). An API token an admin issued was revoked: ask them for a new one.",
            challenge: realm + ", error=\"invalid_token\"", code: "invalid_token")
    }
}
