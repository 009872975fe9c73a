import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// Joins, leaves, meetup creation, changes and cancellation, and collection images are answered deferred:
/// the handler returns at once and no HTTP thread waits for the group commit (or the render).
@Suite struct DeferredWriteTests {
    private func request(_ method: HTTPMethod, _ path: String, token: String, json: String? = nil) -> Request {
        var fields = HTTPHeaders()
        fields.add(name: "Authorization", value: "Bearer \(token)")
        if json != nil { fields.add(name: "Content-Type", value: "application/json") }
        return Request(method: method, path: path, queryItems: [], headers: fields, body: json.map { Array($0.utf8) } ?? [],
                       bodyLimit: 65_536)
    }

    @Test func writesReturnDeferredWhileTheWriterIsBusy() throws {
        let fixture = try APIFixture()
        let (staying, leaving) = (try fixture.member(), try fixture.member())
        let meetup = try fixture.meetup(capacity: 5)
        let doomed = try fixture.meetup(capacity: 5)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: leaving).status == 201)
        let requests = [
            request(.post, "/v1/meetups/\(meetup.id)/join", token: staying.token),
            request(.post, "/v1/meetups/\(meetup.id)/leave", token: leaving.token),
            request(.post, "/v1/meetups", token: fixture.host.token, json: """
                {"title": "Later", "place_name": "Crag", "starts_at": "2030-01-06T09:00:00+09:00", "ends_at": "2030-01-06T12:00:00+09:00",
                 "capacity": 4}
                """),
            request(.patch, "/v1/meetups/\(meetup.id)", token: fixture.host.token, json: #"{"capacity": 7}"#),
            request(.post, "/v1/meetups/\(doomed.id)/cancel", token: fixture.host.token),
        ]

        // Hold the writer thread until every handler has returned.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        fixture.domain.pool.write({ _ in
            holding.signal()
            release.wait()
        }, then: { _ in })
        holding.wait()
        let deferred = Mutex<[Bool]>([])
        let returned = DispatchSemaphore(value: 0)
        let responder = fixture.application.responder
        Thread.detachNewThread {
            for request in requests {
                let response = responder.respond(to: request)
                deferred.withLock { $0.append(response.isDeferred) }
            }
            returned.signal()
        }
        let inTime = returned.wait(timeout: .now() + 20) == .success
        release.signal()
        if !inTime { returned.wait() }
        #expect(inTime, "every handler returned while the writer was busy")
        #expect(deferred.withLock { $0 } == [true, true, true, true, true])

        // The writes committed behind the held one, each with its answer (on SQLite's single
        // writer a write queued now commits after them; PostgreSQL ran them beside it).
        try fixture.domain.pool.write { _ in }
        let deadline = Date().addingTimeInterval(20)
        while TestDatabase.isPostgreSQL, Date() < deadline,
              try fixture.domain.meetups.list(MeetupQuery(scope: .upcoming, limit: 10)).items.contains(where: { $0.title == "Later" }) == false
                || (try fixture.domain.meetups.meetup(id: doomed.id).status) != .cancelled
                || (try fixture.domain.meetups.meetup(id: meetup.id).capacity) != 7
                || (try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: leaving.id)?.status) != .cancelled
                || (try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: staying.id)?.status) != .going {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: staying.id)?.status == .going)
        #expect(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: leaving.id)?.status == .cancelled)
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).capacity == 7)
        #expect(try fixture.domain.meetups.meetup(id: doomed.id).status == .cancelled)
        #expect(try fixture.domain.meetups.list(MeetupQuery(scope: .upcoming, limit: 10)).items.contains { $0.title == "Later" })

        // Through the whole stack, the answers are the same as before.
        let refused = fixture.post("/v1/meetups/\(meetup.id)/leave", as: leaving)
        #expect(refused.status == 409 && refused.problemCode == "already_cancelled")
        let created = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "Again", "place_name": "Gym", "starts_at": "2030-02-06T09:00:00+09:00", "ends_at": "2030-02-06T12:00:00+09:00",
             "capacity": 4}
            """)
        #expect(created.status == 201 && created.headers["Location"] == "/v1/meetups/\(created.json?["id"]?.intValue ?? 0)")
        let changed = fixture.send(.patch, "/v1/meetups/\(meetup.id)", token: fixture.host.token, json: #"{"capacity": 0}"#)
        #expect(changed.status == 422)
    }

    @Test func aCollectionImageIsAnsweredDeferred() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let response = fixture.application.responder.respond(to: request(.get, "/v1/me/collection.png", token: member.token))
        #expect(response.isDeferred, "rendered off the HTTP thread")
        let image = fixture.get("/v1/me/collection.png?scale=3", as: member)
        #expect(image.status == 200 && image.headers["Content-Type"] == "image/png")
        let etag = try #require(image.headers["ETag"])
        #expect(fixture.get("/v1/me/collection.png?scale=3", as: member, headers: [("If-None-Match", etag)]).status == 304)
    }
}
