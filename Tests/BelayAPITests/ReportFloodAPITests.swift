import BelayAPI
import BelayCore
import BelayDomain
import BelayStorage
import Foundation
import Synchronization
import Testing

/// The issue's test through the API, on the engine of the run: a thousand members report one
/// meetup at once with `POST /v1/reports`; every one is answered 201 (no 500, no busy
/// database), the meetup is hidden once with one `content.hidden` webhook and one audit entry,
/// and all thousand reports are kept.
@Suite struct ReportFloodAPITests {
    @Test func aThousandMembersReportOneMeetupAtOnceThroughTheAPI() throws {
        let fixture = try APIFixture(settings: ["moderation": ["auto_hide_reports": 5, "auto_hide_window_hours": 24]])
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/safety", events: [.contentHidden], by: .commandLine)
        let meetup = try fixture.meetup()
        let members = try (0..<1_000).map { _ in try fixture.member() }
        let body = #"{"subject_type": "meetup", "subject_id": \#(meetup.id), "reason": "spam", "note": "Selling coins"}"#
        let statuses = Mutex<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: members.count) { index in
            let answer = fixture.post("/v1/reports", as: members[index], json: body)
            statuses.withLock { $0[answer.status, default: 0] += 1 }
        }
        #expect(statuses.withLock { $0 } == [201: 1_000])

        func count(_ sql: String, _ values: [any DatabaseValueConvertible] = []) throws -> Int {
            try fixture.domain.pool.read { try $0.scalar(sql, values, as: Int.self) } ?? -1
        }
        #expect(try count("SELECT count(*) FROM reports WHERE subject_type = 'meetup' AND subject_id = ?", [String(meetup.id)]) == 1_000)
        #expect(try count("SELECT count(DISTINCT reporter_id) FROM reports") == 1_000)
        #expect(try count("SELECT count(*) FROM webhook_events WHERE type = 'content.hidden'") == 1)
        #expect(try count("SELECT count(*) FROM moderation_actions") == 1)
        #expect(try count("SELECT count(*) FROM meetups WHERE hidden_at IS NOT NULL") == 1)
        // The queue shows one subject with every report counted, hidden until a moderator looks.
        let queue = fixture.get("/v1/moderation/reports", as: fixture.admin)
        #expect(queue.status == 200)
        #expect(queue["items"]?.arrayValue?.count == 1)
        #expect(queue["items"]?.arrayValue?.first?["report_count"]?.intValue == 1_000)
        #expect(fixture.get("/v1/meetups/\(meetup.id)", as: members[0]).status == 404)
    }
}
