import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Safety on the real binary: the terms asked before any change, a block both ways, a report
/// and its outcome, a moderator hiding a meetup and suspending its host, the log in the API
/// and on the command line, and the open reports in /metrics.
@Suite struct SafetyEndToEndTests {
    @Test func termsBlocksReportsAndModerationFromTheApp() throws {
        let workspace = try ClubWorkspace.served(settings: [
            "accounts": ["terms_version": "2026-12", "terms_url": "https://club.example/terms"],
            "moderation": ["auto_hide_reports": 0],
        ])
        let server = try workspace.serve()
        let admin = try workspace.user("admin", role: "admin")
        let host = try workspace.user("jisoo", role: "host")
        let blocker = try workspace.user("minji")
        let reporter = try workspace.user("yuna")
        let moderator = try workspace.user("hana")
        try workspace.succeed("moderation", "grant", "hana")
        let meetup = try workspace.cli(["meetups", "create", "--title", "Free crypto bouldering", "--place", "Seoul Forest Gym",
                                        "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--capacity", "8", "--host", "jisoo"])
        let id = try #require(meetup["id"]?.intValue)

        // The terms first: a change is refused, with what to accept and where to read it; reading is not.
        let refused = try server.call("POST", "/v1/meetups/\(id)/join", token: blocker.token)
        #expect(refused.status == 403)
        #expect(refused["code"]?.stringValue == "terms_required")
        #expect(refused["version"]?.stringValue == "2026-12")
        #expect(refused["url"]?.stringValue == "https://club.example/terms")
        #expect(try server.call("GET", "/v1/meetups", token: blocker.token).status == 200)
        #expect(try server.call("POST", "/v1/invites", token: admin.token, json: "{}").status == 201, "admins are not asked")
        let before = try server.call("GET", "/v1/me", token: blocker.token)
        #expect(before["terms_to_accept"]?["version"]?.stringValue == "2026-12")
        #expect(before["moderator"] == .bool(false))
        #expect(try server.call("GET", "/v1/me", token: moderator.token)["moderator"] == .bool(true))
        #expect(try server.call("POST", "/v1/me/terms", token: blocker.token, json: #"{"version":"2025-01"}"#)["field"]?.stringValue == "version")
        for member in [blocker, reporter, moderator, host] {
            let accepted = try server.call("POST", "/v1/me/terms", token: member.token, json: #"{"version":"2026-12"}"#)
            #expect(accepted.status == 200)
            #expect(accepted["version"]?.stringValue == "2026-12")
        }

        #expect(try server.call("GET", "/v1/me", token: blocker.token)["terms_to_accept"] == .null)

        // A block both ways: gone from the blocker's list, a join refused without a word of it.
        let blocked = try server.call("PUT", "/v1/me/blocks/\(host.id)", token: blocker.token)
        #expect(blocked.status == 201)
        #expect(blocked["blocked"] == .bool(true))
        #expect(try server.call("PUT", "/v1/me/blocks/\(host.id)", token: blocker.token).status == 200)
        #expect(try server.call("GET", "/v1/meetups", token: blocker.token)["items"]?.arrayValue?.count == 0)
        #expect(try server.call("GET", "/v1/meetups", token: reporter.token)["items"]?.arrayValue?.count == 1)
        let join = try server.call("POST", "/v1/meetups/\(id)/join", token: blocker.token)
        #expect(join.status == 403)
        #expect(join["code"]?.stringValue == "not_permitted")
        let detail = join["detail"]?.stringValue ?? "block"
        #expect(!detail.lowercased().contains("block"), "\(detail)")
        #expect(try server.call("GET", "/v1/me/blocks", token: blocker.token)["items"]?.arrayValue?.first?["user_id"]?.intValue == host.id)
        #expect(try server.call("GET", "/v1/me/blocks", token: host.token)["items"]?.arrayValue?.count == 0)

        // A report, then the same report again: one report, updated.
        let body = #"{"subject_type":"meetup","subject_id":\#(id),"reason":"spam","note":"Selling coins"}"#
        let filed = try server.call("POST", "/v1/reports", token: reporter.token, json: body)
        #expect(filed.status == 201)
        let again = try server.call("POST", "/v1/reports", token: reporter.token,
                                    json: #"{"subject_type":"meetup","subject_id":"\#(id)","reason":"dangerous"}"#)
        #expect(again.status == 200)
        #expect(again["id"] == filed["id"])
        #expect(again["reason"]?.stringValue == "dangerous")
        let badReason = try server.call("POST", "/v1/reports", token: reporter.token, json: #"{"subject_type":"meetup","subject_id":1,"reason":"rude"}"#)
        #expect(badReason.status == 422)
        #expect(badReason["field"]?.stringValue == "reason")

        // Moderators only; the queue shows the meetup as first reported, never the reporter.
        #expect(try server.call("GET", "/v1/moderation/reports", token: reporter.token).status == 403)
        let queue = try server.call("GET", "/v1/moderation/reports", token: moderator.token)
        #expect(queue.status == 200)
        let subject = try #require(queue["items"]?.arrayValue?.first)
        #expect(subject["snapshot"]?["title"]?.stringValue == "Free crypto bouldering")
        #expect(subject["report_count"]?.intValue == 1)
        #expect(subject["reports"]?.arrayValue?.first?["reporter_id"] == nil)

        // Hide: the meetup leaves every list, the reporter sees the outcome.
        let hidden = try server.call("POST", "/v1/moderation/actions", token: moderator.token,
                                     json: #"{"action":"hide","subject_type":"meetup","subject_id":\#(id),"reason":"Rule 2: no selling"}"#)
        #expect(hidden.status == 201)
        #expect(hidden["moderator_id"]?.intValue == moderator.id)
        #expect(try server.call("GET", "/v1/meetups", token: reporter.token)["items"]?.arrayValue?.count == 0)
        let mine = try server.call("GET", "/v1/me/reports", token: reporter.token)
        #expect(mine["items"]?.arrayValue?.first?["outcome"]?.stringValue == "hide")

        // Suspend the host: their token stops working at once, and the log says who did what.
        #expect(try server.call("GET", "/v1/me", token: host.token).status == 200)
        let suspended = try server.call("POST", "/v1/moderation/actions", token: moderator.token,
                                        json: #"{"action":"suspend","subject_type":"member","subject_id":\#(host.id),"reason":"Rule 2, again"}"#)
        #expect(suspended.status == 201)
        #expect(try server.call("GET", "/v1/me", token: host.token).status == 401)
        let log = try server.call("GET", "/v1/moderation/audit", token: moderator.token)
        #expect(log["items"]?.arrayValue?.compactMap { $0["action"]?.stringValue } == ["suspend", "hide"])
        let printed = try workspace.cli(["moderation", "audit"])
        #expect(printed.arrayValue?.compactMap { $0["action"]?.stringValue } == ["suspend", "hide"])

        // The operator's view of the queue and the metrics.
        let empty = try workspace.run("reports", "list")
        #expect(empty.status == 0)
        #expect(empty.standardError.contains("No open reports"), "\(empty)")
        _ = try server.call("POST", "/v1/reports", token: reporter.token,
                            json: #"{"subject_type":"member","subject_id":\#(blocker.id),"reason":"impersonation"}"#)
        let metrics = String(decoding: try server.call("GET", "/metrics", token: admin.token).response.body, as: UTF8.self)
        #expect(metrics.contains("belay_reports_open 1"), "\(metrics.suffix(600))")
        #expect(metrics.contains("belay_reports_oldest_open_age_seconds"))
        _ = server.terminate()
    }

    /// The issue's test: a suspended member's access token, refresh token, API token and
    /// calendar feed all stop at the suspension, each refused at its first use after it, with no
    /// wait (the suspension drops this node's cached authentications and answers).
    @Test func aSuspendedMembersTokensRefreshTokenAndCalendarFeedStopTogether() throws {
        let peers = try SignInEndToEndTests().start()
        let (server, provider, workspace) = (peers.server, peers.provider, peers.workspace)
        let token = try SignInEndToEndTests.appleToken(provider, subject: "000555.suspended", nonce: "suspend-nonce",
                                                       email: "suspended@privaterelay.appleid.com")
        let signIn = try server.call("POST", "/v1/auth/apple", json: try SignInEndToEndTests.body([
            "identity_token": token, "nonce": "suspend-nonce", "name": "Dohyun Lee", "device_name": "Dohyun's phone",
            "platform": "ios", "locale": "ko"]))
        try #require(signIn.status == 201, "\(signIn.response.text)")
        let access = try #require(signIn["access_token"]?.stringValue)
        let refresh = try #require(signIn["refresh_token"]?.stringValue)
        let userID = try #require(signIn["user"]?["id"]?.intValue)
        let handle = try #require(signIn["user"]?["handle"]?.stringValue)
        let apiToken = try #require(try workspace.cli(["users", "token", handle])["secret"]?.stringValue)
        let me = try server.call("GET", "/v1/me", token: access)
        let calendarURL = try #require(me["calendar_url"]?.stringValue, "\(me.response.text)")
        let calendar = String(calendarURL[try #require(calendarURL.range(of: "/v1/calendar/")).lowerBound...])
        // All four work, and are cached, before.
        for _ in 0..<2 {
            #expect(try server.call("GET", "/v1/me", token: access).status == 200)
            #expect(try server.call("GET", "/v1/me", token: apiToken).status == 200)
            #expect(try server.call("GET", calendar).status == 200)
        }
        let moderator = try workspace.user("hana")
        try workspace.succeed("moderation", "grant", "hana")

        let suspended = try server.call("POST", "/v1/moderation/actions", token: moderator.token,
                                        json: #"{"action":"suspend","subject_type":"member","subject_id":\#(userID),"reason":"Rule 3: threats"}"#)
        #expect(suspended.status == 201, "\(suspended.response.text)")
        let byAccess = try server.call("GET", "/v1/me", token: access)
        let byToken = try server.call("GET", "/v1/me", token: apiToken)
        let feed = try server.call("GET", calendar)
        let refreshed = try server.call("POST", "/v1/auth/refresh", json: try SignInEndToEndTests.body(["refresh_token": refresh]))
        #expect(byAccess.status == 401, "the access token still works")
        #expect(byToken.status == 401, "the API token still works")
        #expect(feed.status == 404 && feed["code"]?.stringValue == "calendar_not_found", "the calendar feed still answers \(feed.status)")
        #expect(refreshed.status == 401, "the refresh token still works: \(refreshed.status)")
        // Signing in again is refused, naming the suspension.
        let again = try server.call("POST", "/v1/auth/apple", json: try SignInEndToEndTests.body([
            "identity_token": try SignInEndToEndTests.appleToken(provider, subject: "000555.suspended", nonce: "suspend-nonce-2"),
            "nonce": "suspend-nonce-2", "platform": "ios"]))
        #expect(again.status == 403 && again["code"]?.stringValue == "account_suspended", "\(again.response.text)")
        _ = server.terminate()
    }

    @Test func theClubsBlockedWordsAreRefusedWithTheFieldNamed() throws {
        let words = try TemporaryDirectory()
        try "# the club's list\nscammer\n".write(toFile: words.file("blocked.txt"), atomically: true, encoding: .utf8)
        let workspace = try ClubWorkspace.served(settings: ["moderation": ["blocked_terms_file": words.file("blocked.txt")]])
        let server = try workspace.serve()
        let host = try workspace.user("jisoo", role: "host")
        let refused = try server.call("POST", "/v1/meetups", token: host.token, json: """
            {"title":"Ｓｃａｍ ｍｅｒ meetup","place_name":"Gym","starts_at":"2030-12-05T19:00:00+09:00","ends_at":"2030-12-05T21:00:00+09:00","capacity":4}
            """)
        #expect(refused.status == 422)
        #expect(refused["code"]?.stringValue == "content_refused")
        #expect(refused["field"]?.stringValue == "title")
        let renamed = try server.call("PATCH", "/v1/me", token: host.token, json: #"{"display_name":"ѕсаmmer"}"#)
        #expect(renamed["code"]?.stringValue == "content_refused")
        #expect(renamed["field"]?.stringValue == "display_name")
        #expect(try server.call("POST", "/v1/meetups", token: host.token, json: """
            {"title":"Evening bouldering","place_name":"Gym","starts_at":"2030-12-05T19:00:00+09:00","ends_at":"2030-12-05T21:00:00+09:00","capacity":4}
            """).status == 201)
        _ = server.terminate()

        // An unreadable list stops the server before it starts, naming the setting.
        let broken = try ClubWorkspace.served(settings: ["moderation": ["blocked_terms_file": words.file("missing.txt")]])
        let shown = try broken.run("config", "check", "--config", broken.configPath)
        #expect(shown.status != 0)
        #expect(shown.standardError.contains("moderation.blocked_terms_file"), "\(shown)")
    }

    @Test func theTermsAddressMayNameTheMembersLanguage() throws {
        let localized = try ClubWorkspace.served(settings: ["accounts": ["terms_version": "1", "terms_url": "https://club.example/{locale}/terms"]])
        let checked = try localized.run("config", "check", "--config", localized.configPath)
        #expect(checked.status == 0, "\(checked)")
        let wrong = try ClubWorkspace.served(settings: ["accounts": ["terms_version": "1", "terms_url": "ftp://club.example/terms"]])
        let refused = try wrong.run("config", "check", "--config", wrong.configPath)
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("accounts.terms_url"), "\(refused)")
        let missing = try ClubWorkspace.served(settings: ["accounts": ["terms_version": "1"]])
        let unreadable = try missing.run("config", "check", "--config", missing.configPath)
        #expect(unreadable.status != 0)
        #expect(unreadable.standardError.contains("accounts.terms_url"), "a version without an address is refused: \(unreadable)")
    }
}
