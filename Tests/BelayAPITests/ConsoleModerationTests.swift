import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Moderators in the console: a report in the queue, an action with its problems shown on the
/// form, the audit log, members found by name and suspended; others get no such page.
@Suite(.serialized) struct ConsoleModerationTests {
    @Test func aReportGoesFromTheQueueToASuspensionThroughTheFormsAndTheLog() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let moderatorUser = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let offender = try fixture.member(name: "troll")
        let reporter = try fixture.member()
        // The offender signs in from the app (a session that must end).
        let reported = fixture.post("/v1/reports", as: reporter,
                                    json: #"{"subject_type": "member", "subject_id": "\#(offender.id)", "reason": "harassment", "note": "무례한 메시지 <b>"}"#)
        #expect(reported.status == 201, "\(reported.json as Any)")

        // A host who is not a moderator finds no such page.
        let host = try club.signedInHost()
        #expect(host.get("/console/moderation").status == 404)
        #expect(host.get("/console/members?q=troll").status == 404)
        #expect(host.post("/console/moderation/actions", [("action", "suspend"), ("subject_type", "member"), ("subject_id", String(offender.id)),
                                                          ("reason", "x")]).status == 404)
        #expect(!host.get("/console").text.contains("/console/moderation"))

        let moderator = ConsoleClient(fixture)
        try moderator.signIn(email: moderatorUser.email ?? "", smtp: club.smtp, mailNumber: 2)
        // The server at a glance, for admins only.
        let server = moderator.get("/console/server")
        #expect(server.status == 200)
        #expect(server.text.contains("Reports waiting for a moderator, now.<span class=\"sub\">belay_reports_open</span></th><td></td><td class=\"number\">1</td>"))
        #expect(server.text.contains("/readyz: ready"))
        #expect(host.get("/console/server").status == 404)
        let queue = moderator.get("/console/moderation")
        #expect(queue.status == 200)
        #expect(queue.text.contains("harassment × 1"))
        #expect(queue.text.contains("무례한 메시지 &lt;b&gt;"))

        // No reason: refused on the form, what was chosen and typed kept.
        let noReason = moderator.post("/console/moderation/actions", [("action", "suspend"), ("subject_type", "member"),
                                                                      ("subject_id", String(offender.id)), ("reason", ""), ("until", "2026-12-31T23:59")])
        #expect(noReason.status == 422)
        #expect(noReason.text.contains("role=\"alert\""))
        #expect(noReason.text.contains("<option value=\"suspend\" selected>"))
        #expect(noReason.text.contains("value=\"2026-12-31T23:59\""))
        let badUntil = moderator.post("/console/moderation/actions", [("action", "suspend"), ("subject_type", "member"),
                                                                      ("subject_id", String(offender.id)), ("reason", "Rule 2"), ("until", "someday")])
        #expect(badUntil.status == 422)
        #expect(badUntil.text.contains("value=\"someday\""))

        let suspended = moderator.post("/console/moderation/actions", [("action", "suspend"), ("subject_type", "member"),
                                                                       ("subject_id", String(offender.id)), ("reason", "Rule 2: harassment"), ("until", "")])
        #expect(suspended.status == 303)
        #expect(fixture.get("/v1/me", as: offender).status == 401, "the offender's tokens end at once")
        #expect(moderator.get("/console/moderation").text.contains("No open reports."))
        let audit = moderator.get("/console/moderation/audit")
        #expect(audit.status == 200)
        #expect(audit.text.contains("Rule 2: harassment") && audit.text.contains("@mina"))

        // Members by part of a name; lifting from there.
        let found = moderator.get("/console/members?q=tro")
        #expect(found.text.contains("@troll"))
        let lifted = moderator.post("/console/moderation/actions", [("action", "lift"), ("subject_type", "member"), ("subject_id", String(offender.id)),
                                                                    ("reason", "Appeal accepted"), ("return", "members"), ("q", "tro")])
        #expect(lifted.status == 303)
        #expect(lifted.headers["Location"] == "/console/members?q=tro")
        #expect(try fixture.domain.moderation.audit(by: moderatorUser.actorForTests).items.first?.action == .lift)
    }
}
