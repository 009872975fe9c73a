import BelayCore
import BelayAPI
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// The front-desk kiosk as the gym sees it: the application's real HTTP server on a loopback
/// port (with the tests' manual clock, so a code step takes no waiting), the host's kiosk link
/// opened in headless Chromium, and the QR code read back from screenshots with zbarimg.
@Suite(.serialized) struct KioskBrowserTests {
    static let zbarimg = "/usr/bin/zbarimg"

    /// What zbarimg reads from the QR codes in a screenshot, one text per code found.
    static func qrTexts(in png: String) throws -> [String] {
        let run = try ExternalTool.output(zbarimg, ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", png], timeout: 60)
        // zbarimg exits 4 when it finds no code.
        #expect(run.status == 0, "zbarimg found no QR code in \(png): \(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test func theScreenShowsTheCurrentCheckInLinkAsAQRCodeAndMovesOnWithoutAReload() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.zbarimg), "Debian's zbar-tools is needed: make test-deps installs it")
        let fixture = try APIFixture(settings: ["server": ["host": "127.0.0.1", "port": 0, "public_base_url": "http://127.0.0.1"],
                                                "club": ["name": "Belay Climbing Club", "locale": "en_US", "time_zone": "Asia/Seoul"]])
        let application = fixture.application
        try application.server.start()
        defer { application.server.stop(gracePeriod: .seconds(1)) }
        application.services.presentation.baseURL.adopt(boundPort: application.port)
        let base = "http://127.0.0.1:\(application.port)"

        let meetup = try fixture.meetup(capacity: 20, startsIn: 300, place: "Seoul Forest Climbing")
        let members = try (0..<3).map { _ in try fixture.member() }
        for member in members { #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        let made = fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: fixture.host)
        #expect(made.status == 201)
        let link = try #require(made["url"]?.stringValue)
        #expect(link.hasPrefix("\(base)/k/"))

        let directory = fixture.directory
        let page = try ChromiumPage(width: 1280, height: 800, profile: directory.file("chromium"))
        defer { page.close() }
        try page.navigate(link)

        // The tablet: the QR code holds the check-in link with the code of this moment.
        let step = fixture.domain.settings.checkIn.codeStepSeconds
        let first = try fixture.currentCode(meetup)
        try page.screenshot(to: directory.file("tablet-1.png"))
        #expect(try Self.qrTexts(in: directory.file("tablet-1.png")) == ["\(base)/c/\(meetup.id)?code=\(first)"])
        #expect(try page.evaluate("document.getElementById('code').textContent") as? String == "\(first.prefix(3)) \(first.suffix(3))")
        #expect(try page.evaluate("document.getElementById('count').textContent") as? String == "0 of 3 checked in")
        _ = try page.evaluate("window.sameDocument = 'yes'")

        // A member's phone opens that link: without the app it is a page saying how to get it;
        // the app checks in with the code it carries.
        let checkInLink = try #require(URLComponents(string: try Self.qrTexts(in: directory.file("tablet-1.png")).first ?? ""))
        let scanned = try #require(checkInLink.queryItems?.first { $0.name == "code" }?.value)
        let withoutApp = fixture.get(checkInLink.path + "?code=" + scanned)
        #expect(withoutApp.status == 200)
        #expect(String(decoding: withoutApp.bytes, as: UTF8.self).contains("Check in with the Belay Climbing Club app"))
        #expect(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: members[0], json: #"{"code": "\#(scanned)"}"#).status == 201)

        // One code step later the page shows the next code and the new count, in place.
        fixture.clock.advance(by: TimeInterval(step))
        let second = try fixture.currentCode(meetup)
        #expect(second != first)
        let shown = try page.waitFor("document.getElementById('code').getAttribute('data-code')", timeout: 10) { $0 == second }
        #expect(shown == second, "the page did not move to the next code by itself")
        let counted = try page.waitFor("document.getElementById('count').textContent", timeout: 10) { $0 == "1 of 3 checked in" }
        #expect(counted != nil, "the count did not move after the check-in")
        try page.screenshot(to: directory.file("tablet-2.png"))
        #expect(try Self.qrTexts(in: directory.file("tablet-2.png")) == ["\(base)/c/\(meetup.id)?code=\(second)"])
        #expect(try page.evaluate("window.sameDocument") as? String == "yes", "the page was reloaded")

        // A phone held upright reads the same.
        try page.setViewport(width: 390, height: 844, mobile: true)
        try page.screenshot(to: directory.file("phone.png"))
        #expect(try Self.qrTexts(in: directory.file("phone.png")) == ["\(base)/c/\(meetup.id)?code=\(second)"])

        // Revoked, the screen says so at its next refresh.
        #expect(fixture.send(.delete, "/v1/meetups/\(meetup.id)/kiosk", token: fixture.host.token)["revoked"]?.intValue == 1)
        let gone = try page.waitFor("document.body.getAttribute('data-status')", timeout: 10) { $0 == "gone" }
        #expect(gone == "gone")
        #expect(try page.evaluate("document.getElementById('notice-title').textContent") as? String == "This kiosk link was turned off")
        try page.screenshot(to: directory.file("revoked.png"))

        // Nothing the page did broke its Content-Security-Policy or threw (the server has no
        // favicon, and the revoked link's state is a 410 the browser logs).
        #expect(page.messages.filter { !$0.contains("favicon.ico") && !$0.contains("status of 410") } == [], "console and log: \(page.messages)")
        if let keep = ProcessInfo.processInfo.environment["BELAY_KEEP_KIOSK_SCREENSHOTS"] {
            for name in ["tablet-1.png", "tablet-2.png", "phone.png", "revoked.png"] {
                try? FileManager.default.removeItem(atPath: keep + "/" + name)
                try FileManager.default.copyItem(atPath: directory.file(name), toPath: keep + "/" + name)
            }
        }
    }
}
