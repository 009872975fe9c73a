@testable import BelayAPI
import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Calendar feeds: the content-line rules (folding, CRLF, escaping) on their own, and the
/// real server's feeds parsed by an independent parser (the PyPI `icalendar` package) with
/// the times checked in each meetup's zone, across a daylight-saving change.
@Suite(.serialized) struct CalendarFeedTests {
    /// Parses `bytes` with `scripts/testing/parse-ics.py`; its JSON, or an issue with its complaint.
    static func parse(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let root = BelayProcess.packageRoot
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/parse-ics.py").path], input: Data(bytes))
        let text = result.standardOutput
        try #require(result.status == 0, "icalendar: \(text)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func linesAreFoldedAt75OctetsWithoutSplittingACharacterAndTextIsEscaped() throws {
        var lines = ICalendarLines()
        let long = String(repeating: "클라이밍 🧗 ", count: 20)
        lines.text("SUMMARY", long)
        lines.text("DESCRIPTION", "a,b;c\\d\r\ne\nf\u{7}g")
        let text = String(decoding: lines.bytes, as: UTF8.self)
        let physical = text.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 5)
        #expect(physical.allSatisfy { $0.utf8.count <= 75 })
        #expect(physical.dropFirst().prefix(while: { !$0.hasPrefix("DESCRIPTION") }).allSatisfy { $0.hasPrefix(" ") })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        // Unfolding gives the value back.
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.hasPrefix("SUMMARY:" + long + "\r\n"))
        #expect(unfolded.hasSuffix("DESCRIPTION:a\\,b\\;c\\\\d\\ne\\nfg\r\n"))
    }

    @Test func ifNoneMatchIsAListOfTagsComparedWeakly() {
        let etag = "\"abc\""
        #expect(APIRoutes.matches(ifNoneMatch: "\"abc\"", etag: etag))
        #expect(APIRoutes.matches(ifNoneMatch: "W/\"abc\"", etag: etag))
        #expect(APIRoutes.matches(ifNoneMatch: "\"x\", \t W/\"abc\" ", etag: etag))
        #expect(APIRoutes.matches(ifNoneMatch: " * ", etag: etag))
        #expect(!APIRoutes.matches(ifNoneMatch: "\"abcd\"", etag: etag))
        #expect(!APIRoutes.matches(ifNoneMatch: "abc", etag: etag))
        #expect(!APIRoutes.matches(ifNoneMatch: "", etag: etag))
        #expect(!APIRoutes.matches(ifNoneMatch: "w/\"abc\"", etag: etag), "the weak prefix is case-sensitive")
    }

    @Test func theOffsetFormat() {
        #expect(ICalendarTime.offset(9 * 3600) == "+0900")
        #expect(ICalendarTime.offset(-(3 * 3600 + 30 * 60)) == "-0330")
        #expect(ICalendarTime.offset(0) == "+0000")
        #expect(ICalendarTime.utc(Date(timeIntervalSince1970: 1_800_000_000)) == "20270115T080000Z")
    }

    @Test func feedsParseWithTheirTimesInTheMeetupsZones() throws {
        let workspace = try ClubWorkspace.served()
        let server = try workspace.serve()
        let host = try workspace.user("host1", role: "host")
        let member = try workspace.user("minji")
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        // Berlin changes to summer time in the early hours of 2027-03-28; this meetup starts in
        // winter time and the next one in summer time.
        let winter = try #require(ISO8601DateFormatter().date(from: "2027-03-27T17:00:00Z"))
        let summer = try #require(ISO8601DateFormatter().date(from: "2027-03-28T16:00:00Z"))
        try #require(!berlin.isDaylightSavingTime(for: winter) && berlin.isDaylightSavingTime(for: summer))
        let seoul = try #require(ISO8601DateFormatter().date(from: "2027-01-09T10:00:00Z"))
        func create(_ title: String, _ start: Date, _ zone: String, capacity: Int = 10) throws -> Int64 {
            let offset = TimeZone(identifier: zone)!.secondsFromGMT(for: start)
            let body = """
                {"title": "\(title)", "place_name": "Boulderhaus", "address": "Hauptstraße 1, Berlin", \
                "starts_at": "\(RFC3339.string(from: start, utcOffsetSeconds: offset))", \
                "ends_at": "\(RFC3339.string(from: start.addingTimeInterval(7_200), utcOffsetSeconds: offset))", \
                "time_zone": "\(zone)", "capacity": \(capacity)}
                """
            let created = try server.call("POST", "/v1/meetups", token: host.token, json: body)
            try #require(created.status == 201, "\(created.response)")
            return try #require(created["id"]?.intValue)
        }
        let first = try create("Winter evening", winter, "Europe/Berlin")
        let second = try create("Summer evening", summer, "Europe/Berlin")
        let third = try create("서울 볼더링", seoul, "Asia/Seoul", capacity: 1)
        let other = try workspace.user("jisoo")
        #expect(try server.call("POST", "/v1/meetups/\(third)/join", token: other.token).status == 201)
        for id in [first, second, third] {
            #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201)
        }
        let notMine = try create("Not joined", summer, "Europe/Berlin")

        let me = try server.call("GET", "/v1/me", token: member.token)
        let url = try #require(me["calendar_url"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/v1/calendar/"))
        let path = String(url.dropFirst("http://127.0.0.1:\(server.port)".count))
        let feed = try server.call("GET", path)
        #expect(feed.status == 200)
        #expect(feed.header("Content-Type") == "text/calendar; charset=utf-8")
        let etag = try #require(feed.header("ETag"))
        let parsed = try Self.parse(feed.response.body)
        #expect(parsed["timezones"] as? [String] == ["Asia/Seoul", "Europe/Berlin"])
        let events = try #require(parsed["events"] as? [[String: Any]])
        #expect(events.map { $0["summary"] as? String } == ["서울 볼더링", "Winter evening", "Summer evening"])
        #expect(!events.contains { $0["summary"] as? String == "Not joined" } && notMine > 0)
        for (event, start, zone) in [(events[0], seoul, "Asia/Seoul"), (events[1], winter, "Europe/Berlin"), (events[2], summer, "Europe/Berlin")] {
            #expect(event["tzid"] as? String == zone)
            #expect(event["start"] as? Int == Int(start.timeIntervalSince1970))
            #expect(event["end"] as? Int == Int(start.timeIntervalSince1970) + 7_200)
            #expect(event["start_offset"] as? Int == TimeZone(identifier: zone)!.secondsFromGMT(for: start))
            #expect(event["sequence"] as? Int == 0)
            #expect(event["alarm_seconds"] as? [Int] == [-3_600])
            #expect(event["location"] as? String == "Boulderhaus, Hauptstraße 1, Berlin")
        }
        #expect(events[1]["start_offset"] as? Int == 3_600)
        #expect(events[2]["start_offset"] as? Int == 7_200, "the zone's summer time, not the offset the first one had")
        #expect(events[0]["status"] as? String == "TENTATIVE", "waitlisted")
        #expect(events[1]["status"] as? String == "CONFIRMED")
        #expect(events[1]["uid"] as? String == "meetup-\(first)@127.0.0.1")

        // Unchanged: 304. A change bumps SEQUENCE and the ETag; a cancellation says CANCELLED.
        #expect(try server.call("GET", path, headers: [("If-None-Match", etag)]).status == 304)
        let title = "Winter; evening, with \\ and a long, long name " + String(repeating: "벽", count: 40)
        let patch = try server.call("PATCH", "/v1/meetups/\(first)", token: host.token,
                                    json: #"{"title": "\#(title.replacingOccurrences(of: "\\", with: "\\\\"))", "description": "Line one\nLine two"}"#)
        #expect(patch.status == 200, "\(patch.response)")
        #expect(try server.call("POST", "/v1/meetups/\(second)/cancel", token: host.token).status == 200)
        let changed = try server.call("GET", path, headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") != etag)
        let after = try #require(try Self.parse(changed.response.body)["events"] as? [[String: Any]])
        let renamed = try #require(after.first { $0["uid"] as? String == "meetup-\(first)@127.0.0.1" })
        #expect(renamed["summary"] as? String == title)
        #expect(renamed["description"] as? String == "Line one\nLine two")
        #expect(renamed["sequence"] as? Int == 1)
        let cancelled = try #require(after.first { $0["uid"] as? String == "meetup-\(second)@127.0.0.1" })
        #expect(cancelled["status"] as? String == "CANCELLED")
        #expect(cancelled["sequence"] as? Int == 1)
        #expect(cancelled["alarm_seconds"] as? [Int] == [])

        // One meetup on its own, for anyone signed in.
        let single = try server.call("GET", "/v1/meetups/\(third).ics", token: other.token)
        #expect(single.status == 200)
        #expect(single.header("Content-Disposition") == "attachment; filename=\"meetup-\(third).ics\"")
        let one = try #require(try Self.parse(single.response.body)["events"] as? [[String: Any]])
        #expect(one.count == 1)
        #expect(one.first?["start_offset"] as? Int == 9 * 3_600)
        #expect(try server.call("GET", "/v1/meetups/\(third).ics").status == 401)
        #expect(try server.call("GET", "/v1/meetups/999.ics", token: other.token).status == 404)

        // Revoking: the old address stops working at once, though the server had just opened it
        // (and keeps which member a working address stands for); the new one works; a forged
        // token never did.
        #expect(try server.call("GET", path).status == 200)
        let revoked = try server.call("POST", "/v1/me/calendar/revoke", token: member.token)
        let newURL = try #require(revoked["calendar_url"]?.stringValue)
        #expect(newURL != url)
        #expect(try server.call("GET", path).status == 404)
        #expect(try server.call("GET", String(newURL.dropFirst("http://127.0.0.1:\(server.port)".count))).status == 200)
        #expect(try server.call("GET", "/v1/me", token: member.token)["calendar_url"]?.stringValue == newURL)
        let forged = path.replacingOccurrences(of: "/v1/calendar/\(member.id)-", with: "/v1/calendar/\(other.id)-")
        #expect(try server.call("GET", forged).status == 404)
        _ = server.terminate()
    }
}
