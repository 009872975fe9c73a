import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Finished webhook deliveries, and the events no delivery needs any more, are pruned after
/// the window; what is still pending is kept however old.
@Suite struct WebhookRetentionTests {
    private static let day: TimeInterval = 86_400
    private static let admin = Actor.commandLine

    private func counts(_ fixture: DomainFixture) throws -> (deliveries: Int, events: Int) {
        try fixture.pool.read { db in
            (try db.scalar("SELECT count(*) FROM webhook_deliveries", as: Int.self) ?? -1,
             try db.scalar("SELECT count(*) FROM webhook_events", as: Int.self) ?? -1)
        }
    }

    @Test func finishedDeliveriesOlderThanTheWindowGoAndPendingOnesStay() throws {
        // One attempt each: a failure is given up at once.
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.maxAttempts = 1; $0.webhooks.allowPrivateAddresses = true })
        let webhooks = fixture.domain.webhooks
        let ok = try webhooks.add(url: "https://hooks.example.com/ok", by: Self.admin)
        let gone = try webhooks.add(url: "https://hooks.example.com/gone", by: Self.admin)
        let removed = try webhooks.add(url: "https://hooks.example.com/removed", by: Self.admin)
        let meetup = try fixture.meetup()
        let member = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        try webhooks.remove(id: removed.id, by: Self.admin)
        // `ok` takes both; `gone` answers 410 to the first (given up, endpoint disabled), so its
        // second stays pending until it is enabled; `removed` never gets its two.
        while let attempt = try webhooks.claim(owner: "test:1:w") {
            try webhooks.report(attempt, WebhookAttemptResult(statusCode: attempt.endpointID == gone.id ? 410 : 204, error: nil))
        }
        #expect(try counts(fixture) == (6, 2))

        let retention = try WebhookRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 30, batchSize: 1)
        fixture.clock.advance(by: 30 * Self.day - 1)
        #expect(try retention.prune().total == 0, "nothing is older than 30 days yet")

        fixture.clock.advance(by: 2)
        // A fresh event, delivered: inside the window.
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        while let attempt = try webhooks.claim(owner: "test:1:w") { try webhooks.report(attempt, WebhookAttemptResult(statusCode: 204, error: nil)) }
        let report = try retention.prune()
        #expect(report.deliveries == 5, "ok's two, gone's given-up one, removed's two")
        #expect(report.events == 1, "meetup.created; attendance.joined still has gone's pending delivery")
        #expect(try counts(fixture) == (2, 2))
        #expect(try webhooks.deliveries(endpointID: ok.id, by: Self.admin).items.map(\.eventType) == ["attendance.left"])
        let waiting = try webhooks.deliveries(endpointID: gone.id, by: Self.admin).items
        #expect(waiting.map(\.eventType) == ["attendance.joined"] && waiting.first?.status == .pending)
        #expect(try retention.prune().total == 0, "pruning again finds nothing")

        // Enabled, the kept delivery is still sent, and pruned once it is old and done.
        _ = try webhooks.enable(id: gone.id, by: Self.admin)
        let resent = try #require(try webhooks.claim(owner: "test:1:w"))
        #expect(resent.eventType == "attendance.joined" && resent.endpointID == gone.id)
        try webhooks.report(resent, WebhookAttemptResult(statusCode: 204, error: nil))
        fixture.clock.advance(by: 31 * Self.day)
        #expect(try retention.prune() == WebhookPruneReport(cutoff: fixture.clock.now().addingTimeInterval(-30 * Self.day),
                                                            deliveries: 2, events: 2))
        #expect(try counts(fixture) == (0, 0))
    }

    @Test func aWindowUnderOneDayIsRefused() throws {
        let fixture = try DomainFixture()
        #expect(refusal { _ = try WebhookRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 0) } == .invalidInput)
        #expect(refusal { _ = try WebhookRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 30, batchSize: 0) } == .invalidInput)
    }
}
