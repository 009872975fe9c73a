import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// `POST /v1/meetups/series` and `PATCH /v1/meetups/{id}/following`.
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
}
