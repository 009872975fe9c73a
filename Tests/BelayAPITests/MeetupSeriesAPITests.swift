import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// `POST /v1/meetups/series`, `PATCH /v1/meetups/{id}/following` and
/// `POST /v1/meetups/{id}/cancel-following`.
@Suite struct MeetupSeriesAPITests {
    @Test func aSeriesOverTheAPI() throws {
        let fixture = try APIFixture()
        let start = fixture.clock.now().addingTimeInterval(86_400)
        let body = """
            {"title": "Weekly", "place_name": "Gym", "starts_at": "\(RFC3339.string(from: start, utcOffsetSeconds: 9 * 3600))", \
            "ends_at": "\(RFC3339.string(from: start.addingTimeInterval(7_200), utcOffsetSeconds: 9 * 3600))", "capacity": 8, \
            "repeat": "weekly", "until": "\(RFC3339.string(from: start.addingTimeInterval(14 * 86_400)))"}
            """
        let created = fixture.post("/v1/meetups/series", as: fixture.host, json: body)
        #expect(created.status == 201)
        let items = try #require(created["items"]?.arrayValue)
        #expect(items.count == 3)
        let seriesID = try #require(items.first?["id"]?.intValue)
        #expect(items.allSatisfy { $0["series_id"]?.intValue == seriesID })
        let second = try #require(items[1]["id"]?.intValue)

        let changed = fixture.send(.patch, "/v1/meetups/\(second)/following", token: fixture.host.token, json: #"{"capacity": 12}"#)
        #expect(changed.status == 200)
        #expect(changed["items"]?.arrayValue?.compactMap { $0["capacity"]?.intValue } == [12, 12])
        #expect(fixture.get("/v1/meetups/\(seriesID)", as: fixture.host)["capacity"]?.intValue == 8)

        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/series", as: member, json: body).status == 403)
        let daily = fixture.post("/v1/meetups/series", as: fixture.host, json: body.replacingOccurrences(of: "weekly", with: "daily"))
        #expect(daily.status == 422)
        #expect(daily["field"]?.stringValue == "repeat")
    }

    @Test func cancellingTheRestOfASeriesOverTheAPI() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let start = fixture.clock.now().addingTimeInterval(86_400)
        let series = try fixture.domain.meetups.createSeries(NewMeetup(
            title: "Weekly", placeName: "Gym", startsAt: start, endsAt: start.addingTimeInterval(7_200), timeZone: "Asia/Seoul",
            capacity: 8, hostID: fixture.host.id), repeat: .weekly, until: start.addingTimeInterval(21 * 86_400), by: fixture.host.user.actorForTests)
        #expect(series.count == 4)
        let ids = series.map(\.id)

        // Someone who manages none of them changes nothing.
        let member = try fixture.member()
        let refused = fixture.post("/v1/meetups/\(ids[1])/cancel-following", as: member)
        #expect(refused.status == 403)
        #expect(refused.problemCode == "not_permitted")
        #expect(fixture.get("/v1/meetups/\(ids[1])", as: fixture.host)["status"]?.stringValue == "scheduled")
        schemas.check(refused, .post, "/v1/meetups/{id}/cancel-following")

        let cancelled = fixture.post("/v1/meetups/\(ids[1])/cancel-following", as: fixture.host)
        #expect(cancelled.status == 200, "\(String(decoding: cancelled.bytes, as: UTF8.self))")
        schemas.check(cancelled, .post, "/v1/meetups/{id}/cancel-following")
        let items = try #require(cancelled["items"]?.arrayValue)
        #expect(items.compactMap { $0["id"]?.intValue } == Array(ids[1...]))
        #expect(items.allSatisfy { $0["status"]?.stringValue == "cancelled" })
        #expect(fixture.get("/v1/meetups/\(ids[0])", as: fixture.host)["status"]?.stringValue == "scheduled", "earlier meetups stay")

        let again = fixture.post("/v1/meetups/\(ids[2])/cancel-following", as: fixture.host)
        #expect(again.status == 409)
        #expect(again.problemCode == "meetup_cancelled")
        schemas.check(again, .post, "/v1/meetups/{id}/cancel-following")
        let unknown = fixture.post("/v1/meetups/999999/cancel-following", as: fixture.host)
        #expect(unknown.status == 404)
        let notAnID = fixture.post("/v1/meetups/abc/cancel-following", as: fixture.host)
        #expect(notAnID.status == 400)
        #expect(fixture.post("/v1/meetups/\(ids[0])/cancel-following", as: nil).status == 401)
    }
}
