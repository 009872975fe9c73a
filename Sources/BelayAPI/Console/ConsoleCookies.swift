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
            let parts = value.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 200 }) else { return nil }
            accessToken = String(decoding: parts[0], as: UTF8.self)
            refreshToken = String(decoding: parts[1], as: UTF8.self)
            formSecret = String(decoding: parts[2], as: UTF8.self)
        }

        init(accessToken: String, refreshToken: String, formSecret: String = ConsoleCookies.newSecret()) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.formSecret = formSecret
        }
    }

    /// 32 random bytes, base64url.
    static func newSecret() -> String { Crypto.base64URL(Crypto.randomBytes(32)) }

    /// The cookies a request sent, by name (the first of a repeated name). Read over the
    /// header's bytes: every console page reads it, and Foundation's trimming cost a quarter of a page.
    static func values(in request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for header in request.headers.values(for: "Cookie") {
            let bytes = Array(header.utf8)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
                if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                    let name = trimmed(bytes[start..<equals])
                    if !name.isEmpty {
                        let key = String(decoding: name, as: UTF8.self)
                        if values[key] == nil { values[key] = String(decoding: trimmed(bytes[(equals + 1)..<end]), as: UTF8.self) }
                    }
                }
                start = end + 1
            }
        }
        return values
    }

    /// `bytes` without the spaces and tabs around it.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
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
