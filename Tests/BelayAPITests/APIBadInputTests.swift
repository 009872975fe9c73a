import BelayAPI
import BelayCore
import BelayDomain
import BelayHTTP
import Foundation
import Testing

/// Every class of bad input is a 4xx problem that names what was wrong, and changes nothing.
@Suite struct APIBadInputTests {
    /// A member switches only the kinds of notice the API lists: a moderator's notice and a test
    /// notice are always sent, and a name that is no kind is refused by name; nothing changes.
    @Test func onlySwitchableKindsOfNoticeAreSwitched() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let before = fixture.get("/v1/me/notifications", as: member)
        #expect(before.status == 200 && before["moderation"] == nil && before["test"] == nil, "\(String(decoding: before.bytes, as: UTF8.self))")
        for name in ["moderation", "test", "meetup_remindr"] {
            let refused = fixture.send(.put, "/v1/me/notifications", token: member.token, json: #"{"\#(name)": false, "meetup_reminder": false}"#)
            #expect(refused.status == 422, "\(name)")
            #expect(refused.problemCode == "invalid_input" && refused["field"]?.stringValue == name, "\(name): \(String(decoding: refused.bytes, as: UTF8.self))")
            #expect(refused["detail"]?.stringValue?.contains("meetup_reminder") == true, "the detail lists the kinds a member can switch")
        }
        #expect(fixture.get("/v1/me/notifications", as: member)["meetup_reminder"]?.boolValue == true, "nothing was half switched")
    }

    @Test func bodiesAreDecodedStrictly() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let path = "/v1/meetups/\(meetup.id)/check-in"

        let cases: [(body: [UInt8], status: Int, code: String, field: String?)] = [
            (Array(#"{"code": "12"#.utf8), 400, "malformed_json", nil),
            (Array(#"{"code": 123456}"#.utf8), 422, "invalid_field", "code"),
            (Array(#"{"code": "123456", "extra": 1}"#.utf8), 422, "unknown_field", "extra"),
            (Array(#"{"code": "#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), 400, "invalid_utf8", nil),
            (Array(#"{"code": "1", "code": "2"}"#.utf8), 400, "duplicate_field", nil),
            ([], 400, "empty_body", nil),
            (Array(#"{}"#.utf8), 422, "missing_field", "code"),
            (Array(#"{"code": "123456", "user_id": 4}"#.utf8), 422, "invalid_field", "user_id"),
            (Array(#"{"user_id": 4, "at": "yesterday"}"#.utf8), 422, "invalid_field", "at"),
        ]
        for (body, status, code, field) in cases {
            let response = fixture.send(.post, path, token: member.token, body: body, headers: [("Content-Type", "application/json")])
            let text = String(decoding: body, as: UTF8.self)
            #expect(response.status == status, "\(text)")
            #expect(response.problemCode == code, "\(text)")
            if let field { #expect(response["field"]?.stringValue == field, "\(text)") }
            #expect(response["detail"]?.stringValue?.isEmpty == false)
            schemas.check(response, .post, "/v1/meetups/{id}/check-in")
        }
        let wrongType = fixture.send(.post, path, token: member.token, body: Array(#"{"code": "1"}"#.utf8),
                                     headers: [("Content-Type", "text/plain")])
        #expect(wrongType.status == 415)
        #expect(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id)?.status == .going)

        let meetupBody = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "T", "place_name": "P", "starts_at": "2026-12-01 19:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
            """)
        #expect(meetupBody.status == 422)
        #expect(meetupBody["field"]?.stringValue == "starts_at")
        let noOffset = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "T", "place_name": "P", "starts_at": "2026-12-01T19:00:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
            """)
        #expect(noOffset["field"]?.stringValue == "starts_at")
        let domainRule = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "T", "place_name": "P", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T18:00:00+09:00", "capacity": 5}
            """)
        #expect(domainRule.status == 422)
        #expect(domainRule.problemCode == "invalid_input")
        #expect(domainRule["field"]?.stringValue == "ends_at")
        schemas.check(domainRule, .post, "/v1/meetups")
        let zone = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "T", "place_name": "P", "starts_at": "2026-12-01T19:00:00+09:00", "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5, "time_zone": "Mars/Olympus"}
            """)
        #expect(zone["field"]?.stringValue == "time_zone")
        #expect(try fixture.domain.meetups.list(MeetupQuery(scope: .all)).items.count == 1)
    }

    @Test func pathsAndMethodsThatDoNotExist() throws {
        let fixture = try APIFixture()
        let member = try fixture.member()
        let badID = fixture.get("/v1/meetups/abc", as: member)
        #expect(badID.status == 400)
        #expect(badID.problemCode == "invalid_path_parameter")
        #expect(badID["parameter"]?.stringValue == "id")
        #expect(fixture.get("/v1/meetups/99999999999999999999", as: member).problemCode == "invalid_path_parameter")
        let missing = fixture.get("/v1/meetups/424242", as: member)
        #expect(missing.status == 404)
        #expect(missing.problemCode == "meetup_not_found")
        let unknown = fixture.get("/v1/nothing/here", as: member)
        #expect(unknown.status == 404)
        #expect(unknown.problemCode == "route_not_found")
        let method = fixture.send(.delete, "/v1/meetups", token: member.token)
        #expect(method.status == 405)
        #expect(method.problemCode == "method_not_allowed")
        #expect(method.headers["Allow"]?.contains("POST") == true)
    }

    @Test func imagePathsNeverReachOutsideTheStore() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(startsIn: 0)
        let member = try fixture.member()
        #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
        let checkIn = fixture.post("/v1/meetups/\(meetup.id)/check-in", as: member, json: #"{"code": "\#(try fixture.currentCode(meetup))"}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        try fixture.renderJobs(count: 1)

        for hash in ["..", "..%2F..%2Fetc%2Fpasswd", "../../etc/passwd", String(repeating: "G", count: 64), "abc",
                     String(repeating: "A", count: 64), String(repeating: "0", count: 63) + "/"] {
            let response = fixture.get("/v1/rewards/\(rewardID)/sticker/\(hash).png", as: member)
            #expect([400, 404].contains(response.status), "hash \(hash)")
            #expect(response.contentType == "application/problem+json", "hash \(hash)")
        }
        let notHex = fixture.get("/v1/rewards/\(rewardID)/sticker/\(String(repeating: "z", count: 64)).png", as: member)
        #expect(notHex.status == 400)
        #expect(notHex["parameter"]?.stringValue == "hash")
        // A well-formed hash that is not this reward's current one: 404 saying where the image is.
        let stale = fixture.get("/v1/rewards/\(rewardID)/sticker/\(String(repeating: "0", count: 64)).png", as: member)
        #expect(stale.status == 404)
        #expect(stale.problemCode == "image_not_found")
        let current = try #require(stale["current_url"]?.stringValue)
        #expect(fixture.get(String(current.dropFirst("https://api.belay.example".count)), as: member).status == 200)
        // The sticker's hash under the story route is not the story.
        let stickerHash = try #require(fixture.get("/v1/rewards/\(rewardID)", as: member)["images"]?["sticker"]?["hash"]?.stringValue)
        #expect(fixture.get("/v1/rewards/\(rewardID)/story/\(stickerHash).png", as: member).status == 404)
        #expect(fixture.get("/v1/rewards/\(rewardID)/sticker/\(stickerHash).jpg", as: member).status == 404)
        // Conditional requests: weak tags and lists match; another tag does not.
        let path = "/v1/rewards/\(rewardID)/sticker/\(stickerHash).png"
        #expect(fixture.get(path, as: member, headers: [("If-None-Match", "\"x\", W/\"\(stickerHash)\"")]).status == 304)
        #expect(fixture.get(path, as: member, headers: [("If-None-Match", "*")]).status == 304)
        #expect(fixture.get(path, as: member, headers: [("If-None-Match", "\"other\"")]).status == 200)
    }

    @Test func queryParametersAreChecked() throws {
        let fixture = try APIFixture()
        #expect(fixture.get("/v1/meetups?host_id=x", as: fixture.host)["parameter"]?.stringValue == "host_id")
        #expect(fixture.get("/v1/meetups?include_cancelled=maybe", as: fixture.host)["parameter"]?.stringValue == "include_cancelled")
        #expect(fixture.get("/v1/stats/shares?from=yesterday", as: fixture.admin)["parameter"]?.stringValue == "from")
        #expect(fixture.get("/v1/stats/shares?from=2026-11-01T00:00:00%2B09:00", as: fixture.admin).status == 200)
        #expect(fixture.get("/v1/me/collection.png?scale=4", as: fixture.host)["parameter"]?.stringValue == "scale")
        let member = try fixture.member()
        let meetup = try fixture.meetup()
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendees?status=maybe", as: fixture.host)["parameter"]?.stringValue == "status")
        #expect(fixture.get("/v1/meetups/\(meetup.id)/attendance", as: member).problemCode == "not_attending")
    }

    @Test func controlCharactersInTextAreRefusedNamingTheFieldAndNothingIsStored() throws {
        let fixture = try APIFixture()
        for (title, place, field) in [(#"\u0000abc"#, "Gym", "title"), (#"T\u0000X"#, "Gym", "title"), ("T", #"Gym\u001b[31m"#, "place_name")] {
            let response = fixture.post("/v1/meetups", as: fixture.host, json: """
                {"title": "\(title)", "place_name": "\(place)", "starts_at": "2026-12-01T19:00:00+09:00",
                 "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
                """)
            #expect(response.status == 422, "\(title)")
            #expect(response.problemCode == "invalid_input")
            #expect(response["field"]?.stringValue == field)
        }
        let accents = "e" + String(repeating: "\u{301}", count: 200)
        let long = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "\(accents)", "place_name": "Gym", "starts_at": "2026-12-01T19:00:00+09:00",
             "ends_at": "2026-12-01T21:00:00+09:00", "capacity": 5}
            """)
        #expect(long.status == 422)
        #expect(long["field"]?.stringValue == "title")
        #expect(try fixture.domain.meetups.list(MeetupQuery(scope: .all, limit: 50)).items.isEmpty)
    }

    @Test func nullForAMemberThatCannotBeRemovedIsRefused() throws {
        let fixture = try APIFixture()
        let meetup = try fixture.meetup(capacity: 7)
        for member in ["capacity", "title", "place_name", "starts_at", "ends_at", "time_zone", "host_id", "description"] {
            let response = fixture.send(.patch, "/v1/meetups/\(meetup.id)", token: fixture.host.token, json: #"{"\#(member)": null}"#)
            #expect(response.status == 422, "\(member)")
            #expect(response["field"]?.stringValue == member, "\(member)")
        }
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).capacity == 7)
        // null still removes the one member that may be absent.
        #expect(fixture.send(.patch, "/v1/meetups/\(meetup.id)", token: fixture.host.token, json: #"{"address": null}"#).status == 200)
    }

    @Test func nullIsRefusedWhereTheDocumentSaysTheMemberIsNotNullable() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let member = try fixture.member()
        let device = #""platform": "ios", "token": "abc123", "app_id": "club.belay.app""#
        let cases: [(HTTPMethod, String, String, String, String)] = [
            (.patch, "/v1/me", member.token, #"{"show_name_on_share_pages": null}"#, "show_name_on_share_pages"),
            (.patch, "/v1/me", member.token, #"{"display_name": null}"#, "display_name"),
            (.patch, "/v1/me", member.token, #"{"locale": null}"#, "locale"),
            (.post, "/v1/me/devices", member.token, "{\(device), \"locale\": null}", "locale"),
            (.post, "/v1/me/devices", member.token, "{\(device), \"environment\": null}", "environment"),
            (.post, "/v1/webhooks", fixture.admin.token, #"{"url": "https://hooks.example.com/belay", "events": null}"#, "events"),
            (.post, "/v1/webhooks", fixture.admin.token, #"{"url": "https://hooks.example.com/belay", "description": null}"#, "description"),
            (.post, "/v1/invites", fixture.host.token, #"{"uses": null}"#, "uses"),
        ]
        for (method, path, token, body, field) in cases {
            let response = fixture.send(method, path, token: token, json: body)
            #expect(response.status == 422, "\(path) \(body): \(response.status)")
            #expect(response["field"]?.stringValue == field, "\(path) \(body)")
            #expect(response["detail"]?.stringValue?.contains(field) == true, "\(path) \(body)")
            schemas.check(response, method, path)
        }
        #expect(try fixture.domain.push.devices(userID: member.id).isEmpty)
        #expect(try fixture.domain.webhooks.endpoints(by: .commandLine).isEmpty)
        // Left out, each takes its default.
        #expect(fixture.send(.patch, "/v1/me", token: member.token, json: "{}").status == 200)
        #expect(fixture.send(.post, "/v1/me/devices", token: member.token, json: "{\(device)}").status == 201)
        #expect(fixture.send(.post, "/v1/webhooks", token: fixture.admin.token, json: #"{"url": "https://hooks.example.com/belay"}"#).status == 201)
    }

    @Test func anInviteNeedsNoBodyAsTheDocumentSays() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let operation = schemas.document["paths"]?["/v1/invites"]?["post"]
        #expect(operation?["requestBody"]?["required"] == .bool(false), "the document says the body is optional")
        let made = fixture.send(.post, "/v1/invites", token: fixture.host.token)
        #expect(made.status == 201, "\(made.status)")
        schemas.check(made, .post, "/v1/invites")
    }

    @Test func anEmptyCursorIsRefusedNamingIt() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let meetup = try fixture.meetup()
        for path in ["/v1/meetups?cursor=", "/v1/meetups?limit=2&cursor=", "/v1/meetups/\(meetup.id)/attendees?cursor="] {
            let response = fixture.get(path, as: fixture.host)
            #expect(response.status == 400, "\(path)")
            #expect(response.problemCode == "invalid_query_parameter", "\(path)")
            #expect(response["parameter"]?.stringValue == "cursor", "\(path)")
            #expect(response["detail"]?.stringValue?.contains("leave `cursor` out") == true, "\(path)")
            schemas.check(response, .get, path.hasPrefix("/v1/meetups/") ? "/v1/meetups/{id}/attendees" : "/v1/meetups")
        }
        #expect(fixture.get("/v1/meetups?limit=2", as: fixture.host).status == 200)
    }

    @Test func aCheckInCodesTimesTakeItsMeetupsOffsetNotTheClubs() throws {
        let fixture = try APIFixture()
        let schemas = try SchemaConformance(fixture)
        let start = fixture.clock.now().addingTimeInterval(600)
        let created = fixture.post("/v1/meetups", as: fixture.host, json: """
            {"title": "Sessão", "place_name": "Casa de Pedra", "capacity": 8, "time_zone": "America/Sao_Paulo",
             "starts_at": "\(RFC3339.string(from: start, utcOffsetSeconds: 0))", "ends_at": "\(RFC3339.string(from: start.addingTimeInterval(7_200), utcOffsetSeconds: 0))"}
            """)
        #expect(created.status == 201)
        let id = try #require(created["id"]?.intValue)
        #expect(created["starts_at"]?.stringValue?.hasSuffix("-03:00") == true, "\(created.status)")
        let code = fixture.get("/v1/meetups/\(id)/check-in-code", as: fixture.host)
        #expect(code.status == 200)
        schemas.check(code, .get, "/v1/meetups/{id}/check-in-code")
        #expect(code["valid_from"]?.stringValue?.hasSuffix("-03:00") == true, "\(code["valid_from"]?.stringValue ?? "")")
        #expect(code["expires_at"]?.stringValue?.hasSuffix("-03:00") == true, "the meetup's offset, not the club's +09:00: \(code["expires_at"]?.stringValue ?? "")")
        let document = try #require(fixture.get("/openapi.json").json)
        let described = document["components"]?["schemas"]?["CheckInCode"]?["properties"]?["expires_at"]?["description"]?.stringValue
        #expect(described?.contains("meetup's offset") == true)
    }

    @Test func timeZonesHaveAFormatAndADescriptionInTheDocument() throws {
        let fixture = try APIFixture()
        let schemas = try #require(fixture.get("/openapi.json").json?["components"]?["schemas"])
        for name in ["Meetup", "CreateMeetup", "UpdateMeetup"] {
            let zone = schemas[name]?["properties"]?["time_zone"]
            #expect(zone?["format"]?.stringValue == "iana-time-zone", "\(name)")
            #expect(zone?["description"]?.stringValue?.contains("Asia/Seoul") == true, "\(name)")
            #expect(zone?["pattern"] != nil, "\(name)")
        }
    }

    @Test func everyInt64IdIsWellFormed() throws {
        let fixture = try APIFixture()
        for id in ["1000000000000000000", "9223372036854775807", "0999"] {
            let response = fixture.get("/v1/meetups/\(id)", as: fixture.host)
            #expect(response.status == 404, "\(id)")
            #expect(response.problemCode == "meetup_not_found", "\(id)")
        }
        for id in ["9223372036854775808", "99999999999999999999", "0", "-1", "1e3"] {
            let response = fixture.get("/v1/meetups/\(id)", as: fixture.host)
            #expect(response.status == 400, "\(id)")
            #expect(response.problemCode == "invalid_path_parameter", "\(id)")
        }
    }
}
