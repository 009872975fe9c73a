import BelayCore
import BelayAPI
import BelayHTTP
import BelayRender
import BelayTestSupport
import Foundation
import Testing

/// A meetup's public page as the world meets it: the real server, the link fetched as each
/// messenger's and network's preview robot fetches it, its `Event` read by a JSON-LD
/// processor, and the page opened in headless Chromium at a phone's size.
@Suite(.serialized) struct MeetupPageBrowserTests {
    /// A preview robot: the user agent it sends and the tags it builds its preview from.
    struct PreviewRobot: Sendable {
        let name: String
        let userAgent: String
        let reads: [String]
    }

    /// What each robot sends and reads, from their documentation: Kakao's and LINE's scrapers
    /// read Open Graph (LINE's presents itself as Facebook's), X reads its own card tags, and
    /// Slack and Discord read Open Graph with the image's size.
    static let robots = [
        PreviewRobot(name: "Facebook, Instagram, WhatsApp", userAgent: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
                     reads: ["og:title", "og:description", "og:image", "og:url", "og:type", "og:image:width", "og:image:height", "al:ios:url"]),
        PreviewRobot(name: "KakaoTalk", userAgent: "facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/t/scrap/33984",
                     reads: ["og:title", "og:description", "og:image", "og:url"]),
        PreviewRobot(name: "LINE", userAgent: "facebookexternalhit/1.1;line-poker/1.0", reads: ["og:title", "og:description", "og:image"]),
        PreviewRobot(name: "X", userAgent: "Twitterbot/1.0", reads: ["twitter:card", "twitter:title", "twitter:description", "twitter:image"]),
        PreviewRobot(name: "Slack", userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
                     reads: ["og:title", "og:description", "og:image", "og:image:width", "og:image:height"]),
        PreviewRobot(name: "Discord", userAgent: "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
                     reads: ["og:title", "og:description", "og:image"]),
    ]

    /// The real server with a gym, a meetup at it a week from now and its page published;
    /// returns the server and the page's path.
    static func publishedMeetup(_ workspace: ClubWorkspace) throws -> (BelayServerProcess, String) {
        let server = try workspace.serve()
        let host = try workspace.user("jiwoo", role: "host")
        let gym = try workspace.cli(["gyms", "add", "--name", "The Climb Gangnam", "--names", "ko=더클라임 강남점",
                                     "--address", "서울 강남구 테헤란로 123", "--country", "KR", "--location", "37.4979,127.0276",
                                     "--time-zone", "Asia/Seoul"])
        let gymID = try #require(gym["id"]?.intValue, "\(gym)")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let day = calendar.startOfDay(for: Date().addingTimeInterval(7 * 86_400))
        let starts = day.addingTimeInterval(19 * 3_600), ends = day.addingTimeInterval(22 * 3_600)
        let created = try server.call("POST", "/v1/meetups", token: host.token, json: """
            {"title": "주말 볼더링 번개", "description": "초보 환영! Shoes to lend.", "gym_id": \(gymID), "capacity": 8,
             "starts_at": "\(RFC3339.string(from: starts, utcOffsetSeconds: 9 * 3_600))",
             "ends_at": "\(RFC3339.string(from: ends, utcOffsetSeconds: 9 * 3_600))",
             "discipline": "bouldering", "level_min": "V2", "level_max": "V5", "tags": ["beginner_friendly", "social"]}
            """)
        #expect(created.status == 201, "\(String(decoding: created.response.body, as: UTF8.self))")
        let meetupID = try #require(created["id"]?.intValue)
        let published = try workspace.cli(["meetups", "publish", String(meetupID), "--show-host"])
        let url = try #require(published["public_page"]?["url"]?.stringValue ?? published["url"]?.stringValue, "\(published)")
        let path = try #require(URL(string: url)?.path)
        #expect(path.hasPrefix("/m/"))
        return (server, path)
    }

    @Test func eachPreviewRobotFindsTheTagsItReadsAndTheCard() throws {
        let workspace = try ClubWorkspace.served()
        let (server, path) = try Self.publishedMeetup(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let base = "http://127.0.0.1:\(server.port)"
        for robot in Self.robots {
            // Robots send no language and no cookie; some ask for the first bytes only.
            let page = try server.call("GET", path, headers: [("User-Agent", robot.userAgent), ("Accept", "text/html,*/*")])
            #expect(page.status == 200, "\(robot.name)")
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true, "\(robot.name)")
            let tags = SharePageBrowserTests.openGraphTags(String(decoding: page.response.body, as: UTF8.self))
            for tag in robot.reads {
                #expect(tags[tag]?.isEmpty == false, "\(robot.name) reads \(tag), which the page lacks")
            }
            #expect(tags["og:title"] == "주말 볼더링 번개", "\(robot.name)")
            #expect(tags["og:description"]?.contains("더클라임 강남점") == true || tags["og:description"]?.contains("The Climb Gangnam") == true,
                    "\(robot.name): \(tags["og:description"] ?? "")")
            #expect(tags["og:url"] == base + path)
            // The image is an absolute address the robot fetches, without a token, as the robot.
            let image = try #require(tags["og:image"] ?? tags["twitter:image"])
            #expect(image.hasPrefix(base + "/"), "\(robot.name): \(image)")
            let card = try server.call("GET", String(image.dropFirst(base.count)), headers: [("User-Agent", robot.userAgent)])
            #expect(card.status == 200 && card.header("Content-Type") == "image/png", "\(robot.name)")
            // Public and brief, as the page: a robot's proxy or a CDN may keep it, and a change shows within a minute.
            #expect(card.header("Cache-Control") == "public, max-age=30", "\(robot.name)")
            let pixmap = try ImageDecoder.decode(card.response.body, name: "card.png", limits: BuiltInSettings.render().limits)
            #expect(pixmap.width == 1200 && pixmap.height == 630, "\(robot.name)")
        }
        // X's card is the large image kind; the app links open the app's meetup screen.
        let tags = SharePageBrowserTests.openGraphTags(String(decoding: try server.call("GET", path).response.body, as: UTF8.self))
        #expect(tags["twitter:card"] == "summary_large_image")
        #expect(tags["og:type"] == "website" || tags["og:type"] == "event")
    }

    @Test func itsEventIsReadByAJSONLDProcessorWithEverythingSearchEnginesNeed() throws {
        let workspace = try ClubWorkspace.served()
        let (server, path) = try Self.publishedMeetup(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let page = try server.call("GET", path, headers: [("User-Agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")])
        #expect(page.status == 200)
        let file = workspace.directory.file("page.html")
        try Data(page.response.body).write(to: URL(fileURLWithPath: file))
        let run = try GeneratedClientTests.python("check-event-jsonld.py", [file], timeout: 300)
        #expect(run.status == 0, "\(run.printed)")
        let event = try JSONValue.parse(Array(run.standardOutput.utf8))
        #expect(event["name"]?.stringValue == "주말 볼더링 번개")
        #expect(event["start_date"]?.stringValue?.hasSuffix("T19:00:00+09:00") == true)
        #expect(event["end_date"]?.stringValue?.hasSuffix("T22:00:00+09:00") == true)
        #expect(event["event_status"]?.stringValue == "https://schema.org/EventScheduled")
        #expect(event["attendance_mode"]?.stringValue == "https://schema.org/OfflineEventAttendanceMode")
        #expect(event["place_name"]?.stringValue == "The Climb Gangnam")
        #expect(event["address"]?.stringValue == "서울 강남구 테헤란로 123")
        if case let .number(latitude)? = event["latitude"] { #expect(latitude.doubleValue == 37.4979) } else { Issue.record("no latitude: \(event)") }
        #expect(event["availability"]?.stringValue == "https://schema.org/InStock")
        #expect(event["organizer_name"]?.stringValue == "Jiwoo")
        #expect(event["url"]?.stringValue == "http://127.0.0.1:\(server.port)\(path)")
        #expect(event["recommended_missing"]?.arrayValue?.isEmpty == true, "\(event)")
    }

    @Test func chromiumShowsThePageAtAPhonesSizeWithNoConsoleErrors() throws {
        #expect(FileManager.default.isExecutableFile(atPath: SharePageBrowserTests.chromium), "Debian's chromium is needed: make test-deps installs it")
        let workspace = try ClubWorkspace.served()
        let (server, path) = try Self.publishedMeetup(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let screenshot = ProcessInfo.processInfo.environment["BELAY_KEEP_MEETUP_PAGE"] ?? workspace.directory.file("meetup-page.png")
        let run = try ExternalTool.output(SharePageBrowserTests.chromium, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--lang=ko-KR",
            "--user-data-dir=\(workspace.directory.file("chromium"))", "--enable-logging=stderr", "--v=0",
            "--window-size=390,844", "--screenshot=\(screenshot)", "http://127.0.0.1:\(server.port)\(path)",
        ], timeout: 90)
        #expect(run.status == 0, "chromium: \(run.standardError.suffix(2_000))")
        let console = run.standardError.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages (a CSP violation shows here): \(console)")
        let shot = try ImageDecoder.decode(contentsOf: screenshot, limits: BuiltInSettings.render().limits)
        #expect(shot.width == 390 && shot.height == 844)
        // Something is drawn: the page is not one flat colour.
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: shot.height, by: 7) {
            for x in stride(from: 0, to: shot.width, by: 7) {
                let c = shot.color(x: x, y: y)
                colours.insert(UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue))
            }
        }
        #expect(colours.count > 20, "the screenshot shows almost nothing: \(colours.count) colours")
    }
}
