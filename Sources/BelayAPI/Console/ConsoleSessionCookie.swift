import BelayDomain

/// A console session as a browser holds it after signing in: the cookie and the form token
/// its pages carry. Made from a session grant of the same store as every other sign-in, for
/// tools that drive the console without a browser (`belay dev seed-bench` prints one for the
/// HTTP benchmark's console rows).
public struct ConsoleSessionCookie: Sendable {
    /// The cookie's name, `belay_console`.
    public let name: String
    /// The cookie's value: the grant's tokens and a new random form secret.
    public let value: String
    /// What every form of the session's pages sends as `csrf`.
    public let formToken: String

    /// A new cookie (with a new form secret) for `grant`'s session.
    public init(grant: SessionGrant) {
        let session = ConsoleCookies.Session(accessToken: grant.accessToken, refreshToken: grant.refreshToken)
        name = ConsoleCookies.sessionName
        value = session.value
        formToken = ConsoleCookies.formToken(secret: session.formSecret)
    }

    /// `name=value`, as a `Cookie` request header carries it.
    public var header: String { "\(name)=\(value)" }
}
