import BelayCore
import BelayAPI
import BelayHTTP
import BelayRender
import BelayTestSupport
import Foundation
import Testing

/// The share page as people see it: the real server, a real reward, the link from the share
/// payload opened in headless Chromium, and the preview a link crawler would build.
@Suite(.serialized) struct SharePageBrowserTests {
    static let chromium = "/usr/bin/chromium"

    /// The real server with one member's shared reward; returns the server, the link, the
    /// rendered sticker's bytes and the member's token.
    static func sharedReward(_ workspace: ClubWorkspace) throws -> (BelayServerProcess, String, [UInt8], String) {
        let server = try workspace.serve()
        let host = try workspace.user("host1", role: "host")
        let member = try workspace.user("minji")
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Friday bouldering", "--place", "더클라임 강남점",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-300), utcOffsetSeconds: 9 * 3600),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 9 * 3600),
                                        "--capacity", "4", "--host", "host1"])
        let id = try #require(meetup["id"]?.intValue)
        #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201)
        let checkIn = try server.call("POST", "/v1/meetups/\(id)/check-in", token: host.token, json: #"{"user_id": \#(member.id)}"#)
        let rewardID = try #require(checkIn["reward"]?["id"]?.intValue)
        let ready = try #require(try server.poll(timeout: 120) { () -> JSONValue? in
            let reward = try server.call("GET", "/v1/rewards/\(rewardID)", token: member.token)
            return reward["render_status"]?.stringValue == "ready" ? reward.json : nil
        }, "the reward's images were not rendered in time")
        let base = "http://127.0.0.1:\(server.port)"
        let stickerURL = try #require(ready["images"]?["sticker"]?["url"]?.stringValue)
        let sticker = try server.call("GET", String(stickerURL.dropFirst(base.count)), token: member.token).response.body
        let published = try server.call("POST", "/v1/rewards/\(rewardID)/share-page", token: member.token)
        #expect(published.status == 201)
        let link = try #require(published["url"]?.stringValue)
        #expect(link.hasPrefix("\(base)/s/"))
        return (server, link, sticker, member.token)
    }

    @Test func thePageShowsTheStickerInChromiumWithNoConsoleErrors() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.chromium), "Debian's chromium is needed: make test-deps installs it")
        let workspace = try ClubWorkspace.served()
        let (server, link, stickerBytes, _) = try Self.sharedReward(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let screenshot = workspace.directory.file("phone.png")
        let run = try ExternalTool.output(Self.chromium, [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(workspace.directory.file("chromium"))", "--enable-logging=stderr", "--v=0",
            "--window-size=390,844", "--screenshot=\(screenshot)", link,
        ], timeout: 90)
        #expect(run.status == 0, "chromium: \(run.standardError.suffix(2_000))")
        let console = run.standardError.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages (a CSP violation shows here): \(console)")

        let page = try ImageDecoder.decode(contentsOf: screenshot, limits: BuiltInSettings.render().limits)
        #expect(page.width == 390 && page.height == 844)
        let sticker = try ImageDecoder.decode(stickerBytes, name: "sticker.png", limits: BuiltInSettings.render().limits)
        let match = Self.bestMatch(of: sticker, shownAt: 240, in: page)
        // Where the page puts the sticker (centred at the top of the card), its pixels are the sticker's.
        #expect(match.difference < 24, "the sticker is not visible on the page (closest mean difference \(match.difference) at \(match.x),\(match.y))")
        #expect(match.difference * 3 < match.median, "the match does not stand out: \(match.difference) against a median of \(match.median)")
        #expect((60...90).contains(match.x))
    }

    @Test func aLinkCrawlerFindsTheOpenGraphTagsAndTheCard() throws {
        let workspace = try ClubWorkspace.served()
        let (server, link, _, _) = try Self.sharedReward(workspace)
        defer { server.send(SIGTERM); _ = server.wait() }
        let base = "http://127.0.0.1:\(server.port)"
        let page = try server.call("GET", String(link.dropFirst(base.count)), headers: [("User-Agent", "facebookexternalhit/1.1")])
        #expect(page.status == 200)
        let tags = Self.openGraphTags(String(decoding: page.response.body, as: UTF8.self))
        #expect(tags["og:url"] == link)
        #expect(tags["og:title"]?.contains("더클라임 강남점") == true)
        #expect(tags["og:image:width"] == "1200")
        #expect(tags["og:image:height"] == "630")
        #expect(tags["og:image:type"] == "image/png")
        #expect(tags["twitter:card"] == "summary_large_image")
        let imageURL = try #require(tags["og:image"])
        #expect(imageURL.hasPrefix(base))
        let card = try server.call("GET", String(imageURL.dropFirst(base.count)))
        #expect(card.status == 200)
        #expect(card.header("Content-Type") == "image/png")
        let pixmap = try ImageDecoder.decode(card.response.body, name: "card.png", limits: BuiltInSettings.render().limits)
        #expect(pixmap.width == 1200 && pixmap.height == 630)
        #expect(card.header("Cache-Control") == "public, max-age=30")
    }

    /// The `property`/`name` → `content` pairs of the page's `<meta>` tags, read the way a
    /// crawler does (attributes in any order, entities decoded).
    static func openGraphTags(_ html: String) -> [String: String] {
        var tags: [String: String] = [:]
        var rest = Substring(html)
        while let start = rest.range(of: "<meta ") {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let tag = rest[start.upperBound..<end]
            func attribute(_ name: String) -> String? {
                guard let open = tag.range(of: name + "=\"") else { return nil }
                guard let close = tag[open.upperBound...].firstIndex(of: "\"") else { return nil }
                return String(tag[open.upperBound..<close])
                    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
            if let key = attribute("property") ?? attribute("name"), let content = attribute("content") { tags[key] = content }
            rest = rest[end...]
        }
        return tags
    }

    /// Slides the sticker, scaled to `width` CSS pixels, over the screenshot near the
    /// horizontal centre, and returns where it matches best (mean absolute RGB difference
    /// over points inside its rounded card) and the median difference over all positions.
    static func bestMatch(of sticker: Pixmap, shownAt width: Int, in page: Pixmap) -> (x: Int, y: Int, difference: Double, median: Double) {
        let height = width * sticker.height / sticker.width
        var points: [(x: Int, y: Int, color: Color)] = []
        for row in stride(from: height / 10, to: height * 9 / 10, by: max(1, height / 24)) {
            for column in stride(from: width / 10, to: width * 9 / 10, by: max(1, width / 16)) {
                let color = sticker.color(x: column * sticker.width / width, y: row * sticker.height / height)
                if color.alpha == 255 { points.append((column, row, color)) }
            }
        }
        var scores: [(x: Int, y: Int, difference: Double)] = []
        let centre = (page.width - width) / 2
        for x in stride(from: max(0, centre - 15), through: min(page.width - width, centre + 15), by: 3) {
            for y in stride(from: 0, through: page.height - height, by: 2) {
                var total = 0
                for point in points {
                    let shown = page.color(x: x + point.x, y: y + point.y)
                    total += abs(Int(shown.red) - Int(point.color.red)) + abs(Int(shown.green) - Int(point.color.green))
                        + abs(Int(shown.blue) - Int(point.color.blue))
                }
                scores.append((x, y, Double(total) / Double(max(points.count, 1) * 3)))
            }
        }
        let sorted = scores.map(\.difference).sorted()
        let best = scores.min { $0.difference < $1.difference } ?? (0, 0, .infinity)
        return (best.x, best.y, best.difference, sorted.isEmpty ? 0 : sorted[sorted.count / 2])
    }
}
