@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// A value in an enumerated column that no case names (written by a newer Belay, or by hand)
/// is reported as a storage error naming the column and the value, never read as a default.
@Suite struct StoredValueTests {
    let fixture: DomainFixture
    let member: User
    let meetup: Meetup
    let reward: Reward

    init() throws {
        fixture = try DomainFixture()
        member = try fixture.member()
        meetup = try fixture.meetup(startsIn: 600)
        fixture.clock.advance(by: 600)
        reward = try #require(try fixture.checkedIn(member, at: meetup).reward)
        _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: "share_sheet", activityType: nil,
                                                           completed: true, clientEventID: "evt-1"), by: .user(member.id, role: .member))
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/belay", by: .commandLine)
    }

    /// Writes `value` into `column` of every row of `table`, past the schema's CHECK
    /// constraints (on PostgreSQL, the fixture's own database loses the table's checks).
    private func store(_ value: String, in table: String, _ column: String) throws {
        try fixture.pool.write { db in
            if TestDatabase.isPostgreSQL {
                let checks = try db.query("SELECT conname FROM pg_constraint WHERE conrelid = CAST(? AS regclass) AND contype = 'c'",
                                          [table]) { try $0.get("conname", as: String.self) }
                for check in checks { try db.execute("ALTER TABLE \(table) DROP CONSTRAINT \"\(check)\"") }
                try db.execute("UPDATE \(table) SET \(column) = ?", [value])
                return
            }
            try db.execute("PRAGMA ignore_check_constraints = ON")
            defer { try? db.execute("PRAGMA ignore_check_constraints = OFF") }
            try db.execute("UPDATE \(table) SET \(column) = ?", [value])
        }
    }

    /// The column and value of the storage error `read` throws, or nil when it throws none.
    private func unknownValue(_ read: () throws -> Void) -> (column: String, value: String)? {
        do {
            try read()
            return nil
        } catch let error as DomainError {
            #expect(error.reason == .storageFailure)
            return error.underlying?.unknownStoredValue
        } catch let error as DatabaseError {
            return error.unknownStoredValue
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    /// Stores `value` in `column` and expects `read` to report it; `reported` is the column's
    /// name in the query, when the query renames it.
    private func expectUnknown(_ value: String, in table: String, _ column: String, reported: String? = nil,
                               read: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try store(value, in: table, column)
        let found = unknownValue(read)
        #expect(found?.column == reported ?? column, sourceLocation: sourceLocation)
        #expect(found?.value == value, sourceLocation: sourceLocation)
    }

    @Test func meetupStatus() throws {
        try expectUnknown("postponed", in: "meetups", "status") { _ = try fixture.domain.meetups.meetup(id: meetup.id) }
    }

    @Test func attendanceStatus() throws {
        try expectUnknown("maybe", in: "attendances", "status") {
            _ = try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)
        }
    }

    @Test func checkInMethod() throws {
        try expectUnknown("telepathy", in: "attendances", "check_in_method") {
            _ = try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)
        }
    }

    @Test func userRole() throws {
        try expectUnknown("owner", in: "users", "role") { _ = try fixture.domain.users.user(id: member.id) }
    }

    @Test func holdRarity() throws {
        try expectUnknown("mythic", in: "holds", "rarity", reported: "hold_rarity") { _ = try fixture.domain.catalog.holds() }
    }

    @Test func rewardRenderStatus() throws {
        try expectUnknown("drawing", in: "rewards", "render_status") { _ = try fixture.domain.rewards.reward(id: reward.id) }
    }

    @Test func renderJobStatusAndReason() throws {
        let job = try #require(try fixture.domain.renderJobs.jobs(rewardID: reward.id).first)
        try expectUnknown("paused", in: "render_jobs", "status") { _ = try fixture.domain.renderJobs.counts() }
        try store("queued", in: "render_jobs", "status")
        try expectUnknown("whim", in: "render_jobs", "reason") { _ = try fixture.domain.renderJobs.job(id: job.id) }
    }

    @Test func shareTarget() throws {
        try expectUnknown("myspace", in: "share_events", "target") { _ = try fixture.domain.shares.statistics() }
    }

    @Test func webhookEventTypes() throws {
        try expectUnknown("meetup.exploded", in: "webhook_endpoints", "event_types") {
            _ = try fixture.domain.webhooks.endpoints(by: .commandLine)
        }
    }
}
