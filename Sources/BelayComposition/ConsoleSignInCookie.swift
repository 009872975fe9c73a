import BelayAPI
import BelayDomain

/// A console session's cookie and form token for a session grant, for tools that drive the
/// console without a browser (`belay dev seed-bench` prints one for the HTTP benchmark's console
/// rows). The command line reaches the console's cookie format through the composition root,
/// as it reaches everything else of the REST layer.
public enum ConsoleSignInCookie {
    /// The `Cookie` header (`belay_console=…`) and the `csrf` value of the session's forms.
    public static func make(for grant: SessionGrant) -> (header: String, formToken: String) {
        let cookie = ConsoleSessionCookie(grant: grant)
        return (cookie.header, cookie.formToken)
    }
}
