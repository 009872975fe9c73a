import BelayCore
import BelayAPI
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// An admin's console pages in Chromium, in Korean: setting up an authenticator (its QR code
/// read back with zbarimg), the recovery codes, the sign-in that asks for the app's code
/// (computed by PyOTP), invites, webhooks with their deliveries, and a member's devices; every
/// page checked for accessibility and kept as a screenshot with `BELAY_CONSOLE_SCREENSHOTS`.
@Suite(.serialized) struct ConsoleAdminBrowserTests {
    /// Keeps a screenshot of the page from its top (a page loaded again keeps its scroll).
    static func keep(_ page: ChromiumPage, _ name: String) throws {
        _ = try page.evaluate("window.scrollTo(0, 0); 1")
        try ConsoleBrowserTests.keep(page, name)
    }

    @Test func anAdminSetsUpASecondFactorSignsInWithItAndWorksTheAdminPages() throws {
        let served = try ConsoleBrowserTests.Served()
        defer { served.stop() }
        let fixture = served.fixture
        let admin = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "박미나", email: "mina@example.com", role: .admin))
        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-admin"))
        defer { page.close() }
        try served.signIn(page, email: "mina@example.com")

        // Setting up the authenticator: the QR code carries the otpauth URI of the key shown beside it.
        try page.navigate(served.base + "/console/second-factor")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "second factor, not set up")
        _ = try page.evaluate("document.querySelector('form[action=\"/console/second-factor/start\"]').submit(); 1")
        let key = try #require(try page.waitFor("document.readyState === 'complete' && document.getElementById('setup-key') ? document.getElementById('setup-key').textContent : ''",
                                                timeout: 10) { !$0.isEmpty })
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "second factor, a new key")
        try Self.keep(page, "second-factor-setup")
        try page.screenshot(to: fixture.directory.file("setup.png"))
        let secret = key.replacingOccurrences(of: " ", with: "")
        let scanned = try #require(try KioskBrowserTests.qrTexts(in: fixture.directory.file("setup.png")).first)
        #expect(scanned.hasPrefix("otpauth://totp/") && scanned.contains("secret=\(secret)&"), "\(scanned)")
        let code = try ConsoleSecondFactorTests.referenceCode(secret, at: fixture.clock.now())
        _ = try page.evaluate("document.getElementById('code').value = '\(code)'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("String(document.querySelectorAll('#recovery-codes li').length)", timeout: 10) { $0 == "10" } == "10")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "recovery codes")
        try Self.keep(page, "second-factor-recovery-codes")
        #expect(try fixture.domain.secondFactors.state(userID: admin.id).enrolled)

        // Signing in again asks for the app's next code after the mailed one.
        _ = try page.evaluate("document.querySelector('form.who').submit(); 1")
        #expect(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) { $0 == "/console/sign-in complete" } != nil)
        _ = try page.evaluate("document.getElementById('email').value = 'mina@example.com'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('code') ? 'code' : ''", timeout: 10) { $0 == "code" } == "code")
        let mailed = try ConsoleBrowserTests.mailedCode(served.club.smtp, number: 2)
        _ = try page.evaluate("document.getElementById('code').value = '\(mailed)'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.querySelector('form[action=\"/console/sign-in/second-factor\"]') ? 'asked' : ''",
                                 timeout: 10) { $0 == "asked" } == "asked")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "sign-in, second factor")
        try Self.keep(page, "sign-in-second-factor")
        fixture.clock.advance(by: 30)
        let next = try ConsoleSecondFactorTests.referenceCode(secret, at: fixture.clock.now())
        _ = try page.evaluate("document.getElementById('code').value = '\(next)'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) { $0 == "/console complete" } == "/console complete")

        // Invites: a new code for three people.
        try page.navigate(served.base + "/console/invites")
        _ = try page.evaluate("document.getElementById('uses').value = '3'; document.getElementById('days').value = '14'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('invite-notice') ? 'made' : ''", timeout: 10) { $0 == "made" } == "made")
        _ = try fixture.domain.invites.create(uses: 1, expiresAt: fixture.clock.now().addingTimeInterval(86_400), by: served.club.host.user.actorForTests)
        try page.navigate(served.base + "/console/invites")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "invites")
        try Self.keep(page, "invites")

        // Webhooks: one added from the form (its secret shown once), deliveries that went and failed.
        try page.navigate(served.base + "/console/webhooks")
        _ = try page.evaluate("""
            (function () {
              document.getElementById('url').value = 'https://hooks.example.com/belay';
              document.getElementById('description').value = '클럽 채팅 봇';
              document.getElementById('event-check_in-created').checked = true;
              document.getElementById('event-reward-ready').checked = true;
              document.querySelector('main form').submit(); return 1;
            })()
            """)
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('webhook-secret') ? 'added' : ''", timeout: 10) { $0 == "added" } == "added")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "webhook added")
        try Self.keep(page, "webhook-added")
        let endpoint = try #require(try fixture.domain.webhooks.endpoints(by: admin.actorForTests).first)
        _ = try fixture.domain.webhooks.sendTest(id: endpoint.id, by: admin.actorForTests)
        let delivered = try #require(try fixture.domain.webhooks.claim(owner: "browser-test"))
        _ = try fixture.domain.webhooks.report(delivered, WebhookAttemptResult(statusCode: 200, error: nil))
        _ = try fixture.domain.webhooks.sendTest(id: endpoint.id, by: admin.actorForTests)
        let failing = try #require(try fixture.domain.webhooks.claim(owner: "browser-test"))
        _ = try fixture.domain.webhooks.report(failing, WebhookAttemptResult(statusCode: 503, error: "the endpoint answered HTTP 503: Service Unavailable"))
        try page.navigate(served.base + "/console/webhooks")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "webhooks")
        try Self.keep(page, "webhooks")
        try page.navigate(served.base + "/console/webhooks/\(endpoint.id)")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "webhook deliveries")
        try Self.keep(page, "webhook-deliveries")
        _ = try page.evaluate("document.querySelector('form[action$=\"/deliveries/\(delivered.deliveryID)/redeliver\"]').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.querySelector('p.notice') ? 'queued' : ''", timeout: 10) { $0 == "queued" } == "queued")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "webhook redelivered")

        // A member's devices, and a test notice (no APNs or FCM here: the page says so).
        let member = try fixture.domain.users.createUser(NewUser(handle: "seoyeon", displayName: "박서연"))
        let memberToken = try fixture.domain.users.issueToken(userID: member.id).secret
        #expect(fixture.send(.post, "/v1/me/devices", token: memberToken,
                             json: #"{"platform": "ios", "token": "9f86d081884c7d659a2feaa0c55ad015", "app_id": "club.belay.app"}"#).status == 201)
        try page.navigate(served.base + "/console/members?q=seoyeon")
        _ = try page.evaluate("document.querySelector('a[href$=\"/devices\"]').click(); 1")
        #expect(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) { $0 == "/console/members/\(member.id)/devices complete" } != nil)
        _ = try page.evaluate("document.querySelector('form[action$=\"/devices/test\"]').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('device-notice') ? 'told' : ''", timeout: 10) { $0 == "told" } == "told")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "devices")
        try Self.keep(page, "member-devices")

        // A meetup's co-hosts: an admin names a host by handle.
        let meetup = try fixture.meetup(capacity: 12, startsIn: 3_600, host: served.club.host)
        _ = try fixture.domain.users.createUser(NewUser(handle: "minho", displayName: "이민호", role: .host))
        try page.navigate(served.base + "/console/meetups/\(meetup.id)/cohosts")
        _ = try page.evaluate("document.getElementById('handle').value = '@minho'; document.querySelector('form.add').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('cohost-notice') ? 'added' : ''", timeout: 10) { $0 == "added" } == "added")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "co-hosts")
        try Self.keep(page, "cohosts")

        // The second factor as it stands, on a phone.
        try page.setViewport(width: 390, height: 844, mobile: true)
        try page.navigate(served.base + "/console/second-factor")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "second factor on a phone")
        try Self.keep(page, "second-factor-phone")
        #expect(page.messages.filter { !$0.contains("favicon.ico") } == [], "console and log: \(page.messages)")
    }
}
