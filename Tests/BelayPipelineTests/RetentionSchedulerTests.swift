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
