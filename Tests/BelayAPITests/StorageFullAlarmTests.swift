import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// A database that cannot grow (its page limit reached, as on a full disk) answers writes
/// 503 `storage_full`; the alarm logs the cause once per episode. SQLite's page limit stands
/// in for the full disk, so this runs on SQLite only.
@Suite(.enabled(if: !TestDatabase.isPostgreSQL)) struct StorageFullAlarmTests {
    /// As large as the meetup that was refused, so that it needs a page the file cannot have.
    private static let newMeetup = """
        {"title": "T", "description": "\(String(repeating: "y", count: 4_000))", "place_name": "P",
         "starts_at": "2030-01-06T09:00:00+09:00", "ends_at": "2030-01-06T12:00:00+09:00", "capacity": 4}
        """

    /// Caps the writer connection at the pages the file has now (SQLite rounds the cap up to
    /// the file's size, which grows in chunks), then writes until a write is refused.
    private func fillUp(_ fixture: APIFixture) throws -> DomainError {
        try #require(fixture.domain.pool as? SQLitePool).writeWithoutTransaction { db in
            let pages = try db.scalar("PRAGMA page_count", as: Int.self) ?? 0
            // SQLite keeps the limit at least at the file's size, which grows in chunks.
            _ = try db.scalar("PRAGMA max_page_count = \(pages)", as: Int.self)
        }
        for index in 0..<20_000 {
            do {
                _ = try fixture.domain.meetups.create(NewMeetup(
                    title: "T\(index)", description: String(repeating: "x", count: 4_000), placeName: "P", startsAt: Date(timeIntervalSince1970: 1_900_000_000),
                    endsAt: Date(timeIntervalSince1970: 1_900_003_600), timeZone: "Asia/Seoul", capacity: 4, hostID: fixture.host.id),
                    by: .user(fixture.host.id, role: .host))
            } catch let error as DomainError where error.underlying?.isStorageFull == true {
                return error
            }
        }
        throw CancellationError()
    }

    @Test func writesAreAnswered503StorageFullWithRetryAfter() throws {
        let fixture = try APIFixture()
        _ = try fillUp(fixture)
        let refused = fixture.post("/v1/meetups", as: fixture.host, json: Self.newMeetup)
        #expect(refused.status == 503)
        #expect(refused.problemCode == "storage_full")
        #expect(refused.headers["Retry-After"] == "60")
        #expect(refused.json?["reason"]?.stringValue == "storage_failure")
        #expect(fixture.get("/v1/meetups?scope=all", as: fixture.host).status == 200, "reads go on")
    }

    @Test func theCauseIsLoggedOncePerEpisode() throws {
        let fixture = try APIFixture()
        let error = try fillUp(fixture)
        let sink = CapturingLogSink()
        let clock = ManualTimeSource(Date(timeIntervalSince1970: 1_800_000_000))
        let alarm = StorageFullAlarm(logger: Logger(label: "belay", sink: sink), clock: clock, quietPeriod: 600)
        for _ in 0..<3 {
            alarm.record(error)
            clock.advance(by: 599)
        }
        #expect(sink.entries.count == 1)
        let first = try #require(sink.entries.first)
        #expect(first.level == .error)
        #expect(first.message.contains("the disk holding the database is full (SQLite error 13"))
        #expect(first.message.contains("until space is freed there"))

        clock.advance(by: 2)   // 601 s without a refusal: the episode is over
        alarm.record(error)
        #expect(sink.entries.count == 2)
        #expect(sink.entries.last?.message.contains("the previous episode refused 3 writes") == true)
        #expect(alarm.refusals == 4)
    }
}
