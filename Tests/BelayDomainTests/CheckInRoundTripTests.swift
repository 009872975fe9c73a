@testable import BelayDomain
import BelayPostgres
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// On PostgreSQL a check-in costs at most two round trips to the server: one for everything it
/// reads (after the lock), one for everything it writes with the commit. Every round trip is
/// paid by every check-in of a club, on every node.
@Suite(.enabled(if: TestDatabase.isPostgreSQL, "round trips are PostgreSQL's"))
struct CheckInRoundTripTests {
    @Test func aCheckInWithACodeAKeyAndAWebhookIsTwoRoundTrips() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/check-ins", events: [.checkInCreated], by: .commandLine)
        let store = try #require(fixture.pool as? PostgresStore)
        let meetup = try fixture.meetup(capacity: 10)
        let members = [try fixture.member(), try fixture.member()]
        for member in members {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        fixture.clock.set(meetup.startsAt.addingTimeInterval(600))
        let code = try fixture.domain.meetups.currentCheckInCode(meetupID: meetup.id, by: fixture.hostActor).code
        func checkIn(_ member: User) throws -> (result: CheckInResult, roundTrips: Int) {
            let before = store.writeRoundTrips
            let result = try fixture.domain.checkIns.checkIn(
                CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .code(code), idempotencyKey: "key-\(member.id)"),
                by: .user(member.id, role: .member))
            return (result, store.writeRoundTrips - before)
        }
        // The first prepares its statements on the writer's connection (in the same round trips).
        _ = try checkIn(members[0])
        let (result, roundTrips) = try checkIn(members[1])
        #expect((1...2).contains(roundTrips), "a check-in took \(roundTrips) round trips")

        // And it wrote all it says, as a read finds it.
        let reward = try #require(result.reward)
        #expect(result.attendance.status == .checkedIn)
        #expect(try fixture.domain.rewards.reward(id: reward.id).attendanceID == result.attendance.id)
        let stored = try fixture.pool.read { db in
            try db.queryOne("""
                SELECT a.status, a.check_in_number, a.updated_at,
                       (SELECT count(*) FROM check_in_idempotency_keys k WHERE k.attendance_id = a.id) AS keys,
                       (SELECT count(*) FROM render_jobs j WHERE j.reward_id = ?2) AS jobs,
                       (SELECT count(*) FROM webhook_deliveries) AS deliveries
                FROM attendances a WHERE a.id = ?1
                """, [result.attendance.id, reward.id]) { row in
                [try row.get("status", as: String.self), "\(try row.get("check_in_number", as: Int.self))",
                 "\(try row.get("keys", as: Int.self))", "\(try row.get("jobs", as: Int.self))",
                 "\(try row.get("deliveries", as: Int.self))", "\(try row.get("updated_at", as: Date.self) == result.attendance.updatedAt)"]
            }
        }
        #expect(stored == ["checked_in", "1", "1", "1", "2", "true"])
    }
}
