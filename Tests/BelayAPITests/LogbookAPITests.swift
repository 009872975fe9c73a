import BelayAPI
import BelayCore
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The logbook over the API: a gym with a colour circuit, its manager uploading a set, a
/// member logging a session offline as one batch and retrying it, edits, visibility on every
/// route that shows a tick, and the summary in each caller's scale. Every answer is held to
/// the OpenAPI document by the fixture.
@Suite struct LogbookAPITests {
    static let gym = #"""
        {"name": "The Climb Gangnam", "names": {"ko": "더클라임 강남점"}, "country": "KR", "time_zone": "Asia/Seoul",
         "location": {"latitude": 37.4979, "longitude": 127.0276}, "website": "https://theclimb.example",
         "boulder_grading": "circuit",
         "boulder_levels": [
            {"colour": "#FFEB3B", "name": "Yellow", "names": {"ko": "노랑"}, "lowest": "VB", "highest": "V0", "scale": "v"},
            {"colour": "#4CAF50", "name": "Green", "names": {"ko": "초록"}, "lowest": "V1", "highest": "V2", "scale": "v"},
            {"colour": "#E53935", "name": "Red", "names": {"ko": "빨강"}, "lowest": "V4", "highest": "V5", "scale": "v"}]}
        """#

    @Test func aGymsManagerUploadsASetAndAMemberLogsASessionOffline() throws {
        let fixture = try APIFixture()
        let manager = try fixture.member(name: "manager")
        let climber = try fixture.member(name: "climber")
        let friend = try fixture.member(name: "friend")

        #expect(fixture.post("/v1/gyms", as: manager, json: Self.gym).status == 403)
        let created = fixture.post("/v1/gyms", as: fixture.admin, json: Self.gym)
        #expect(created.status == 201)
        let gymID = try #require(created["id"]?.intValue)
        #expect(created["boulder_levels"]?.arrayValue?[2]["grade"]?["display"]?.stringValue == "V4–V5")
        #expect(fixture.send(.put, "/v1/gyms/\(gymID)/managers/\(manager.id)", token: fixture.admin.token).status == 200)

        let found = fixture.get("/v1/gyms?q=%EA%B0%95%EB%82%A8", as: climber)
        #expect(found["items"]?.arrayValue?.map { $0["id"]?.intValue } == [gymID])
        let near = fixture.get("/v1/gyms?near=37.5,127.03", as: climber)
        #expect(near["items"]?.arrayValue?.first?["distance_km"] != nil)
        #expect(fixture.get("/v1/gyms?near=north", as: climber).status == 400)

        let set = #"{"csv": "wall,colour,grade,set_on\nCave,red,Red,2026-11-20\nCave,pink,Purple,2026-11-20\n"}"#
        let refused = fixture.post("/v1/gyms/\(gymID)/problem-sets", as: manager, json: set)
        #expect(refused.status == 422)
        #expect(refused["rows"]?.arrayValue?.map { $0["line"]?.intValue } == [3])
        let good = #"{"csv": "wall,colour,grade,set_on,name\nCave,red,Red,2026-11-20,1\nSlab,blue,초록,2026-11-21,2\n"}"#
        #expect(fixture.post("/v1/gyms/\(gymID)/problem-sets", as: manager, json: good).status == 201)
        let twice = fixture.post("/v1/gyms/\(gymID)/problem-sets", as: manager, json: good)
        #expect(twice.status == 200 && twice["added"]?.intValue == 0 && twice["unchanged"]?.intValue == 2)
        #expect(fixture.post("/v1/gyms/\(gymID)/problem-sets", as: climber, json: good).status == 403)
        let problems = fixture.get("/v1/gyms/\(gymID)/problems", as: climber)
        let cave = try #require(problems["items"]?.arrayValue?.first { $0["wall"]?.stringValue == "Cave" })
        let caveID = try #require(cave["id"]?.intValue)
        #expect(cave["grade"]?["colour"]?.stringValue == "#E53935")

        let batch = #"""
            {"ticks": [
              {"client_tick_id": "s1-1", "problem_id": \#(caveID), "style": "flash", "climbed_at": "2026-11-29T18:10:00+09:00"},
              {"client_tick_id": "s1-2", "gym_id": \#(gymID), "level": "초록", "style": "send", "attempts": 3, "climbed_at": "2026-11-29T18:20:00+09:00", "visibility": "private"},
              {"client_tick_id": "s1-3", "gym_id": \#(gymID), "level": "Purple", "style": "send"}]}
            """#
        let logged = fixture.post("/v1/me/ticks:batch", as: climber, json: batch)
        #expect(logged.status == 200)
        #expect(logged["results"]?.arrayValue?.map { $0["status"]?.stringValue } == ["created", "created", "refused"])
        #expect(logged["results"]?.arrayValue?[2]["error"]?["field"]?.stringValue == "level")
        let retried = fixture.post("/v1/me/ticks:batch", as: climber, json: batch)
        #expect(retried["results"]?.arrayValue?.map { $0["status"]?.stringValue } == ["duplicate", "duplicate", "refused"])
        let flashID = try #require(logged["results"]?.arrayValue?[0]["tick"]?["id"]?.intValue)

        let own = fixture.get("/v1/me/logbook", as: climber)
        #expect(own["items"]?.arrayValue?.count == 2)
        let seen = fixture.get("/v1/members/\(climber.id)/logbook", as: friend)
        #expect(seen["items"]?.arrayValue?.map { $0["client_tick_id"]?.stringValue } == ["s1-1"], "a private tick shows to its climber only")
        #expect(fixture.get("/v1/members/\(climber.id)/logbook?grade_min=V4", as: friend)["items"]?.arrayValue?.count == 1)
        #expect(fixture.get("/v1/members/\(climber.id)/logbook?grade_min=V9", as: friend)["items"]?.arrayValue?.count == 0)
        #expect(fixture.get("/v1/me/logbook?grade_min=V4&grade_max=5.10a", as: climber).status == 400)

        #expect(fixture.send(.put, "/v1/me/logbook/preferences", token: friend.token,
                             json: #"{"boulder_scale": "font", "route_scale": "french", "default_visibility": "members"}"#).status == 200)
        let summary = fixture.get("/v1/members/\(climber.id)/logbook/summary?from=2026-11-01&to=2026-11-30", as: friend)
        #expect(summary.status == 200)
        let pyramid = summary["axes"]?.arrayValue?.first?["pyramid"]?.arrayValue
        #expect(pyramid?.map { $0["grade"]?["display"]?.stringValue } == ["6a+–6c+"], "a red level shown in Font, the private green left out")
        #expect(fixture.get("/v1/me/logbook/summary?period=month&from=2026-11-01", as: climber).status == 400)

        let edited = fixture.send(.patch, "/v1/me/ticks/\(flashID)", token: climber.token, json: #"{"note": "first go", "stars": 4}"#)
        #expect(edited.status == 200 && edited["note"]?.stringValue == "first go")
        #expect(fixture.send(.patch, "/v1/me/ticks/\(flashID)", token: friend.token, json: #"{"note": "mine"}"#).status == 404)
        #expect(fixture.send(.delete, "/v1/me/ticks/\(flashID)", token: friend.token).status == 404)
        #expect(fixture.send(.delete, "/v1/me/ticks/\(flashID)", token: climber.token).status == 204)
        #expect(fixture.get("/v1/me/logbook", as: climber)["items"]?.arrayValue?.count == 1)

        let retire = fixture.post("/v1/gyms/\(gymID)/retirements", as: manager, json: #"{"wall": "Cave", "on": "2026-12-01"}"#)
        #expect(retire["retired"]?.intValue == 1)
        #expect(fixture.get("/v1/gyms/\(gymID)/problems", as: climber)["items"]?.arrayValue?.count == 1)
        #expect(fixture.get("/v1/gyms/\(gymID)/problems?on=2026-11-25", as: climber)["items"]?.arrayValue?.count == 2)
    }

    @Test func aTickAtAMeetupShowsToItsHostAsTheClimberChose() throws {
        let fixture = try APIFixture()
        let climber = try fixture.member(name: "climber")
        let meetup = try fixture.meetup(startsIn: 60)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: climber).status == 201)
        fixture.clock.advance(by: 120)
        let code = try fixture.currentCode(meetup)
        #expect(fixture.post("/v1/meetups/\(meetup.id)/check-in", as: climber, json: #"{"code": "\#(code)"}"#).status == 201)
        let tick = fixture.post("/v1/me/ticks", as: climber, json: #"{"client_tick_id": "a", "grade": "V3", "grade_scale": "v", "style": "send"}"#)
        #expect(tick.status == 201 && tick["meetup_id"]?.intValue == meetup.id)
        #expect(fixture.post("/v1/me/ticks", as: climber, json: #"{"client_tick_id": "a", "grade": "V3", "grade_scale": "v", "style": "send"}"#).status == 200)
        _ = fixture.post("/v1/me/ticks", as: climber, json: #"{"client_tick_id": "b", "grade": "V1", "grade_scale": "v", "style": "flash", "visibility": "private"}"#)
        let listed = fixture.get("/v1/meetups/\(meetup.id)/ticks", as: fixture.host)
        #expect(listed["items"]?.arrayValue?.map { $0["client_tick_id"]?.stringValue } == ["a"])
        let refused = fixture.post("/v1/me/ticks", as: climber, json: #"{"client_tick_id": "c", "grade": "V3", "grade_scale": "yds", "style": "send"}"#)
        #expect(refused.status == 422 && refused["field"]?.stringValue == "grade")
    }
}

/// A meetup at a gym takes the gym's name, address and zone.
@Suite struct MeetupAtAGymAPITests {
    @Test func aMeetupAtAGymTakesItsNameAddressAndZone() throws {
        let fixture = try APIFixture()
        let gym = fixture.post("/v1/gyms", as: fixture.admin, json: #"""
            {"name": "Tokyo Boulder Park", "address": "1-2-3 Shibuya", "time_zone": "Asia/Tokyo"}
            """#)
        let gymID = try #require(gym["id"]?.intValue)
        let times = #""starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 8"#
        let created = fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "Tuesday session", "gym_id": \#(gymID), \#(times)}"#)
        #expect(created.status == 201)
        #expect(created["place_name"]?.stringValue == "Tokyo Boulder Park")
        #expect(created["address"]?.stringValue == "1-2-3 Shibuya")
        #expect(created["time_zone"]?.stringValue == "Asia/Tokyo")
        #expect(created["gym_id"]?.intValue == gymID)

        let named = fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "T", "gym_id": \#(gymID), "place_name": "TBP cave", \#(times)}"#)
        #expect(named["place_name"]?.stringValue == "TBP cave" && named["time_zone"]?.stringValue == "Asia/Tokyo")
        let otherZone = fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "T", "gym_id": \#(gymID), "time_zone": "Asia/Seoul", \#(times)}"#)
        #expect(otherZone.status == 422 && otherZone["field"]?.stringValue == "time_zone")
        let nowhere = fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "T", \#(times)}"#)
        #expect(nowhere.status == 422 && nowhere["field"]?.stringValue == "place_name")
        #expect(fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "T", "gym_id": 999, \#(times)}"#).status == 404)

        let plain = fixture.post("/v1/meetups", as: fixture.host, json: #"{"title": "T", "place_name": "Park", \#(times)}"#)
        let plainID = try #require(plain["id"]?.intValue)
        #expect(plain["gym_id"] == .null && plain["time_zone"]?.stringValue == "Asia/Seoul")
        let moved = fixture.send(.patch, "/v1/meetups/\(plainID)", token: fixture.host.token, json: #"{"gym_id": \#(gymID)}"#)
        #expect(moved.status == 200)
        #expect(moved["place_name"]?.stringValue == "Tokyo Boulder Park" && moved["time_zone"]?.stringValue == "Asia/Tokyo")
        let freed = fixture.send(.patch, "/v1/meetups/\(plainID)", token: fixture.host.token, json: #"{"gym_id": null}"#)
        #expect(freed["gym_id"] == .null && freed["place_name"]?.stringValue == "Tokyo Boulder Park", "its place stays, now its own")
    }
}

/// The ranking and the climbers' grades over the API.
@Suite struct GymRankingAPITests {
    @Test func membersWhoOptInAreRankedAndFeltGradesShow() throws {
        let fixture = try APIFixture()
        let created = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(created["id"]?.intValue)
        let problem = fixture.post("/v1/gyms/\(gymID)/problems", as: fixture.admin,
                                   json: #"{"wall": "Cave", "hold_colour": "red", "grade": "Red", "set_on": "2026-11-20"}"#)
        let problemID = try #require(problem["id"]?.intValue)
        var climbers: [APIFixture.Member] = []
        for index in 0..<3 {
            let climber = try fixture.member(name: "climber\(index)")
            climbers.append(climber)
            let optIn = fixture.send(.put, "/v1/me/logbook/preferences", token: climber.token,
                                     json: #"{"boulder_scale": "v", "route_scale": "yds", "default_visibility": "members", "in_rankings": \#(index < 2)}"#)
            #expect(optIn["in_rankings"]?.boolValue == (index < 2))
            let tick = fixture.post("/v1/me/ticks", as: climber, json: #"""
                {"client_tick_id": "t", "problem_id": \#(problemID), "style": "send", "attempts": \#(index + 2), "felt_grade": "V5"}
                """#)
            #expect(tick.status == 201)
        }
        let listed = fixture.get("/v1/gyms/\(gymID)/problems", as: climbers[0])
        #expect(listed["items"]?.arrayValue?.first?["community_grade"]?["display"]?.stringValue == "V5")
        #expect(listed["items"]?.arrayValue?.first?["votes"]?.intValue == 3)
        let ranking = fixture.get("/v1/gyms/\(gymID)/ranking", as: climbers[2])
        #expect(ranking.status == 200)
        #expect(ranking["items"]?.arrayValue?.map { $0["handle"]?.stringValue } == ["climber0", "climber1"])
        #expect(ranking["best"]?.intValue == 10)
        #expect(fixture.get("/v1/gyms/999/ranking", as: climbers[2]).status == 404)
    }
}

/// Moving in and out over the API: an import refused whole, then made once, and the CSV export.
@Suite struct LogbookImportAPITests {
    @Test func importThenExport() throws {
        let fixture = try APIFixture()
        let climber = try fixture.member(name: "climber")
        let mountainProject = #"Date,Route,Rating,Notes,URL,Pitches,Location,\"Avg Stars\",\"Your Stars\",Style,\"Lead Style\",\"Route Type\",\"Your Rating\",Length,\"Rating Code\"\n"#
        let good = mountainProject + #"2026-10-10,Slab Happy,5.10-,\"=cmd|' /C calc'!A0\",https://mp.example/1,1,Korea > Seoraksan,2.8,3,Lead,Redpoint,Sport,,80,2500\n"#
        let bad = good + #",Forgotten,5.9,,https://mp.example/2,1,Korea,2.0,-1,Lead,,Sport,,30,2300\n"#
        let refused = fixture.post("/v1/me/logbook/imports", as: climber, json: #"{"csv": "\#(bad)"}"#)
        #expect(refused.status == 422 && refused["format"]?.stringValue == "mountain_project")
        #expect(refused["rows"]?.arrayValue?.map { $0["line"]?.intValue } == [3])
        let imported = fixture.post("/v1/me/logbook/imports", as: climber, json: #"{"csv": "\#(good)"}"#)
        #expect(imported.status == 201 && imported["added"]?.intValue == 1)
        #expect(fixture.post("/v1/me/logbook/imports", as: climber, json: #"{"csv": "\#(good)"}"#)["unchanged"]?.intValue == 1)

        let csv = fixture.get("/v1/me/logbook.csv", as: climber)
        #expect(csv.status == 200 && csv.contentType?.hasPrefix("text/csv") == true)
        let lines = String(decoding: csv.bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.first?.hasPrefix("day,climbed_at,kind,discipline,grade") == true)
        #expect(lines[1].hasPrefix("2026-10-10,") && lines[1].contains("5.10-,yds,5.10a–5.10b,") && lines[1].contains(",'=cmd"),
                "the grade as given and in the member's scale; a formula-like note is neutralised: \(lines[1])")
    }
}

/// The grade pyramid as a picture.
@Suite struct GradePyramidAPITests {
    @Test func theMembersPyramidIsDrawnInTheirScaleAndRevalidates() throws {
        let fixture = try APIFixture()
        let climber = try fixture.member(name: "climber")
        let gym = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(gym["id"]?.intValue)
        var ticks: [String] = []
        for (index, (level, style)) in [("Red", "send"), ("Red", "flash"), ("Green", "send"), ("Green", "send"), ("Yellow", "flash")].enumerated() {
            ticks.append(#"{"client_tick_id": "c\#(index)", "gym_id": \#(gymID), "level": "\#(level)", "style": "\#(style)"}"#)
        }
        ticks.append(#"{"client_tick_id": "o1", "grade": "V6", "grade_scale": "v", "style": "send", "attempts": 7}"#)
        #expect(fixture.post("/v1/me/ticks:batch", as: climber, json: #"{"ticks": [\#(ticks.joined(separator: ","))]}"#).status == 200)
        let picture = fixture.get("/v1/me/logbook/pyramid.png?period=year", as: climber)
        #expect(picture.status == 200 && picture.contentType == "image/png")
        // The IHDR chunk's width and height.
        let size = picture.bytes.count > 24 ? [16, 20].map { picture.bytes[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } } : []
        #expect(size == [1080, 1350])
        let etag = try #require(picture.headers["ETag"])
        #expect(fixture.get("/v1/me/logbook/pyramid.png?period=year", as: climber, headers: [("If-None-Match", etag)]).status == 304)
        #expect(fixture.get("/v1/me/logbook/pyramid.png?axis=sideways", as: climber).status == 400)
        let recap = fixture.get("/v1/me/logbook/recap.png?period=month", as: climber)
        let recapSize = recap.bytes.count > 24 ? [16, 20].map { recap.bytes[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } } : []
        #expect(recap.status == 200 && recapSize == [1080, 1920])
        let empty = fixture.get("/v1/me/logbook/pyramid.png?axis=route", as: climber)
        #expect(empty.status == 200, "an axis with no climbs is an empty pyramid, not an error")
        if let out = ProcessInfo.processInfo.environment["PYRAMID_PICTURE_OUT"] {
            try Data(picture.bytes).write(to: URL(fileURLWithPath: out))
        }
    }
}
