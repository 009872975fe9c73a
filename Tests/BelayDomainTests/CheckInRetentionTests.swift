import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Idempotency keys and wrong-code counters are pruned once they are older than the window.
@Suite struct CheckInRetentionTests {
    private static let day: TimeInterval = 86_400

    /// A member checks in with an idempotency key, another enters a wrong code.
    private func checkInAndMiss(_ fixture: DomainFixture, key: String) throws -> (checkedIn: User, missed: User, meetup: Meetup) {
        let meetup = try fixture.meetup(startsIn: 0)
        let checkedIn = try fixture.member(), missed = try fixture.member()
        for member in [checkedIn, missed] {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: checkedIn.id, proof: .host,
                                                               idempotencyKey: key), by: fixture.hostActor)
        let wrong = refusal {
            _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: missed.id, proof: .code("x")),
                                                    by: .user(missed.id, role: .member))
        }
        #expect(wrong == .badCode)
        return (checkedIn, missed, meetup)
    }

    private func rows(_ fixture: DomainFixture) throws -> (keys: [String], attempts: [Int64]) {
        try fixture.pool.read { db in
            (try db.query("SELECT key FROM check_in_idempotency_keys ORDER BY key", []) { try $0.get("key") },
             try db.query("SELECT member_id FROM check_in_attempts ORDER BY member_id", []) { try $0.get("member_id") })
        }
    }

    @Test func rowsOlderThanTheWindowArePrunedAndNewerOnesKept() throws {
        let fixture = try DomainFixture()
        let old = try checkInAndMiss(fixture, key: "old-key")
        fixture.clock.advance(by: 6 * Self.day)
        let recent = try checkInAndMiss(fixture, key: "recent-key")
        #expect(try rows(fixture).keys == ["old-key", "recent-key"])
        #expect(try rows(fixture).attempts == [old.missed.id, recent.missed.id])

        // Just inside the window nothing goes.
        fixture.clock.advance(by: Self.day - 1)
        let retention = try CheckInRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 7, batchSize: 1)
        #expect(try retention.prune().total == 0)

        fixture.clock.advance(by: 2)
        let report = try retention.prune()
        #expect(report.idempotencyKeys == 1 && report.attempts == 1)
        #expect(report.cutoff == fixture.clock.now().addingTimeInterval(-7 * Self.day))
        #expect(try rows(fixture).keys == ["recent-key"])
        #expect(try rows(fixture).attempts == [recent.missed.id])
        #expect(try retention.prune().total == 0, "pruning again finds nothing")

        // A retry with the pruned key still gets the first result, from the attendance.
        let retry = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: old.meetup.id, memberID: old.checkedIn.id,
                                                                       proof: .host, idempotencyKey: "old-key"), by: fixture.hostActor)
        #expect(retry.isRepeat)
    }

    @Test func manyRowsArePrunedInBatches() throws {
        let fixture = try DomainFixture()
        for index in 0..<5 { _ = try checkInAndMiss(fixture, key: "key-\(index)") }
        fixture.clock.advance(by: 3 * Self.day)
        let retention = try CheckInRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 2, batchSize: 2)
        let report = try retention.prune()
        #expect(report.idempotencyKeys == 5 && report.attempts == 5)
        #expect(try rows(fixture).keys.isEmpty && rows(fixture).attempts.isEmpty)
    }

    @Test func aWindowUnderOneDayIsRefused() throws {
        let fixture = try DomainFixture()
        #expect(refusal { _ = try CheckInRetention(pool: fixture.pool, clock: fixture.clock, retentionDays: 0) } == .invalidInput)
    }
}
