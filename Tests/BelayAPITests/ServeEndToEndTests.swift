import BelayCore
import BelayAPI
import BelayHTTP
import BelayRender
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

extension ClubWorkspace {
    /// A member `ana` checked in (with an admin's code) at a meetup at `place` happening now,
    /// and her reward once the render workers have made its images.
    func renderedReward(on server: BelayServerProcess, place: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> (member: (id: Int64, token: String),
                                                                                      admin: (id: Int64, token: String), reward: JSONValue) {
        let admin = try user("admin", role: "admin")
        let ana = try user("ana")
        _ = try user("host1", role: "host")
        let now = Date()
        let meetup = try cli(["meetups", "create", "--title", "T", "--place", place,
                              "--starts", RFC3339.string(from: now.addingTimeInterval(-60), utcOffsetSeconds: 0),
                              "--ends", RFC3339.string(from: now.addingTimeInterval(3_600), utcOffsetSeconds: 0),
                              "--capacity", "5", "--host", "host1"])
        let id = try #require(meetup["id"]?.intValue, sourceLocation: sourceLocation)
        #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: ana.token).status == 201, sourceLocation: sourceLocation)
        let code = try #require(try server.call("GET", "/v1/meetups/\(id)/check-in-code", token: admin.token)["code"]?.stringValue,
                                sourceLocation: sourceLocation)
        let checkIn = try server.call("POST", "/v1/meetups/\(id)/check-in", token: ana.token, json: #"{"code": "\#(code)"}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue, "\(checkIn.response.text)", sourceLocation: sourceLocation)
        let ready = try #require(try server.poll(timeout: 120) { () -> JSONValue? in
            let reward = try server.call("GET", "/v1/rewards/\(rewardID)", token: ana.token)
            return reward["render_status"]?.stringValue == "ready" ? reward.json : nil
        }, "the reward's images were not rendered in time", sourceLocation: sourceLocation)
        return (ana, admin, ready)
    }
}

/// One HTTP exchange with the server, parsed.
struct WireResponse {
    /// Records an issue for every way this answer differs from the OpenAPI document.
    func check(against schemas: SchemaConformance, _ method: HTTPMethod, _ pattern: String,
               sourceLocation: SourceLocation = #_sourceLocation) {
        let found = schemas.problems(status: status, contentType: header("Content-Type"), bytes: response.body, method, pattern)
        #expect(found == [], "\(method) \(pattern) → \(status)", sourceLocation: sourceLocation)
    }

    let response: HTTPTestResponse
    var status: Int { response.status }
    var json: JSONValue? { try? JSONValue.parse(response.body) }
    subscript(key: String) -> JSONValue? { json?[key] }
    func header(_ name: String) -> String? { response.header(name) }
    var isProblem: Bool { response.header("Content-Type") == "application/problem+json" }
}

extension BelayServerProcess {
    /// Sends one request on a fresh connection.
    func call(_ method: String, _ path: String, token: String? = nil, json: String? = nil, body: [UInt8]? = nil,
              headers: [(String, String)] = []) throws -> WireResponse {
        var fields = headers
        if let token { fields.append(("Authorization", "Bearer \(token)")) }
        if json != nil { fields.append(("Content-Type", "application/json")) }
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        let answer = WireResponse(response: try client.request(method, path, headers: fields, body: body ?? json.map { Array($0.utf8) }))
        ResponseContract.current.record(method: method, target: path, status: answer.status,
                                        contentType: answer.header("Content-Type"), bytes: answer.response.body)
        return answer
    }

    /// Polls `body` until it returns a value or `timeout` passes.
    func poll<T>(timeout: TimeInterval = 60, _ body: () throws -> T?) rethrows -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let value = try body() { return value }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }
}

/// The real binary on a free loopback port, talked to over HTTP as the app would.
@Suite(.serialized) struct ServeEndToEndTests {
    @Test func firstStartSetsUpTheDataDirectoryAndSigtermExitsZero() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let advice = server.waitForOutputLine { $0.contains("belay users create admin") }
        #expect(advice?.contains("--role admin --token") == true)
        let curl = try #require(server.waitForOutputLine { $0.contains("curl -H \"Authorization: Bearer <token>\"") })
        #expect(curl.contains("http://127.0.0.1:\(server.port)/v1/me"))
        #expect(server.standardOutput.contains { $0.hasPrefix("First start: created") && $0.contains("holds") })
        #expect(server.standardOutput.contains("console on http://127.0.0.1:\(server.port)/console"))
        #expect(server.standardOutput.contains { $0.contains("work in the console at") && $0.hasSuffix("/console: they sign in with a code") })
        #expect(try server.call("GET", "/healthz").status == 200)
        let ready = try server.call("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready["status"]?.stringValue == "ready")
        let stopped = server.terminate()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.standardError.contains("received SIGTERM; stopping"))
        #expect(stopped.standardError.contains("info belay: stopped"))

        // The second start finds everything in place and says nothing about a first start.
        let again = try workspace.serve()
        #expect(try again.call("GET", "/readyz").status == 200)
        again.send(SIGINT)
        let result = again.wait()
        #expect(result.status == 0, "\(result)")
        #expect(!result.standardOutput.contains("First start"))
    }

    @Test func theAppsWholeStoryOverHTTP() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let admin = try workspace.user("admin", role: "admin")
        let host = try workspace.user("host1", role: "host")
        let (ana, bo, chan) = (try workspace.user("ana"), try workspace.user("bo"), try workspace.user("chan"))
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Friday bouldering", "--place", "더클라임 강남",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-300), utcOffsetSeconds: 9 * 3600),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 9 * 3600),
                                        "--capacity", "2", "--host", "host1"])
        let id = try #require(meetup["id"]?.intValue)
        let schemas = try SchemaConformance(document: try #require(try server.call("GET", "/openapi.json").json))

        // Join, waitlist, leave and promotion.
        let joined = try server.call("POST", "/v1/meetups/\(id)/join", token: ana.token)
        joined.check(against: schemas, .post, "/v1/meetups/{id}/join")
        #expect(joined["status"]?.stringValue == "going")
        #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: bo.token)["status"]?.stringValue == "going")
        let waitlisted = try server.call("POST", "/v1/meetups/\(id)/join", token: chan.token)
        #expect(waitlisted.status == 201)
        #expect(waitlisted["status"]?.stringValue == "waitlisted")
        let left = try server.call("POST", "/v1/meetups/\(id)/leave", token: bo.token)
        left.check(against: schemas, .post, "/v1/meetups/{id}/leave")
        #expect(left["promoted_count"]?.intValue == 1)
        #expect(try server.call("GET", "/v1/meetups/\(id)/attendance", token: chan.token)["status"]?.stringValue == "going")
        let shown = try server.call("GET", "/v1/meetups/\(id)", token: ana.token)
        shown.check(against: schemas, .get, "/v1/meetups/{id}")
        #expect(shown["going_count"]?.intValue == 2)
        #expect(shown["waitlist_count"]?.intValue == 0)
        #expect(shown["place_name"]?.stringValue == "더클라임 강남")

        // Check-in with the code the host's screen shows; a retry is the same answer.
        let code = try #require(try server.call("GET", "/v1/meetups/\(id)/check-in-code", token: host.token)["code"]?.stringValue)
        let checkIn = try server.call("POST", "/v1/meetups/\(id)/check-in", token: ana.token, json: #"{"code": "\#(code)"}"#,
                                      headers: [("Idempotency-Key", "ana-1")])
        #expect(checkIn.status == 201, "\(checkIn.response.text)")
        checkIn.check(against: schemas, .post, "/v1/meetups/{id}/check-in")
        let retry = try server.call("POST", "/v1/meetups/\(id)/check-in", token: ana.token, json: #"{"code": "\#(code)"}"#,
                                    headers: [("Idempotency-Key", "ana-1")])
        #expect(retry.status == 200)
        #expect(retry.response.body == checkIn.response.body)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)

        // The reward appears in the member's list, and its sticker once the render workers made it.
        let rewards = try server.call("GET", "/v1/me/rewards", token: ana.token)
        rewards.check(against: schemas, .get, "/v1/me/rewards")
        #expect(rewards["items"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [rewardID])
        let ready = try #require(try server.poll(timeout: 120) { () -> JSONValue? in
            let reward = try server.call("GET", "/v1/rewards/\(rewardID)", token: ana.token)
            return reward["render_status"]?.stringValue == "ready" ? reward.json : nil
        }, "the reward's images were not rendered in time")
        let base = "http://127.0.0.1:\(server.port)"
        let stickerURL = try #require(ready["images"]?["sticker"]?["url"]?.stringValue)
        let stickerHash = try #require(ready["images"]?["sticker"]?["hash"]?.stringValue)
        #expect(stickerURL == "\(base)/v1/rewards/\(rewardID)/sticker/\(stickerHash).png")
        let sticker = try server.call("GET", String(stickerURL.dropFirst(base.count)), token: ana.token)
        #expect(sticker.status == 200)
        sticker.check(against: schemas, .get, "/v1/rewards/{id}/sticker/{hash}.png")
        #expect(sticker.header("Content-Type") == "image/png")
        #expect(sticker.header("ETag") == "\"\(stickerHash)\"")
        #expect(sticker.header("Cache-Control") == "private, max-age=31536000, immutable")
        let stickerFile = workspace.directory.file("sticker.png")
        try Data(sticker.response.body).write(to: URL(fileURLWithPath: stickerFile))
        let stickerSize = try #require(PNGFile.dimensions(atPath: stickerFile), "the sticker is not a complete PNG")
        #expect(stickerSize.width == 720)
        #expect(stickerSize.height == 960)
        let unchanged = try server.call("GET", String(stickerURL.dropFirst(base.count)), token: ana.token,
                                        headers: [("If-None-Match", "\"\(stickerHash)\"")])
        #expect(unchanged.status == 304)
        #expect(unchanged.response.body.isEmpty)
        // The story follows the sticker; until it is stored the reward says when to ask again.
        if ready["images"]?["story"] == .null { #expect(ready["retry_after_seconds"]?.intValue == 2) }
        let withStory = try #require(try server.poll(timeout: 120) { () -> JSONValue? in
            let reward = try server.call("GET", "/v1/rewards/\(rewardID)", token: ana.token)
            reward.check(against: schemas, .get, "/v1/rewards/{id}")
            return reward["images"]?["story"]?["url"] != nil ? reward.json : nil
        }, "the reward's story did not follow its sticker")
        #expect(withStory["retry_after_seconds"] == .null)
        let storyURL = try #require(withStory["images"]?["story"]?["url"]?.stringValue)
        let story = try server.call("GET", String(storyURL.dropFirst(base.count)), token: ana.token)
        try Data(story.response.body).write(to: URL(fileURLWithPath: workspace.directory.file("story.png")))
        let storySize = try #require(PNGFile.dimensions(atPath: workspace.directory.file("story.png")), "the story is not a complete PNG")
        #expect(storySize.width == 1080)
        #expect(storySize.height == 1920)

        // The share payload: Instagram Stories ready to open, Facebook Stories saying its App ID is missing.
        let share = try server.call("GET", "/v1/rewards/\(rewardID)/share", token: ana.token)
        #expect(share.status == 200)
        share.check(against: schemas, .get, "/v1/rewards/{id}/share")
        #expect(share["instagram_stories"]?["available"]?.boolValue == true)
        #expect(share["instagram_stories"]?["url"]?.stringValue == "instagram-stories://share?source_application=1234567890")
        #expect(share["instagram_stories"]?["pasteboard"]?["com.instagram.sharedSticker.stickerImage"]?.stringValue == stickerURL)
        // Stories get the sticker once: the background layer is the gradient without it.
        let backgroundURL = try #require(share["images"]?["stories_background"]?["url"]?.stringValue)
        #expect(share["instagram_stories"]?["pasteboard"]?["com.instagram.sharedSticker.backgroundImage"]?.stringValue == backgroundURL)
        let backgroundFile = try server.call("GET", String(backgroundURL.dropFirst(base.count)), token: ana.token)
        #expect(backgroundFile.status == 200)
        let background = try ImageDecoder.decode(backgroundFile.response.body, name: "stories background", limits: BuiltInSettings.render().limits)
        #expect(background.width == 720 && background.height == 1280 && background.isOpaque)
        // No sticker pixels: every row is one colour (a sticker would put its artwork, card
        // and text across the middle rows).
        let uniformRows = (0..<background.height).filter { y in
            let first = background.color(x: 0, y: y)
            return (0..<background.width).allSatisfy { background.color(x: $0, y: y) == first }
        }
        #expect(uniformRows.count == background.height)
        #expect(background.color(x: 360, y: 0).hex == ready["background"]?["top_color"]?.stringValue?.uppercased())
        #expect(share["instagram_stories"]?["pasteboard"]?["com.instagram.sharedSticker.backgroundTopColor"]?.stringValue
                == ready["background"]?["top_color"]?.stringValue)
        #expect(share["instagram_stories"]?["pasteboard_expiration_seconds"]?.intValue == 300)
        #expect(share["facebook_stories"]?["available"]?.boolValue == false)
        #expect(share["facebook_stories"]?["reason"]?.stringValue == "facebook_app_id_missing")
        #expect(share["share_sheet"]?["image_url"]?.stringValue == storyURL)

        // A share event, deduplicated, and the statistics the host reads.
        let event = #"{"target": "share_sheet", "activity_type": "com.apple.UIKit.activity.SaveToCameraRoll", "completed": true, "client_event_id": "e-1"}"#
        #expect(try server.call("POST", "/v1/rewards/\(rewardID)/share-events", token: ana.token, json: event).status == 201)
        #expect(try server.call("POST", "/v1/rewards/\(rewardID)/share-events", token: ana.token, json: event).status == 200)
        let statistics = try server.call("GET", "/v1/stats/shares?meetup_id=\(id)", token: host.token)
        #expect(statistics.status == 200)
        statistics.check(against: schemas, .get, "/v1/stats/shares")

        // The member's whole collection, rendered on demand and revalidated by its ETag.
        let collection = try server.call("GET", "/v1/me/collection.png?scale=1", token: ana.token)
        #expect(collection.status == 200)
        collection.check(against: schemas, .get, "/v1/me/collection.png")
        try Data(collection.response.body).write(to: URL(fileURLWithPath: workspace.directory.file("collection.png")))
        #expect(PNGFile.dimensions(atPath: workspace.directory.file("collection.png")) != nil, "the collection is not a complete PNG")
        let etag = try #require(collection.header("ETag"))
        #expect(try server.call("GET", "/v1/me/collection.png?scale=1", token: ana.token, headers: [("If-None-Match", etag)]).status == 304)
        #expect(statistics["items"]?.arrayValue?.first?["events"]?.intValue == 1)
        #expect(statistics["items"]?.arrayValue?.first?["completed"]?.intValue == 1)
        #expect(try server.call("GET", "/v1/stats/shares", token: ana.token).status == 403)

        let metrics = String(decoding: try server.call("GET", "/metrics", token: admin.token).response.body, as: UTF8.self)
        #expect(metrics.contains(#"belay_render_jobs_total{outcome="completed"} 1"#))
        #expect(metrics.contains(#"http_requests_total{method="POST",route="/v1/meetups/{id}/check-in",status="201"} 1"#))

        let stopped = server.terminate()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(stopped.standardError.contains("POST /v1/meetups/{id}/check-in 201"))
    }

    @Test func anImageFileGoneFromTheStoreIsRenderedAgainInsteadOfAnError() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let (ana, _, ready) = try workspace.renderedReward(on: server, place: "서울숲 클라이밍")
        let rewardID = try #require(ready["id"]?.intValue)
        let base = "http://127.0.0.1:\(server.port)"
        let path = String(try #require(ready["images"]?["sticker"]?["url"]?.stringValue).dropFirst(base.count))
        let first = try server.call("GET", path, token: ana.token)
        #expect(first.status == 200)

        // The file goes from the store (a disk cleaned by hand, a node whose mount lags behind).
        let hash = try #require(ready["images"]?["sticker"]?["hash"]?.stringValue)
        let images = workspace.directory.file("data/images")
        let stored = try #require(FileManager.default.subpaths(atPath: images)?.first { $0.hasSuffix(hash + ".png") })
        try FileManager.default.removeItem(atPath: images + "/" + stored)
        let gone = try server.call("GET", path, token: ana.token)
        #expect(gone.status == 202, "\(gone.response.text)")
        #expect(gone.header("Retry-After") == "2")
        #expect(gone["reward_id"]?.intValue == rewardID)
        // The render workers make the same file again, at the same URL.
        let again = try #require(try server.poll(timeout: 120) { () -> WireResponse? in
            let response = try server.call("GET", path, token: ana.token)
            return response.status == 200 ? response : nil
        }, "the image was not rendered again")
        #expect(again.response.body == first.response.body, "renders are deterministic: the same bytes under the same hash")
        #expect(FileManager.default.fileExists(atPath: images + "/" + stored))
        #expect(server.terminate().status == 0)
    }

    @Test func aPlaceNameNoFontCoversIsListedOnTheRewardLoggedAndCounted() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let (_, admin, ready) = try workspace.renderedReward(on: server, place: "강남 \u{13000} Gym")
        let rewardID = try #require(ready["id"]?.intValue)
        let missing = ready["missing_characters"]?.arrayValue ?? []
        #expect(missing.count == 1)
        #expect(missing.first?["character"]?.stringValue == "\u{13000}")
        #expect(missing.first?["code_points"]?.arrayValue?.compactMap(\.stringValue) == ["U+13000"])

        // The worker counts the job just after it commits the reward's row, so wait for the count.
        let metrics = try server.poll(timeout: 30) { () -> String? in
            let text = String(decoding: try server.call("GET", "/metrics", token: admin.token).response.body, as: UTF8.self)
            return text.contains("belay_render_jobs_missing_characters_total 1\n") ? text : nil
        } ?? ""
        #expect(metrics.contains("belay_render_missing_characters_total 1\n"))
        #expect(metrics.contains("belay_render_jobs_missing_characters_total 1\n"))
        let stopped = server.terminate()
        let logged = stopped.standardError.split(separator: "\n").filter { $0.contains("no font has") }
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.contains("(reward \(rewardID))") == true && logged.first?.contains("U+13000") == true)
    }

    @Test func everyClassOfBadInputIsAProblemAndTheServerKeepsServing() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let member = try workspace.user("ana")
        _ = try workspace.user("host1", role: "host")
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "T", "--place", "P",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-60), utcOffsetSeconds: 0),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(3_600), utcOffsetSeconds: 0),
                                        "--capacity", "5", "--host", "host1"])
        let id = try #require(meetup["id"]?.intValue)
        #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201)
        let checkIn = "/v1/meetups/\(id)/check-in"

        func expectProblem(_ response: WireResponse, _ status: Int, _ code: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(response.status == status, "\(what): \(response.response.text)", sourceLocation: sourceLocation)
            #expect(response.isProblem, "\(what)", sourceLocation: sourceLocation)
            #expect(response["code"]?.stringValue == code, "\(what)", sourceLocation: sourceLocation)
            #expect(response["request_id"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
            #expect(try server.call("GET", "/healthz").status == 200, "still serving after \(what)", sourceLocation: sourceLocation)
        }
        try expectProblem(try server.call("POST", checkIn, token: member.token, json: #"{"code": "#), 400, "malformed_json", "malformed JSON")
        try expectProblem(try server.call("POST", checkIn, token: member.token, json: #"{"code": 42}"#), 422, "invalid_field", "a wrong type")
        try expectProblem(try server.call("POST", checkIn, token: member.token, json: #"{"code": "1", "admin": true}"#), 422, "unknown_field", "an unknown field")
        try expectProblem(try server.call("POST", checkIn, token: member.token, body: Array(#"{"code": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8),
                                          headers: [("Content-Type", "application/json")]), 400, "invalid_utf8", "invalid UTF-8")
        try expectProblem(try server.call("GET", "/v1/meetups/12abc", token: member.token), 400, "invalid_path_parameter", "a bad id")
        try expectProblem(try server.call("GET", "/v1/no/such/route", token: member.token), 404, "route_not_found", "an unknown route")
        try expectProblem(try server.call("PUT", "/v1/meetups/\(id)", token: member.token, json: "{}"), 405, "method_not_allowed", "a wrong method")
        try expectProblem(try server.call("GET", "/v1/me"), 401, "missing_token", "no token")
        // A real token followed by a NUL and more: not the token before the NUL.
        try expectProblem(try server.call("GET", "/v1/me", headers: [("Authorization", "Bearer \(member.token)\u{0}.png")]), 401,
                          "invalid_authorization", "a NUL in the Authorization value")

        // Path traversal in an image path: raw, percent-encoded, and as a hash.
        for path in ["/v1/rewards/1/sticker/../../../../etc/passwd", "/v1/rewards/1/sticker/..%2F..%2F..%2Fetc%2Fpasswd.png",
                     "/v1/rewards/1/sticker/%2e%2e%2f%2e%2e%2fconfig.json", "/v1/rewards/1/story/....png"] {
            let response = try server.call("GET", path, token: member.token)
            #expect([400, 404].contains(response.status), "\(path)")
            #expect(response.isProblem, "\(path)")
            #expect(!response.response.text.contains("root:"), "\(path)")
            #expect(try server.call("GET", "/healthz").status == 200)
        }

        // A body over server.max_body_bytes: 413 before it is read.
        let client = try HTTPTestClient(port: server.port)
        try client.send(HTTPTestClient.requestBytes("POST", checkIn, headers: [
            ("Authorization", "Bearer \(member.token)"), ("Content-Type", "application/json"), ("Content-Length", "10000000"),
        ]))
        let tooLarge = try client.readResponse()
        client.close()
        #expect(tooLarge.status == 413)
        #expect(tooLarge.header("Content-Type") == "application/problem+json")
        #expect(tooLarge.jsonObject?["code"] as? String == "body_too_large")

        // Still serving, and nothing of the bad requests was recorded.
        #expect(try server.call("GET", "/v1/meetups/\(id)/attendance", token: member.token)["status"]?.stringValue == "going")
        let stopped = server.terminate()
        #expect(stopped.status == 0, "\(stopped)")
    }
}
