import BelayDomain
import BelayPipeline
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

@Suite struct RetentionSchedulerTests {
    @Test func prunesAtStartAndAgainEachIntervalByTheClock() throws {
        let fixture = try PipelineFixture()
        let meetup = try #require(try fixture.history(meetups: 1, members: 1).first)
        let (attendanceID, memberID) = try fixture.pool.read { db in
            try #require(try db.queryOne("SELECT id, member_id FROM attendances WHERE meetup_id = ?", [meetup.id]) {
                (try $0.get("id", as: Int64.self), try $0.get("member_id", as: Int64.self))
            })
        }
        let day: TimeInterval = 86_400
        try fixture.pool.write { db in
            try db.execute("""
                INSERT INTO check_in_idempotency_keys (actor_id, key, request_fingerprint, attendance_id, created_at)
                VALUES (0, 'eight-days-old', 'f', ?, ?)
                """, [attendanceID, fixture.clock.now().addingTimeInterval(-8 * day)])
        }
        let retention = try CheckInRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 7)
        let log = LogLines()
        let scheduler = RetentionScheduler(retention: retention, interval: 3_600, clock: fixture.clock, checkInterval: 0.01,
                                           log: { log.append($0) })
        scheduler.start()
        defer { scheduler.stop() }
        #expect(log.wait(for: { $0 == "retention: pruned 1 check-in idempotency key(s) and 0 wrong-code counter(s) older than 7 day(s)" },
                         timeout: 30), "the first run is at start: \(log.all)")

        // Fresh rows stay until they are older than the window, then the next run takes them.
        try fixture.pool.write { db in
            try db.execute("""
                INSERT INTO check_in_idempotency_keys (actor_id, key, request_fingerprint, attendance_id, created_at)
                VALUES (0, 'fresh', 'f', ?, ?)
                """, [attendanceID, fixture.clock.now()])
            try db.execute("INSERT INTO check_in_attempts (meetup_id, member_id, wrong_attempts, last_wrong_at) VALUES (?, ?, 2, ?)",
                           [meetup.id, memberID, fixture.clock.now()])
        }
        #expect(scheduler.runs == 1)
        fixture.clock.advance(by: 8 * day)
        #expect(log.wait(for: { $0 == "retention: pruned 1 check-in idempotency key(s) and 1 wrong-code counter(s) older than 7 day(s)" },
                         timeout: 30), "\(log.all)")
        let left = try fixture.pool.read { db in
            (try db.scalar("SELECT count(*) FROM check_in_idempotency_keys", as: Int.self) ?? -1,
             try db.scalar("SELECT count(*) FROM check_in_attempts", as: Int.self) ?? -1)
        }
        #expect(left.0 == 0 && left.1 == 0)
        scheduler.stop()
        scheduler.stop()
    }
}

@Suite struct RetentionSchedulerOutboxTests {
    @Test func theFirstRunAlsoPrunesTheWebhookOutboxAndCountsOldShareEvents() throws {
        let fixture = try PipelineFixture()
        _ = try fixture.history(meetups: 1, members: 1)
        let day: TimeInterval = 86_400
        let old = fixture.clock.now().addingTimeInterval(-500 * day)
        try fixture.pool.write { db in
            try db.execute("""
                INSERT INTO webhook_endpoints (id, url, secret, created_at, updated_at)
                VALUES (1, 'https://hooks.example.com/', 'whsec_c2VjcmV0', ?1, ?1)
                """, [old])
            try db.execute("INSERT INTO webhook_events (id, message_id, type, body, created_at) VALUES (1, 'msg_1', 'meetup.created', ?1, ?2)",
                           [Data("{}".utf8), old])
            try db.execute("""
                INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at, delivered_at, created_at)
                VALUES (1, 1, 'succeeded', 1, ?1, ?1, ?1)
                """, [old])
            try db.execute("""
                INSERT INTO share_events (reward_id, member_id, meetup_id, target, completed, client_event_id, occurred_at)
                SELECT id, member_id, meetup_id, 'other', 1, 'old-share', ? FROM rewards LIMIT 1
                """, [old])
        }
        let log = LogLines()
        let scheduler = RetentionScheduler(
            retention: try CheckInRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 7),
            webhooks: try WebhookRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 30),
            shares: try ShareEventRetention(pool: fixture.pool, clock: fixture.clock, clubTimeZone: .gmt, retentionDays: 400),
            interval: 3_600, clock: fixture.clock, checkInterval: 0.01, log: { log.append($0) })
        scheduler.start()
        defer { scheduler.stop() }
        #expect(log.wait(for: { $0 == "retention: counted 1 share event(s) older than 400 day(s) into 1 daily total(s) and pruned them" },
                         timeout: 30), "\(log.all)")
        #expect(log.all.contains("retention: pruned 1 finished webhook delivery row(s) and 1 webhook event(s) older than 30 day(s)"), "\(log.all)")
        let left = try fixture.pool.read { db in
            [try db.scalar("SELECT count(*) FROM webhook_deliveries", as: Int.self), try db.scalar("SELECT count(*) FROM webhook_events", as: Int.self),
             try db.scalar("SELECT count(*) FROM share_events", as: Int.self), try db.scalar("SELECT sum(events) FROM share_statistics_daily", as: Int.self)]
        }
        #expect(left == [0, 0, 0, 1])
    }
}
