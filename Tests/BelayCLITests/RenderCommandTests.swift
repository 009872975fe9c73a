import BelayTestSupport
import Foundation
import Testing

/// `belay render sticker|story|card|collection|pyramid`, run as the real binary.
struct RenderCommandTests {
    static let fixtures = BelayProcess.packageRoot.appendingPathComponent("Tests/BelayRenderTests/Fixtures")
    static let background = fixtures.appendingPathComponent("bg_1.png").path
    static let hold = fixtures.appendingPathComponent("hold_1.png").path

    /// Width and height from a PNG's IHDR.
    private func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let number = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func rendersAStickerAndReportsTimings() throws {
        let workspace = try ClubWorkspace()
        let report = try workspace.json(
            "render", "sticker", "--background", Self.background, "--hold", Self.hold, "--place", "더클라임 강남점",
            "--date", "2026.11.29 (일)", "--scale", "1", "--out", "sticker.png", "--repeat", "2") as? [String: Any]
        #expect(report?["median_ms"] is Double && report?["min_ms"] is Double && report?["cold_ms"] is Double)
        #expect(report?["bytes"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: workspace.directory.file("sticker.png")))).count)
        #expect(try pngSize(workspace.directory.file("sticker.png")) == (240, 320))
    }

    @Test func rendersAGradePyramidFromBarsAndRefusesABarItCannotRead() throws {
        let workspace = try ClubWorkspace()
        let report = try workspace.json(
            "render", "pyramid", "--bars", "V5:2:1:#E53935,V4:6:2,V3:11:4", "--name", "김민지", "--out", "pyramid.png",
            "--repeat", "2", "--threads", "1") as? [String: Any]
        #expect(report?["cpu_ms"] is Double && report?["median_ms"] is Double, "\(report ?? [:])")
        #expect(try pngSize(workspace.directory.file("pyramid.png")) == (1080, 1350))

        let bad = try workspace.run("render", "pyramid", "--bars", "V5:2:1,V4:six:2", "--out", "bad.png")
        #expect(bad.status == 64 && bad.standardError.contains("'V4:six:2' is not GRADE:SENDS:FLASHES"), "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("bad.png")))
    }

    @Test func jsonReportSaysWhichFontDrewEachRunAndWhatWasMissing() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run(
            "render", "sticker", "--background", Self.background, "--hold", Self.hold, "--place", "Climb صالة 2 \u{13000}",
            "--date", "2026.11.29 (일)", "--scale", "1", "--out", "sticker.png", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("U+13000"), "the CLI still warns")
        let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let labels = try #require(report?["labels"] as? [[String: Any]])
        let place = try #require(labels.first { $0["name"] as? String == "place" })
        #expect(place["direction"] as? String == "ltr")
        #expect((place["missing_characters"] as? [[String: Any]])?.first?["code_points"] as? [String] == ["U+13000"])
        let runs = try #require((place["lines"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]])
        let arabic = try #require(runs.first { $0["script"] as? String == "Arab" })
        #expect(arabic["direction"] as? String == "rtl")
        #expect((arabic["font"] as? String)?.hasSuffix("NotoSansArabic-Bold.ttf") == true)
        #expect(arabic["size_px"] as? Double == 24)
        #expect(runs.first?["script"] as? String == "Latn" && runs.first?["range"] as? [Int] == [0, 6])
        for key in ["shrunk", "wrapped", "ellipsised"] { #expect(place[key] is Bool) }
        #expect(labels.contains { $0["name"] as? String == "date" })
        let layout = report?["place_layout_us"] as? [String: Any]
        #expect((layout?["warm"] as? Double ?? 0) > 0 && (layout?["first"] as? Double ?? 0) > 0)
    }

    @Test func rendersAShareCardLedByTheAchievementLine() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run(
            "render", "card", "--background", Self.background, "--hold", Self.hold, "--place", "더클라임 강남점",
            "--date", "2026.11.29 (일)", "--hold-name", "골드 저그", "--achievement", "12번째 체크인 · 5주 연속",
            "--club-name", "더클라임 클라이밍 클럽", "--out", "card.png", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try pngSize(workspace.directory.file("card.png")) == (1200, 630))
        let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let labels = try #require(report?["labels"] as? [[String: Any]])
        #expect(labels.compactMap { $0["name"] as? String } == ["place", "date", "achievement", "hold", "place", "date", "club"])
        let achievement = try #require(labels.first { $0["name"] as? String == "achievement" })
        #expect((achievement["lines"] as? [[String: Any]])?.first?["text"] as? String == "12번째 체크인 · 5주 연속")

        let missing = try workspace.run(
            "render", "card", "--background", Self.background, "--hold", Self.hold, "--place", "P", "--date", "D",
            "--club-logo", "nowhere.png", "--out", "card.png")
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("nowhere.png"), "\(missing.standardError)")
    }

    @Test func rendersAStoryWithTheBackgroundsCataloguedColours() throws {
        let workspace = try ClubWorkspace()
        let assets = BelayProcess.packageRoot.appendingPathComponent("Assets")
        let backgrounds = try FileManager.default.contentsOfDirectory(atPath: assets.appendingPathComponent("backgrounds").path)
            .filter { $0.hasSuffix(".png") }.sorted()
        let holds = try FileManager.default.contentsOfDirectory(atPath: assets.appendingPathComponent("holds").path)
            .filter { $0.hasSuffix(".png") }.sorted()
        try #require(!backgrounds.isEmpty && !holds.isEmpty)
        try workspace.succeed(
            "render", "story", "--background", assets.appendingPathComponent("backgrounds/" + backgrounds[0]).path,
            "--hold", assets.appendingPathComponent("holds/" + holds[0]).path, "--place", "Seoul Forest 🧗",
            "--date", "2026.11.29 (일)", "--out", "story.png")
        #expect(try pngSize(workspace.directory.file("story.png")) == (1080, 1920))
    }

    @Test func aStoryWithStickerOutWritesTheSameStickerAsRenderSticker() throws {
        let workspace = try ClubWorkspace()
        let report = try workspace.json(
            "render", "story", "--background", Self.background, "--hold", Self.hold, "--place", "더클라임 강남점",
            "--date", "2026.11.29 (일)", "--out", "story.png", "--sticker-out", "pair-sticker.png", "--repeat", "1") as? [String: Any]
        #expect(report?["width"] as? Int == 1080 && report?["height"] as? Int == 1920)
        try workspace.succeed(
            "render", "sticker", "--background", Self.background, "--hold", Self.hold, "--place", "더클라임 강남점",
            "--date", "2026.11.29 (일)", "--scale", "3", "--out", "sticker.png")
        #expect(try pngSize(workspace.directory.file("story.png")) == (1080, 1920))
        #expect(try pngSize(workspace.directory.file("pair-sticker.png")) == (720, 960))
        let pairSticker = try Data(contentsOf: URL(fileURLWithPath: workspace.directory.file("pair-sticker.png")))
        let sticker = try Data(contentsOf: URL(fileURLWithPath: workspace.directory.file("sticker.png")))
        #expect(pairSticker == sticker, "drawing the sticker once for both images changes nothing in it")
    }

    @Test func anUnwritableStickerOutFailsBeforeAnyFileIsWritten() throws {
        let workspace = try ClubWorkspace()
        let result = try workspace.run(
            "render", "story", "--background", Self.background, "--hold", Self.hold, "--place", "x", "--date", "y",
            "--out", "story.png", "--sticker-out", "missing/sticker.png")
        #expect(result.status == 1)
        #expect(result.standardError.contains("Cannot write '\(workspace.directory.file("missing/sticker.png"))'"))
        #expect(result.standardError.contains("Check the directory exists and is writable."))
        #expect(!result.standardError.contains(".."), "one full stop between the reason and the advice")
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("story.png")), "nothing half done")
    }

    @Test func badArtworkFailsNamingTheFile() throws {
        let workspace = try ClubWorkspace()
        try "not a picture".write(toFile: workspace.directory.file("hold.png"), atomically: true, encoding: .utf8)
        let result = try workspace.run(
            "render", "sticker", "--background", Self.background, "--hold", "hold.png", "--place", "x", "--date", "y",
            "--out", "sticker.png")
        #expect(result.status == 1)
        #expect(result.standardError.contains(workspace.directory.file("hold.png")) && result.standardError.contains("not a PNG or JPEG"))
        #expect(!FileManager.default.fileExists(atPath: workspace.directory.file("sticker.png")))
    }

    @Test func refusesScalesAndRepeatCountsThatDoNotExist() throws {
        let workspace = try ClubWorkspace()
        let common = ["--background", Self.background, "--hold", Self.hold, "--place", "x", "--date", "y", "--out", "o.png"]
        #expect(try BelayProcess.run(["render", "sticker"] + common + ["--scale", "4"], in: workspace.path).status == 64)
        #expect(try BelayProcess.run(["render", "story"] + common + ["--scale", "2"], in: workspace.path).status == 64)
        #expect(try BelayProcess.run(["render", "sticker"] + common + ["--repeat", "0"], in: workspace.path).status == 64)
        #expect(try BelayProcess.run(["render", "collection", "--out", "c.png"], in: workspace.path).status == 64)
    }

    @Test func rendersAMembersCollectionNamedByHandle() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "minji", "--name", "Minji")
        let report = try workspace.json("render", "collection", "--user", "minji", "--scale", "1", "--out", "mine.png") as? [String: Any]
        #expect(report?["holds"] as? Int == 0)
        #expect(FileManager.default.fileExists(atPath: workspace.directory.file("mine.png")))
        let unknown = try workspace.run("render", "collection", "--user", "nobody", "--out", "x.png")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.hasPrefix("Error: There is no user 'nobody'."))
    }

    @Test func rendersACollectionDescribedInJSON() throws {
        let workspace = try ClubWorkspace()
        let items = (0..<5).map { index in
            ["hold": Self.hold, "place": "더클라임 \(index)호점", "date": "2026.0\(index + 1).01"]
        }
        let description: [String: Any] = ["member_name": "김민지", "first_date": "2026.01.01", "last_date": "2026.05.01", "items": items]
        try JSONSerialization.data(withJSONObject: description).write(to: URL(fileURLWithPath: workspace.directory.file("collection.json")))
        let report = try workspace.json("render", "collection", "--items", "collection.json", "--scale", "1", "--out", "collection.png") as? [String: Any]
        #expect(report?["holds"] as? Int == 5)
        #expect(try pngSize(workspace.directory.file("collection.png")) == (360, 100 + 2 * 152 - 12 + 20))
    }
}
