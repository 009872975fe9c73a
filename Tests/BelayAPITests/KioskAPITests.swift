import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Kiosk links through the API: who may make and revoke them, what the page and its state
/// show before, during and after the check-in window, and how a dead link answers.
@Suite struct KioskAPITests {
    static func token(of link: String) -> String { String(link.split(separator: "/").last ?? "") }

    @Test func aHostsLinkShowsWhenCheckInOpensThenTheCodeAndCountUntilItCloses() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(capacity: 20, startsIn: 3_600)
        let members = try (0..<3).map { _ in try fixture.member() }
        for member in members { #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }

        // Members and other hosts may not make one; the host, a co-host and an admin may.
        let member = fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: members[0])
        #expect(member.status == 403)
        #expect(member.problemCode == "not_permitted")
        #expect(fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: try fixture.member(role: .host)).status == 403)
        #expect(fixture.post("/v1/meetups/99999/kiosk", as: fixture.host).problemCode == "meetup_not_found")
        let cohost = try fixture.member(role: .host)
        try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: cohost).status == 201)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: fixture.admin).status == 201)
        let made = fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: fixture.host)
        #expect(made.status == 201)
        schemas.check(made, .post, "/v1/meetups/{id}/kiosk")
        #expect(made.headers["Cache-Control"] == "no-store")
        let link = try #require(made["url"]?.stringValue)
        let token = Self.token(of: link)
        #expect(link == "https://api.belay.example/k/" + token)
        #expect(token.count == 43 && token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let window = fixture.domain.meetups.checkInWindow(of: meetup)
        #expect(made["valid_until"]?.stringValue == RFC3339.string(from: window.closesAt, utcOffsetSeconds: 9 * 3600))

        // Only the token's SHA-256 is stored.
        let stored: [[UInt8]] = try fixture.domain.pool.read { db in
            try db.query("SELECT token_hash FROM kiosk_links ORDER BY id", []) { Array(try $0.get("token_hash", as: Data.self)) }
        }
        #expect(stored.count == 3)
        #expect(stored.last == Crypto.sha256(Array(token.utf8)))

        // Before the window: when it opens, in the club's language (Korean here), and no code.
        let early = fixture.get("/k/\(token)")
        #expect(early.status == 200)
        #expect(early.headers["Content-Security-Policy"] == "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        #expect(early.headers["X-Content-Type-Options"] == "nosniff")
        #expect(early.headers["Referrer-Policy"] == "no-referrer")
        #expect(early.headers["Cache-Control"] == "no-store")
        let earlyPage = String(decoding: early.bytes, as: UTF8.self)
        #expect(earlyPage.contains("<html lang=\"ko\">"))
        #expect(earlyPage.contains("체크인은 오후 7:30에 열려요"), "\(earlyPage)")
        #expect(earlyPage.contains("Evening session") && earlyPage.contains("Seoul Forest Climbing"))
        let waiting = fixture.get("/k/\(token)/state")
        schemas.check(waiting, .get, "/k/{token}/state")
        #expect(waiting["status"]?.stringValue == "not_open")
        #expect(waiting["code"] == .null)
        #expect(waiting["count_text"]?.stringValue == "3명 중 0명 체크인")

        // Inside it: the code, as digits and as a QR code of the check-in link, and the count.
        fixture.clock.advance(by: 1_800)
        let code = try fixture.currentCode(meetup)
        let open = fixture.get("/k/\(token)")
        let page = String(decoding: open.bytes, as: UTF8.self)
        #expect(open.status == 200)
        #expect(page.contains("<svg id=\"qr\"") && page.contains("\(code.prefix(3)) \(code.suffix(3))"))
        #expect(page.contains("<script src=\"/assets/kiosk.js?v="))
        #expect(!page.contains("<script>") && !page.contains(" style=") && !page.contains("<style"), "nothing inline for the CSP to allow")
        #expect(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: members[1], json: #"{"code": "\#(code)"}"#).status == 201)
        let state = fixture.get("/k/\(token)/state")
        schemas.check(state, .get, "/k/{token}/state")
        #expect(state["status"]?.stringValue == "open")
        #expect(state["code"]?.stringValue == code)
        #expect(state["check_in_url"]?.stringValue == "https://api.belay.example/c/\(meetup.id)?code=\(code)")
        #expect(state["checked_in"]?.intValue == 1 && state["holding_a_place"]?.intValue == 3)
        #expect(state["count_text"]?.stringValue == "3명 중 1명 체크인")
        #expect(state["step_seconds"]?.intValue == 30)
        #expect(state.headers["Cache-Control"] == "no-store")

        // After it: the page says check-in is over (410), and no new link can be made.
        fixture.clock.advance(by: 1_800 + 7_200 + 7_200)
        let over = fixture.get("/k/\(token)")
        #expect(over.status == 410)
        #expect(String(decoding: over.bytes, as: UTF8.self).contains("체크인이 끝났어요"))
        #expect(over.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
        let closed = fixture.get("/k/\(token)/state")
        schemas.check(closed, .get, "/k/{token}/state")
        #expect(closed.status == 410)
        #expect(closed.problemCode == "kiosk_closed")
        let late = fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: fixture.host)
        #expect(late.status == 409)
        #expect(late.problemCode == "window_closed")
    }

    @Test func revokingTurnsEveryLinkOffAndUnknownOrCancelledLinksSaySo() throws {
        let fixture = try APIFixture(settings: ["club": ["locale": "ja_JP"]])
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(startsIn: 0)
        let links = try (0..<2).map { _ in try #require(fixture.post("/v1/meetups/\(meetup.id)/kiosk", as: fixture.host)["url"]?.stringValue) }
        #expect(fixture.get("/k/\(Self.token(of: links[0]))").status == 200)

        #expect(fixture.send(.delete, "/v1/meetups/\(meetup.id)/kiosk", token: try fixture.member().token).status == 403)
        let revoked = fixture.send(.delete, "/v1/meetups/\(meetup.id)/kiosk", token: fixture.host.token)
        schemas.check(revoked, .delete, "/v1/meetups/{id}/kiosk")
        #expect(revoked["revoked"]?.intValue == 2)
        #expect(fixture.send(.delete, "/v1/meetups/\(meetup.id)/kiosk", token: fixture.host.token)["revoked"]?.intValue == 0)
        for link in links {
            let page = fixture.get("/k/\(Self.token(of: link))")
            #expect(page.status == 410)
            #expect(String(decoding: page.bytes, as: UTF8.self).contains("このキオスクのリンクは停止されました"))
            let state = fixture.get("/k/\(Self.token(of: link))/state")
            #expect(state.problemCode == "kiosk_revoked")
            #expect(state["title"]?.stringValue == "このキオスクのリンクは停止されました")
        }

        // A link no one made is a 404, page and state alike.
        #expect(fixture.get("/k/not-a-kiosk-link").status == 404)
        let unknown = fixture.get("/k/not-a-kiosk-link/state")
        schemas.check(unknown, .get, "/k/{token}/state")
        #expect(unknown.problemCode == "kiosk_not_found")

        // A cancelled meetup's link says so.
        let other = try fixture.meetup(startsIn: 0)
        let link = try #require(fixture.post("/v1/meetups/\(other.id)/kiosk", as: fixture.host)["url"]?.stringValue)
        _ = try fixture.domain.meetups.cancel(id: other.id, by: .commandLine)
        #expect(fixture.get("/k/\(Self.token(of: link))/state").problemCode == "kiosk_cancelled")
        #expect(fixture.post("/v1/meetups/\(other.id)/kiosk", as: fixture.host).problemCode == "meetup_cancelled")
    }

    @Test func theScriptStylesheetCheckInLinkPageAndAppLinksAreServed() throws {
        let fixture = try APIFixture(settings: ["app_links": ["ios_app_ids": "A1B2C3D4E5.club.belay.app", "app_store_url": "https://apps.apple.com/app/id123"]])
        let script = fixture.get("/assets/kiosk.js")
        #expect(script.status == 200)
        #expect(script.contentType == "text/javascript; charset=utf-8")
        #expect(script.headers["X-Content-Type-Options"] == "nosniff")
        let stylesheet = fixture.get("/assets/kiosk.css")
        #expect(stylesheet.contentType == "text/css; charset=utf-8")

        // The QR code's link, opened without the app: how to get it, the code, the store.
        let page = fixture.get("/c/12?code=123456&utm_source=qr")
        #expect(page.status == 200)
        #expect(page.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'") == true)
        let html = String(decoding: page.bytes, as: UTF8.self)
        #expect(html.contains("Belay Climbing Club 앱으로 체크인하세요") && html.contains("체크인 코드: 123456"))
        #expect(html.contains("href=\"https://apps.apple.com/app/id123\""))
        #expect(fixture.get("/c/12?code=<b>").status == 200)
        #expect(!String(decoding: fixture.get("/c/12?code=%3Cscript%3E").bytes, as: UTF8.self).contains("<script>"))

        let components = fixture.get("/.well-known/apple-app-site-association")["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue ?? []
        let paths = components.compactMap { $0["/"]?.stringValue }
        #expect(paths.contains("/c/*"), "\(paths)")
    }
}
