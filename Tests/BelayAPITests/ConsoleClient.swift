import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A browser's part of the console, in-process: a cookie jar over `APIFixture.send`, form
/// bodies, and the form token read back from the page as a browser would post it.
final class ConsoleClient {
    let fixture: APIFixture
    /// The cookies the server set and has not removed, by name.
    var cookies: [String: String] = [:]
    /// The latest page's HTML.
    private(set) var lastPage = ""

    init(_ fixture: APIFixture) {
        self.fixture = fixture
    }

    @discardableResult
    func get(_ path: String, headers: [(String, String)] = []) -> APIResponse {
        absorb(fixture.send(.get, path, headers: cookieHeader + headers))
    }

    /// Posts `fields` as a browser posts a form; `csrf` is the latest page's token unless given.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrf: String? = nil, headers: [(String, String)] = []) -> APIResponse {
        var all = fields
        if let token = csrf ?? formToken { all.append(("csrf", token)) }
        let body = all.map { "\(Self.encoded($0.0))=\(Self.encoded($0.1))" }.joined(separator: "&")
        return absorb(fixture.send(.post, path, body: Array(body.utf8),
                                   headers: cookieHeader + [("Content-Type", "application/x-www-form-urlencoded")] + headers))
    }

    /// The `csrf` value of the latest page's first form.
    var formToken: String? { Self.value(of: "csrf", in: lastPage) }

    var cookieHeader: [(String, String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    private func absorb(_ response: APIResponse) -> APIResponse {
        for header in response.headers.values(for: "Set-Cookie") {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            if header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = pair.count > 1 ? String(pair[1]) : "" }
        }
        if response.headers["Content-Type"]?.hasPrefix("text/html") == true { lastPage = response.text }
        return response
    }

    /// The `value` of the first input named `name`.
    static func value(of name: String, in html: String) -> String? {
        guard let field = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(html[field.upperBound...].prefix { $0 != "\"" })
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// Signs in as the owner of `email` through the console's forms, reading the code from `smtp`.
    func signIn(email: String, smtp: SMTPCaptureProcess, mailNumber: Int = 1) throws {
        #expect(get("/console/sign-in").status == 200)
        let sent = post("/console/sign-in", [("email", email)])
        #expect(sent.status == 200, "\(sent.text)")
        let code = try ConsoleBrowserTests.mailedCode(smtp, number: mailNumber)
        let signedIn = post("/console/sign-in/code", [("email", email), ("code", code)])
        #expect(signedIn.status == 303, "\(signedIn.text)")
        #expect(signedIn.headers["Location"] == "/console")
        #expect(get("/console").status == 200)
    }
}

extension APIResponse {
    /// The body as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
