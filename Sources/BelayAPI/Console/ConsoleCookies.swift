import BelayCore
import BelayHTTP
import Foundation

/// The console's two cookies and the form token derived from them.
///
/// - `belay_console` (after signing in): the session's access token, its refresh token and a
///   random form secret, joined by dots. The tokens are those of a sign-in from the app (same
///   session store, listed in `GET /v1/me/sessions`); when the access token has expired the
///   console refreshes it and writes the cookie again, keeping the form secret.
/// - `belay_console_pre` (before): a random form secret only, so that the sign-in forms carry a
///   token too. It never becomes a session: signing in writes a new cookie with a new secret
///   and removes this one (no session fixation).
///
/// - `belay_console_held` (between the emailed code and the second factor, for members who
///   enrolled one): the token of the held sign-in, which `SecondFactorService` knows by its
///   SHA-256 only. It is no session: only the right code turns it into one.
///
/// All are `HttpOnly`, `SameSite=Lax`, `Path=/console`, and `Secure` when the public address
/// is https. Every form carries `csrf`, derived from the secret of the cookie the page was
/// made for; a form without the right one changes nothing.
enum ConsoleCookies {
    static let sessionName = "belay_console"
    static let preSignInName = "belay_console_pre"
    static let heldSignInName = "belay_console_held"
    static let path = "/console"

    /// What the session cookie carries.
    struct Session: Sendable, Equatable {
        var accessToken: String
        var refreshToken: String
        /// Random, fixed for the session's life: the form token is derived from it.
        var formSecret: String

        var value: String { [accessToken, refreshToken, formSecret].joined(separator: ".") }

        /// The parts of a cookie value; nil for anything else.
        init?(value: String) {
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 200 }) else { return nil }
            accessToken = String(parts[0])
            refreshToken = String(parts[1])
            formSecret = String(parts[2])
        }

        init(accessToken: String, refreshToken: String, formSecret: String = ConsoleCookies.newSecret()) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.formSecret = formSecret
        }
    }

    /// 32 random bytes, base64url.
    static func newSecret() -> String { Crypto.base64URL(Crypto.randomBytes(32)) }

    /// The cookies a request sent, by name (the first of a repeated name).
    static func values(in request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if values[name] == nil { values[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return values
    }

    /// A `Set-Cookie` value; `maxAge` 0 removes the cookie.
    static func setCookie(name: String, value: String, maxAge: Int, secure: Bool) -> String {
        var text = "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Lax"
        if secure { text += "; Secure" }
        return text
    }

    /// The token forms made for a cookie whose secret is `secret` must carry: an HMAC of the
    /// secret, so the page shows nothing that could be put back into a cookie.
    static func formToken(secret: String) -> String {
        Crypto.base64URL(Crypto.hmacSHA256(key: Array(secret.utf8), message: Array("belay-console-form".utf8)))
    }

    /// Whether `sent` is the form token of `secret`, compared in constant time.
    static func isFormToken(_ sent: String?, of secret: String) -> Bool {
        guard let sent else { return false }
        let expected = Array(formToken(secret: secret).utf8)
        let given = Array(sent.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }
}
