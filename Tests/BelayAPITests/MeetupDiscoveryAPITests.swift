import BelayAPI
import BelayCore
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Finding meetups over the API, on whichever engine the run uses: each filter, two-syllable
/// Korean and accent-insensitive Latin, the cursor under both orders, private meetups and
/// blocked hosts never leaking, follows and the feed, and a meetup's public page.
@Suite struct MeetupDiscoveryAPITests {
    static let gym = #"""
        {"name": "The Climb Gangnam", "names": {"ko": "더클라임 강남점"}, "country": "KR", "time_zone": "Asia/Seoul",
         "location": {"latitude": 37.4979, "longitude": 127.0276}, "boulder_grading": "v"}
        """#

    /// Creates a meetup over the API as `member` and answers its id.
    static func meetup(_ fixture: APIFixture, as member: APIFixture.Member, _ fields: String) throws -> Int64 {
        let created = fixture.post("/v1/meetups", as: member, json: "{\"capacity\": 6, \(fields)}")
        #expect(created.status == 201, "\(String(decoding: created.bytes, as: UTF8.self))")
        return try #require(created["id"]?.intValue)
    }

    static func ids(_ response: APIResponse) -> [Int64] {
        response["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
    }

    @Test func everyFilterFindsWhatItShouldAndNothingElse() throws {
        let fixture = try APIFixture()
        let host = try fixture.member(name: "hostess")
        let climber = try fixture.member(name: "climber")
        let gymID = try #require(fixture.post("/v1/gyms", as: fixture.admin, json: Self.gym)["id"]?.intValue)

        let gangnam = try Self.meetup(fixture, as: host, """
            "title": "Saturday session", "gym_id": \(gymID), "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T22:00:00+09:00",
            "discipline": "bouldering", "level_min": "V3", "level_max": "V5", "tags": ["beginner_friendly", "social"]
            """)
        let hongdae = try Self.meetup(fixture, as: host, """
            "title": "홍대 볼더링 번개", "place_name": "Hongdae Rock", "latitude": 37.5563, "longitude": 126.9220,
            "starts_at": "2026-12-13T10:00:00+09:00", "ends_at": "2026-12-13T12:00:00+09:00", "discipline": "bouldering",
            "level_min": "V0", "level_max": "V2", "tags": ["women"]
            """)
        let cafe = try Self.meetup(fixture, as: host, """
            "title": "Lead night", "description": "After climbing we go to the Café Crux", "place_name": "Busan Wall",
            "latitude": 35.1796, "longitude": 129.0756, "starts_at": "2026-12-12T23:30:00+09:00", "ends_at": "2026-12-13T01:00:00+09:00",
            "discipline": "lead", "level_min": "5.10a", "level_max": "5.11d"
            """)
        let tokyo = try Self.meetup(fixture, as: host, """
            "title": "Tokyo 강남 fans", "place_name": "B-Pump", "time_zone": "Asia/Tokyo", "latitude": 35.6995, "longitude": 139.7711,
            "starts_at": "2026-12-14T08:00:00+09:00", "ends_at": "2026-12-14T10:00:00+09:00"
            """)
        let secret = try Self.meetup(fixture, as: host, """
            "title": "Private 강남 training", "gym_id": \(gymID), "visibility": "private",
            "starts_at": "2026-12-12T20:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00"
            """)

        let schemas = try SchemaConformance(fixture)
        func search(_ query: String, as member: APIFixture.Member? = nil) -> [Int64] {
            let response = fixture.get("/v1/meetups?\(query)", as: member ?? climber)
            #expect(response.status == 200, "\(query): \(String(decoding: response.bytes, as: UTF8.self))")
            schemas.check(response, .get, "/v1/meetups")
            return Self.ids(response)
        }
        let gangnamEncoded = "%EA%B0%95%EB%82%A8"  // 강남
        // Two syllables inside a gym's Korean name, and inside a title; the title match ranks first.
        #expect(search("q=\(gangnamEncoded)") == [tokyo, gangnam])
        #expect(search("q=%ED%99%8D%EB%8C%80") == [hongdae])  // 홍대
        #expect(search("q=CAFE%20crux") == [cafe])  // case and accents folded
        #expect(search("q=%EB%B3%BC%EB%8D%94%EB%A7%81%20%ED%99%8D%EB%8C%80") == [hongdae])  // 볼더링 홍대: every word
        #expect(search("q=\(gangnamEncoded)", as: host).contains(secret) == false)
        #expect(search("host_id=\(host.id)", as: host).contains(secret))
        #expect(search("host_id=\(host.id)").contains(secret) == false)

        // Near Gangnam: Hongdae is about 10 km away, Busan and Tokyo far.
        #expect(Set(search("near=37.50,127.03&radius_km=5")) == [gangnam])
        #expect(search("near=37.50,127.03&radius_km=20&sort=distance") == [gangnam, hongdae])
        let near = fixture.get("/v1/meetups?near=37.50,127.03&radius_km=20&sort=distance", as: climber)
        guard case let .number(number)? = near["items"]?.arrayValue?.last?["distance_km"] else {
            Issue.record("no distance_km in a search near a point")
            return
        }
        let distance = number.doubleValue
        #expect(distance > 8 && distance < 12)
        #expect(search("gym_id=\(gymID)") == [gangnam])
        #expect(search("level=V4") == [gangnam])
        #expect(search("level=V1&discipline=bouldering") == [hongdae])
        #expect(search("level=5.10c") == [cafe])
        #expect(search("discipline=lead") == [cafe])
        #expect(search("tag=women") == [hongdae])
        // Days in each meetup's own zone: the Busan meetup starts at 23:30 on the 12th in Seoul
        // (14:30 UTC); the Tokyo one on the 14th in Tokyo.
        #expect(search("from=2026-12-12&to=2026-12-12") == [gangnam, cafe])
        #expect(search("from=2026-12-14") == [tokyo])

        // Places left: the Gangnam meetup fills up.
        let patched = fixture.send(.patch, "/v1/meetups/\(gangnam)", token: host.token, json: #"{"capacity": 1}"#)
        #expect(patched.status == 200)
        #expect(fixture.post("/v1/meetups/\(gangnam)/join", as: climber).status < 300)
        #expect(search("has_spots=true&from=2026-12-12&to=2026-12-12") == [cafe])

        // A private meetup is an unknown id to a stranger, and there for its host.
        #expect(fixture.get("/v1/meetups/\(secret)", as: climber).status == 404)
        #expect(fixture.get("/v1/meetups/\(secret)", as: host).status == 200)

        // A blocked host's meetups leave every search of the member who blocked them.
        #expect(fixture.send(.put, "/v1/me/blocks/\(host.id)", token: climber.token).status < 300)
        #expect(search("q=\(gangnamEncoded)").isEmpty)

        // Wrong values: 400 naming the parameter.
        for (query, parameter) in [("near=north", "near"), ("near=95,10", "near"), ("near=37,127&radius_km=500", "radius_km"),
                                   ("radius_km=5", "radius_km"), ("q=a", "q"), ("level=V99x", "level"), ("sort=distance", "sort"),
                                   ("from=12/12/2026", "from"), ("discipline=yoga", "discipline"), ("tag=cats", "tag"),
                                   ("from=2026-12-14&to=2026-12-12", "to"), ("has_spots=maybe", "has_spots")] {
            let refused = fixture.get("/v1/meetups?\(query)", as: host)
            #expect(refused.status == 400, "\(query)")
            #expect(refused["parameter"]?.stringValue == parameter, "\(query): \(String(decoding: refused.bytes, as: UTF8.self))")
        }
    }

    @Test func aGymsNewNameAndPlaceReachItsMeetups() throws {
        let fixture = try APIFixture()
        let gymID = try #require(fixture.post("/v1/gyms", as: fixture.admin, json: Self.gym)["id"]?.intValue)
        let meetup = try Self.meetup(fixture, as: fixture.host, """
            "title": "Saturday session", "gym_id": \(gymID), "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T22:00:00+09:00"
            """)
        let elsewhere = try Self.meetup(fixture, as: fixture.host, """
            "title": "Across the road", "gym_id": \(gymID), "latitude": 37.4990, "longitude": 127.0290,
            "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T22:00:00+09:00"
            """)
        #expect(Self.ids(fixture.get("/v1/meetups?q=%EA%B0%95%EB%82%A8", as: fixture.host)) == [meetup, elsewhere])

        // The gym takes a new Korean name and moves across the river.
        let renamed = fixture.send(.patch, "/v1/gyms/\(gymID)", token: fixture.admin.token, json: """
            {"names": {"ko": "더클라임 성수점"}, "location": {"latitude": 37.5445, "longitude": 127.0557}}
            """)
        #expect(renamed.status == 200, "\(String(decoding: renamed.bytes, as: UTF8.self))")
        #expect(Self.ids(fixture.get("/v1/meetups?q=%EC%84%B1%EC%88%98", as: fixture.host)) == [meetup, elsewhere])
        #expect(Self.ids(fixture.get("/v1/meetups?q=%EA%B0%95%EB%82%A8", as: fixture.host)).isEmpty)
        // The meetup that stood at the gym moves with it; the one given its own place stays.
        #expect(Self.ids(fixture.get("/v1/meetups?near=37.5445,127.0557&radius_km=1", as: fixture.host)) == [meetup])
        #expect(Self.ids(fixture.get("/v1/meetups?near=37.4979,127.0276&radius_km=1", as: fixture.host)) == [elsewhere])
    }

    @Test func theCursorWalksEveryMeetupOnceUnderBothOrders() throws {
        let fixture = try APIFixture()
        let host = try fixture.member(name: "hostess")
        var made: [Int64] = []
        for index in 0..<13 {
            let latitude = 37.40 + Double(index % 5) * 0.01
            // Every third has 강남 in its title, the others only in the description.
            let title = index % 3 == 0 ? "강남 session \(index)\", \"description\": \"" : "Session \(index)\", \"description\": \"after 강남"
            made.append(try Self.meetup(fixture, as: host, """
                "title": "\(title)", "place_name": "Wall", "latitude": \(latitude), "longitude": 127.0,
                "starts_at": "2026-12-\(10 + index % 4)T19:00:00+09:00", "ends_at": "2026-12-\(10 + index % 4)T21:00:00+09:00"
                """))
        }
        for query in ["q=%EA%B0%95%EB%82%A8", "near=37.40,127.0&radius_km=50&sort=distance", "near=37.40,127.0&radius_km=50",
                      "from=2026-12-10&to=2026-12-13&q=session"] {
            var seen: [Int64] = []
            var cursor: String?
            repeat {
                let page = fixture.get("/v1/meetups?\(query)&limit=4" + (cursor.map { "&cursor=\($0)" } ?? ""), as: host)
                #expect(page.status == 200)
                seen += Self.ids(page)
                cursor = page["next_cursor"]?.stringValue
            } while cursor != nil
            #expect(seen.count == made.count, "\(query)")
            #expect(Set(seen) == Set(made), "\(query)")
            if query.hasPrefix("q=") {
                // Title matches (every third) first.
                let firsts = made.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
                #expect(Set(seen.prefix(firsts.count)) == Set(firsts))
            }
        }
    }

    @Test func followsTheFeedAndAPublicPage() throws {
        let fixture = try APIFixture()
        let host = try fixture.member(name: "hostess")
        let climber = try fixture.member(name: "climber")
        let gymID = try #require(fixture.post("/v1/gyms", as: fixture.admin, json: Self.gym)["id"]?.intValue)
        #expect(fixture.send(.put, "/v1/me/follows/gyms/\(gymID)", token: climber.token).status == 200)
        #expect(fixture.send(.put, "/v1/me/follows/hosts/\(host.id)", token: climber.token).status == 200)
        #expect(fixture.send(.put, "/v1/me/follows/gyms/99999", token: climber.token).status == 404)
        let follows = fixture.get("/v1/me/follows", as: climber)
        #expect(follows["items"]?.arrayValue?.map { $0["type"]?.stringValue } == ["gym", "host"])

        let atGym = try Self.meetup(fixture, as: fixture.host, """
            "title": "Gym night", "gym_id": \(gymID), "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00",
            "discipline": "bouldering", "level_min": "V2", "level_max": "V5", "tags": ["beginner_friendly"]
            """)
        let byHost = try Self.meetup(fixture, as: host, """
            "title": "Her night", "place_name": "Elsewhere", "starts_at": "2026-12-11T19:00:00+09:00", "ends_at": "2026-12-11T21:00:00+09:00"
            """)
        let nearby = try Self.meetup(fixture, as: fixture.host, """
            "title": "Near you", "place_name": "Close", "latitude": 37.51, "longitude": 127.03,
            "starts_at": "2026-12-10T19:00:00+09:00", "ends_at": "2026-12-10T21:00:00+09:00"
            """)
        _ = try Self.meetup(fixture, as: fixture.host, """
            "title": "Far away", "place_name": "Jeju", "latitude": 33.5, "longitude": 126.5,
            "starts_at": "2026-12-10T19:00:00+09:00", "ends_at": "2026-12-10T21:00:00+09:00"
            """)
        let feed = fixture.get("/v1/me/feed?near=37.50,127.03", as: climber)
        try SchemaConformance(fixture).check(feed, .get, "/v1/me/feed")
        #expect(feed["items"]?.arrayValue?.map { $0["meetup"]?["id"]?.intValue } == [atGym, byHost, nearby])
        #expect(feed["items"]?.arrayValue?.map { $0["reason"]?.stringValue } == ["followed_gym", "followed_host", "nearby"])
        // The location is remembered for the next feed.
        #expect((fixture.get("/v1/me/feed", as: climber)["items"]?.arrayValue ?? []).count == 3)
        #expect(fixture.send(.delete, "/v1/me/follows/hosts/\(host.id)", token: climber.token).status == 200)
        #expect(fixture.get("/v1/me/feed", as: climber)["items"]?.arrayValue?.count == 2)

        // The public page.
        #expect(fixture.send(.put, "/v1/meetups/\(atGym)/page", token: climber.token).status == 403)
        let published = fixture.send(.put, "/v1/meetups/\(atGym)/page", token: fixture.host.token, json: #"{"show_host": true}"#)
        #expect(published.status == 200)
        let url = try #require(published["public_page"]?["url"]?.stringValue)
        let path = String(url.dropFirst("https://api.belay.example".count))
        let page = fixture.get(path)
        #expect(page.status == 200)
        let html = String(decoding: page.bytes, as: UTF8.self)
        #expect(html.contains(#"<meta property="og:title" content="Gym night">"#))
        #expect(html.contains("\(path)/card.png"))
        #expect(html.contains("Hosted by Host") || html.contains("호스트: Host"))
        let start = try #require(html.range(of: #"<script type="application/ld+json">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let event = try JSONValue.parse(Array(html[start.upperBound..<end.lowerBound].utf8))
        #expect(event["@type"]?.stringValue == "Event")
        #expect(event["startDate"]?.stringValue == "2026-12-12T19:00:00+09:00")
        #expect(event["location"]?["name"]?.stringValue == "The Climb Gangnam")
        let etag = try #require(page.headers["ETag"])
        #expect(fixture.get(path, headers: [("If-None-Match", etag)]).status == 304)
        #expect(fixture.get(path + ".ics").status == 200)
        let card = fixture.get(path + "/card.png")
        #expect(card.status == 200 && card.contentType == "image/png")
        #expect(Array(card.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        if let keep = ProcessInfo.processInfo.environment["BELAY_KEEP_MEETUP_CARD"] {
            try Data(card.bytes).write(to: URL(fileURLWithPath: keep))
        }
        // Private meetups have no page; unpublishing answers 410.
        let privateID = try Self.meetup(fixture, as: fixture.host, """
            "title": "Invite only", "place_name": "Home wall", "visibility": "private",
            "starts_at": "2026-12-12T19:00:00+09:00", "ends_at": "2026-12-12T21:00:00+09:00"
            """)
        let refused = fixture.send(.put, "/v1/meetups/\(privateID)/page", token: fixture.host.token)
        #expect(refused.status == 422 && refused["field"]?.stringValue == "visibility")
        #expect(fixture.send(.delete, "/v1/meetups/\(atGym)/page", token: fixture.host.token).status == 200)
        #expect(fixture.get(path).status == 410)
        #expect(fixture.get("/m/unknown-slug").status == 404)
    }
}
