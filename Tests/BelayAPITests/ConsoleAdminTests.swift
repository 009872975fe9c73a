import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The console's admin pages: invites (hosts and admins), webhooks with their deliveries and
/// redelivery, a member's push devices with a test notice (admins). Each action goes through
/// the same domain service as the API, with the same rule, and a refusal is shown on the form
/// with what was typed.
@Suite(.serialized) struct ConsoleAdminTests {
    @Test func hostsMakeAndRevokeTheirInvitesOnTheFormAndSeeNoOneElses() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let host = try club.signedInHost()
        let page = host.get("/console/invites")
        #expect(page.status == 200)
        #expect(page.text.contains("No invite codes yet."))
        #expect(page.text.contains("href=\"/console/invites\""), "hosts find invites in the navigation")

        // Refusals beside the field, with what was typed kept.
        let badUses = host.post("/console/invites", [("uses", "lots"), ("days", "7")])
        #expect(badUses.status == 422)
        #expect(badUses.text.contains("value=\"lots\"") && badUses.text.contains("id=\"uses-error\""))
        let badDays = host.post("/console/invites", [("uses", "3"), ("days", "400")])
        #expect(badDays.status == 422)
        #expect(badDays.text.contains("value=\"400\"") && badDays.text.contains("id=\"days-error\"") && badDays.text.contains("value=\"3\""))
        #expect(try fixture.domain.invites.list(by: club.host.user.actorForTests).isEmpty)

        let made = host.post("/console/invites", [("uses", "3"), ("days", "14")])
        #expect(made.status == 201, "\(made.text)")
        let invite = try #require(try fixture.domain.invites.list(by: club.host.user.actorForTests).first)
        #expect(invite.maxUses == 3)
        #expect(invite.expiresAt == fixture.clock.now().addingTimeInterval(14 * 86_400))
        #expect(made.text.contains(invite.code))
        #expect(made.text.contains("https://api.belay.example/invite/\(invite.code)"))

        // Another host's invite answers like one that does not exist; the form's token is needed.
        let other = try fixture.domain.invites.create(uses: 1, expiresAt: fixture.clock.now().addingTimeInterval(86_400), by: fixture.host.user.actorForTests)
        #expect(!host.get("/console/invites").text.contains(other.code))
        #expect(host.post("/console/invites/\(other.id)/revoke", []).status == 404)
        #expect(host.post("/console/invites/\(invite.id)/revoke", [], csrf: "").status == 403)
        #expect(try fixture.domain.invites.list(by: club.host.user.actorForTests).first?.revokedAt == nil)
        let revoked = host.post("/console/invites/\(invite.id)/revoke", [])
        #expect(revoked.status == 303)
        #expect(try fixture.domain.invites.list(by: club.host.user.actorForTests).first?.revokedAt != nil)
        #expect(host.get("/console/invites").text.contains("revoked"))

        // A member who is not a host has no invites page.
        _ = try fixture.domain.users.createUser(NewUser(handle: "bora", displayName: "Bora", email: "bora@example.com"))
        let member = ConsoleClient(fixture)
        try member.signIn(email: "bora@example.com", smtp: club.smtp, mailNumber: 2)
        #expect(member.get("/console/invites").status == 404)
        #expect(!member.get("/console").text.contains("/console/invites"))
        #expect(member.post("/console/invites", [("uses", "1"), ("days", "1")]).status == 404)
    }

    @Test func adminsAddWebhooksSeeTheirDeliveriesAndSendOneAgain() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let host = try club.signedInHost()
        let adminUser = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let admin = ConsoleClient(fixture)
        try admin.signIn(email: "mina@example.com", smtp: club.smtp, mailNumber: 2)
        #expect(host.get("/console/webhooks").status == 404)
        #expect(host.post("/console/webhooks", [("url", "https://hooks.example.com/belay")]).status == 404)
        #expect(try fixture.domain.webhooks.endpoints(by: adminUser.actorForTests).isEmpty)

        #expect(admin.get("/console/webhooks").status == 200)
        let refused = admin.post("/console/webhooks", [("url", "http://127.0.0.1/hook"), ("description", "내부 <봇>"), ("events", "meetup.created")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("id=\"url-error\""))
        #expect(refused.text.contains("value=\"http://127.0.0.1/hook\"") && refused.text.contains("value=\"내부 &lt;봇&gt;\""))
        #expect(refused.text.contains("value=\"meetup.created\" checked>"), "the events chosen stay chosen")
        let badEvent = admin.post("/console/webhooks", [("url", "https://hooks.example.com/belay"), ("events", "check_in.created"),
                                                        ("events", "nothing.happened")])
        #expect(badEvent.status == 422)
        #expect(badEvent.text.contains("value=\"check_in.created\" checked>") && badEvent.text.contains("value=\"nothing.happened\" checked"))

        let added = admin.post("/console/webhooks", [("url", "https://hooks.example.com/belay"), ("description", "Club bot"),
                                                     ("events", "check_in.created"), ("events", "reward.ready")])
        #expect(added.status == 201, "\(added.text)")
        let endpoint = try #require(try fixture.domain.webhooks.endpoints(by: adminUser.actorForTests).first)
        #expect(endpoint.eventTypes == [.checkInCreated, .rewardReady])
        #expect(added.text.contains(endpoint.secret), "the secret is shown once, on adding")
        #expect(!admin.get("/console/webhooks/\(endpoint.id)").text.contains(endpoint.secret))
        #expect(admin.get("/console/webhooks").text.contains("href=\"/console/webhooks/\(endpoint.id)\""))

        // A delivery that went through, then sent again from its button.
        let test = try fixture.domain.webhooks.sendTest(id: endpoint.id, by: adminUser.actorForTests)
        let attempt = try #require(try fixture.domain.webhooks.claim(owner: "console-test"))
        #expect(try fixture.domain.webhooks.report(attempt, WebhookAttemptResult(statusCode: 200, error: nil)) == .delivered)
        let log = admin.get("/console/webhooks/\(endpoint.id)")
        #expect(log.text.contains("webhook.test") && log.text.contains("HTTP 200"))
        #expect(log.text.contains("/deliveries/\(test.id)/redeliver"))
        #expect(host.post("/console/webhooks/\(endpoint.id)/deliveries/\(test.id)/redeliver", []).status == 404)
        let again = admin.post("/console/webhooks/\(endpoint.id)/deliveries/\(test.id)/redeliver", [])
        #expect(again.status == 200)
        #expect(again.text.contains("Queued to be sent again."))
        let requeued = try #require(try fixture.domain.webhooks.deliveries(endpointID: endpoint.id, by: adminUser.actorForTests).items.first)
        #expect(requeued.id == test.id && requeued.status == .pending && requeued.attempts == 0)
        let resent = try #require(try fixture.domain.webhooks.claim(owner: "console-test"))
        #expect(resent.messageID == test.messageID, "the same webhook-id goes again")
        _ = try fixture.domain.webhooks.report(resent, WebhookAttemptResult(statusCode: 200, error: nil))
        // The API's route does the same, for admins only.
        #expect(fixture.post("/v1/webhooks/\(endpoint.id)/deliveries/\(test.id)/redeliver", as: fixture.host).status == 403)
        let byAPI = fixture.post("/v1/webhooks/\(endpoint.id)/deliveries/\(test.id)/redeliver", as: fixture.admin)
        #expect(byAPI.status == 202)
        #expect(byAPI["status"]?.stringValue == "pending")
        // A delivery of another endpoint is not this one's.
        #expect(admin.post("/console/webhooks/\(endpoint.id + 1)/deliveries/\(test.id)/redeliver", []).status == 404)

        let removed = admin.post("/console/webhooks/\(endpoint.id)/remove", [])
        #expect(removed.status == 303)
        #expect(try fixture.domain.webhooks.endpoints(by: adminUser.actorForTests).isEmpty)
        #expect(admin.get("/console/webhooks/\(endpoint.id)").status == 404)
    }

    @Test func adminsSeeAMembersPushDevicesAndSendATestNotice() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let member = try fixture.member(name: "seoyeon")
        let registered = fixture.post("/v1/me/devices", as: member,
                                      json: #"{"platform": "ios", "token": "a1b2c3d4e5f6a7b8c9d0", "app_id": "club.belay.app"}"#)
        #expect(registered.status == 201, "\(registered.json as Any)")
        let host = try club.signedInHost()
        _ = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let admin = ConsoleClient(fixture)
        try admin.signIn(email: "mina@example.com", smtp: club.smtp, mailNumber: 2)

        #expect(host.get("/console/members/\(member.id)/devices").status == 404)
        #expect(host.post("/console/members/\(member.id)/devices/test", []).status == 404)
        #expect(admin.get("/console/members?q=seoyeon").text.contains("/console/members/\(member.id)/devices"))
        let devices = admin.get("/console/members/\(member.id)/devices")
        #expect(devices.status == 200)
        #expect(devices.text.contains("club.belay.app") && devices.text.contains("a1b2c3d4…"))
        #expect(!devices.text.contains("a1b2c3d4e5f6a7b8c9d0"), "the whole token is not shown")
        #expect(admin.post("/console/members/\(member.id)/devices/test", [], csrf: "").status == 403)
        let tested = admin.post("/console/members/\(member.id)/devices/test", [])
        #expect(tested.status == 200)
        // This club has no APNs or FCM set up, so nothing can be sent, and the page says so.
        #expect(tested.text.contains("id=\"device-notice\"") && tested.text.contains("APNs"))
        let nobody = try fixture.member(name: "nophone")
        #expect(admin.post("/console/members/\(nobody.id)/devices/test", []).text.contains("No devices registered."))
        #expect(admin.get("/console/members/999999/devices").status == 404)
    }
}
