import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The life-cycle over the API: the server's scheduler completes meetups whose window
/// closed, `record_past` for admins only, and the attendee CSV for the meetup's host.
@Suite struct MeetupLifecycleAPITests {
    @Test func theSchedulerCompletesMeetupsWhoseWindowClosed() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 600)
        #expect(fixture.application.completion.runOnce() == 0)
        fixture.clock.set(meetup.endsAt.addingTimeInterval(120 * 60))
        #expect(fixture.application.completion.runOnce() == 1)
        #expect(fixture.application.completion.runOnce() == 0)
        let shown = fixture.get("/v1/meetups/\(meetup.id)", as: fixture.host)
        #expect(shown["status"]?.stringValue == "completed")
    }

    @Test func recordPastIsForAdminsAndPastMeetupsOnly() throws {
        let fixture = try APIFixture()
        let end = fixture.clock.now().addingTimeInterval(-86_400)
        let body = """
            {"title": "Back then", "place_name": "Gym", "starts_at": "\(RFC3339.string(from: end.addingTimeInterval(-3_600)))", \
            "ends_at": "\(RFC3339.string(from: end))", "capacity": 5, "host_id": \(fixture.host.id)
            """
        let plain = fixture.post("/v1/meetups", as: fixture.admin, json: body + "}")
        #expect(plain.status == 422)
        #expect(plain["field"]?.stringValue == "ends_at")
        #expect(fixture.post("/v1/meetups", as: fixture.host, json: body + #", "record_past": true}"#).status == 403)
        let recorded = fixture.post("/v1/meetups", as: fixture.admin, json: body + #", "record_past": true}"#)
        #expect(recorded.status == 201)
        #expect(recorded["status"]?.stringValue == "completed")
    }

    @Test func theAttendeeCSVIsForTheHostAndAdmins() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(capacity: 1)
        let first = try fixture.member(name: "first"), second = try fixture.member(name: "second")
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: first).status == 201)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: second).status == 201)
        let csv = fixture.get("/v1/meetups/\(meetup.id)/attendees.csv", as: fixture.host)
        #expect(csv.status == 200)
        #expect(csv.contentType == "text/csv; charset=utf-8")
        #expect(csv.headers["Content-Disposition"] == "attachment; filename=\"meetup-\(meetup.id)-attendees.csv\"")
        let lines = String(decoding: csv.bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("first,Member 1,going,,"))
        #expect(lines[2].hasPrefix("second,Member 2,waitlisted,1,"))
        #expect(lines[1].contains("+09:00"))
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees.csv", as: fixture.admin).status == 200)
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees.csv", as: first).status == 403)
        let otherHost = try fixture.member(role: .host, name: "otherhost")
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees.csv", as: otherHost).status == 403)
    }
}
