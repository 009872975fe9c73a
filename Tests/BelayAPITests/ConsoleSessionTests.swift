import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// An in-process club whose mail goes to a local SMTP server, with a host who has an email
/// address: the starting point of the console's tests.
struct ConsoleFixture {
    let fixture: APIFixture
    let smtp: SMTPCaptureProcess
    /// A host with `jisoo@example.com` and a bearer token.
    let host: APIFixture.Member

    /// - Parameter mailSpool: a directory the SMTP server also writes each message to.
    init(locale: String = "en_US", settings: [String: Any] = [:], realStickers: Bool = false, mailSpool: String? = nil) throws {
        smtp = try SMTPCaptureProcess(spool: mailSpool)
        var all: [String: Any] = [
            "mail": ["smtp_url": smtp.url, "from": "Belay Climbing Club <no-reply@climb.example>", "require_tls": 0],
            "club": ["name": "Belay Climbing Club", "locale": locale, "time_zone": "Asia/Seoul"],
        ]
        all.merge(settings) { _, new in new }
        fixture = try APIFixture(settings: all, realStickers: realStickers)
        let user = try fixture.domain.users.createUser(NewUser(handle: "jisoo", displayName: "Jisoo Kim", email: "jisoo@example.com", role: .host))
        host = APIFixture.Member(user: user, token: try fixture.domain.users.issueToken(userID: user.id).secret)
    }

    /// A console client signed in as the host.
    func signedInHost(mailNumber: Int = 1) throws -> ConsoleClient {
        let client = ConsoleClient(fixture)
        try client.signIn(email: "jisoo@example.com", smtp: smtp, mailNumber: mailNumber)
        return client
    }
}

/// Signing in to the console and the defences around its cookie: each test fails when its
/// defence is taken away.
@Suite(.serialized) struct ConsoleSessionTests {
    @Test func aCodeByEmailGivesAnHttpOnlyLaxSecureCookieWhoseSessionTheAppLists() throws {
        let club = try ConsoleFixture()
        let client = ConsoleClient(club.fixture)
        let away = client.get("/console")
        #expect(away.status == 303)
        #expect(away.headers["Location"] == "/console/sign-in")

        #expect(client.get("/console/sign-in").status == 200)
        let sent = client.post("/console/sign-in", [("email", "Jisoo@Example.com")])
        #expect(sent.status == 200)
        #expect(sent.text.contains("name=\"code\""))
        let code = try SignInEndToEndTests.emailCode(club.smtp)

        // A wrong code is shown on the form, with what was typed kept.
        let wrong = client.post("/console/sign-in/code", [("email", "Jisoo@Example.com"), ("code", code == "000000" ? "111 111" : "000 000")])
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("role=\"alert\""))
        #expect(wrong.text.contains("value=\"\(code == "000000" ? "111 111" : "000 000")\""))
        let notDigits = client.post("/console/sign-in/code", [("email", "Jisoo@Example.com"), ("code", "<b>12</b>")])
        #expect(notDigits.status == 422)
        #expect(notDigits.text.contains("value=\"&lt;b&gt;12&lt;/b&gt;\""))

        let signedIn = client.post("/console/sign-in/code", [("email", "Jisoo@Example.com"), ("code", code)])
        #expect(signedIn.status == 303)
        let cookie = try #require(signedIn.headers.values(for: "Set-Cookie").first { $0.hasPrefix("belay_console=") })
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Lax"))
        #expect(cookie.contains("Secure"), "the club is served over https")
        #expect(cookie.contains("Path=/console"))
        #expect(client.cookies[ConsoleCookiesForTests.preSignIn] == nil, "the pre-sign-in cookie is removed")

        let page = client.get("/console")
        #expect(page.status == 200)
        #expect(page.text.contains("Jisoo Kim"))
        // The same session store: the app lists the console among the member's sessions.
        let sessions = club.fixture.get("/v1/me/sessions", as: club.host)
        #expect(sessions.status == 200)
        #expect(sessions["items"]?.arrayValue?.contains { $0["device_name"]?.stringValue == "Belay console" } == true, "\(sessions.json as Any)")
    }

    @Test func aFormWithoutTheSessionsTokenOrFromAnotherSiteChangesNothing() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(capacity: 10, startsIn: 300, host: club.host)
        let member = try club.fixture.member()
        #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let client = try club.signedInHost()
        #expect(client.get("/console/meetups/\(meetup.id)").status == 200)
        let token = try #require(client.formToken)

        // What another site's page would post: the browser adds the cookie, not the token.
        let forged = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(member.id))], csrf: "")
        #expect(forged.status == 403)
        let guessed = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(member.id))], csrf: String(token.reversed()))
        #expect(guessed.status == 403)
        let crossSite = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(member.id))], csrf: token,
                                    headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)?.status == .going)

        let genuine = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(member.id))], csrf: token)
        #expect(genuine.status == 303)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)?.status == .checkedIn)

        // The sign-in forms carry a token too.
        let other = ConsoleClient(club.fixture)
        #expect(other.post("/console/sign-in", [("email", "jisoo@example.com")], csrf: "").status == 403)
    }

    @Test func pagesRefuseFramesInlineScriptAndAnythingFromElsewhere() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(host: club.host)
        let client = try club.signedInHost()
        for path in ["/console/sign-in", "/console", "/console/meetups/\(meetup.id)", "/console/meetups/new", "/", "/openapi.html"] {
            let page = path == "/console/sign-in" ? ConsoleClient(club.fixture).get(path) : client.get(path)
            #expect(page.status == 200, "\(path)")
            let policy = page.headers["Content-Security-Policy"] ?? ""
            #expect(policy.contains("frame-ancestors 'none'"), "\(path): \(policy)")
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(path): \(policy)")
            #expect(policy.contains("default-src 'none'"), "\(path): \(policy)")
            #expect(page.headers["X-Frame-Options"] == "DENY", "\(path)")
            #expect(page.headers["Cache-Control"] == "no-store", "\(path)")
            let html = page.text
            // Every script is a file of the page's own origin; no handler attributes, nothing from elsewhere.
            #expect(html.components(separatedBy: "<script").count - 1 == html.components(separatedBy: "<script src=\"/assets/console.js").count - 1, "\(path)")
            #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(path)")
            #expect(!html.contains("http://") && !html.contains("https://") || path == "/openapi.html", "\(path)")
        }
    }

    @Test func signingInNeverKeepsWhatTheBrowserHadBefore() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(host: club.host)
        let member = try club.fixture.member()
        #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)

        // An attacker gets a pre-sign-in cookie of their own and plants it in the victim's browser.
        let attacker = ConsoleClient(club.fixture)
        attacker.get("/console/sign-in")
        let planted = try #require(attacker.cookies[ConsoleCookiesForTests.preSignIn])
        let plantedToken = try #require(attacker.formToken)

        let victim = ConsoleClient(club.fixture)
        victim.cookies[ConsoleCookiesForTests.preSignIn] = planted
        try victim.signIn(email: "jisoo@example.com", smtp: club.smtp)
        let session = try #require(victim.cookies[ConsoleCookiesForTests.session])
        #expect(!session.contains(planted))

        // The planted cookie signs nobody in, and forms made with its token are refused.
        #expect(attacker.get("/console").status == 303)
        let forged = victim.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(member.id))], csrf: plantedToken)
        #expect(forged.status == 403)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)?.status == .going)
    }

    @Test func aCopyOfTheCookieStopsWorkingWhenItsSessionSignsOut() throws {
        let club = try ConsoleFixture()
        let client = try club.signedInHost()
        let stolen = client.cookies
        #expect(client.post("/console/sign-out", []).status == 303)
        #expect(client.cookies[ConsoleCookiesForTests.session] == nil)

        let thief = ConsoleClient(club.fixture)
        thief.cookies = stolen
        let replay = thief.get("/console")
        #expect(replay.status == 303, "the stolen cookie still opens the console after signing out")
        #expect(replay.headers["Location"] == "/console/sign-in")
        let sessions = club.fixture.get("/v1/me/sessions", as: club.host)
        #expect(sessions["items"]?.arrayValue?.contains { $0["device_name"]?.stringValue == "Belay console" } == false)
    }

    @Test func aSuspendedMembersSessionEndsAtOnce() throws {
        let club = try ConsoleFixture()
        let client = try club.signedInHost()
        #expect(client.get("/console").status == 200)
        let suspended = club.fixture.post("/v1/moderation/actions", as: club.fixture.admin,
                                          json: #"{"action": "suspend", "subject_type": "member", "subject_id": "\#(club.host.id)", "reason": "Rule 2"}"#)
        #expect(suspended.status == 201, "\(suspended.json as Any)")
        let after = client.get("/console")
        #expect(after.status == 303)
    }

    @Test func anExpiredAccessTokenIsRefreshedAndTheCookieRewrittenWithTheSameFormToken() throws {
        let club = try ConsoleFixture()
        let client = try club.signedInHost()
        let before = try #require(client.cookies[ConsoleCookiesForTests.session])
        #expect(client.get("/console").status == 200)
        let token = try #require(client.formToken)
        club.fixture.clock.advance(by: 2 * 3_600)
        let page = client.get("/console")
        #expect(page.status == 200)
        let after = try #require(client.cookies[ConsoleCookiesForTests.session])
        #expect(after != before)
        #expect(client.formToken == token)
    }
}

/// The cookie names, as the tests spell them.
enum ConsoleCookiesForTests {
    static let session = "belay_console"
    static let preSignIn = "belay_console_pre"
}
