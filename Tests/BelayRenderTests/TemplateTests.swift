import BelayTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import BelayRender

/// The templates against their golden images, and the renderer's contract: content keys,
/// errors that name the file, several renderers at once.
struct TemplateTests {
    static let content = StickerContent(
        backgroundPath: TestImages.background, holdPath: TestImages.hold, place: "더클라임 강남점", date: "2026.11.29 (일)")
    static let colors = StoryColors(top: Color(hex: "#1E3C72")!, bottom: Color(hex: "#2A5298")!)

    @Test(arguments: [3, 1])
    func stickerMatchesItsGolden(scale: Int) throws {
        let sticker = try Renderer(settings: BuiltInSettings.render()).renderSticker(Self.content, scale: scale)
        #expect(sticker.width == 240 * scale && sticker.height == 320 * scale)
        #expect(sticker.mediaType == "image/png" && sticker.warnings.isEmpty)
        let pixels = try ImageDecoder.decode(sticker.bytes, name: "sticker", limits: BuiltInSettings.render().limits)
        #expect(pixels.color(x: 0, y: 0).alpha == 0, "transparent outside the rounded corner")
        #expect(pixels.color(x: 120 * scale, y: 5 * scale).alpha == 255)
        try GoldenImage.check(sticker.bytes, named: "sticker-\(scale)x")
    }

    @Test func stickerWithMixedScriptsAndEmojiMatchesItsGolden() throws {
        var content = Self.content
        content.place = "Rock 더클라임 🧗‍♀️ Gangnam Boulders 신논현"
        let sticker = try Renderer(settings: BuiltInSettings.render()).renderSticker(content, scale: 2)
        try GoldenImage.check(sticker.bytes, named: "sticker-mixed-2x")
    }

    @Test func storyMatchesItsGolden() throws {
        // The story has one size (1080x1920, the 3x sticker inside); it has no scale of its own.
        var content = Self.content
        content.clubName = "Belay Climbing Club"
        content.holdName = "Crimson Jug 🔥"
        content.achievement = "12th check-in · 5-week streak"
        let story = try Renderer(settings: BuiltInSettings.render()).renderStory(content, colors: Self.colors)
        #expect(story.labels.map(\.name) == ["place", "date", "club", "achievement", "hold"])
        #expect(story.width == 1080 && story.height == 1920)
        let pixels = try ImageDecoder.decode(story.bytes, name: "story", limits: BuiltInSettings.render().limits)
        #expect(pixels.isOpaque)
        #expect(pixels.color(x: 0, y: 0) == Self.colors.top)
        #expect(pixels.color(x: 1079, y: 1919) == Self.colors.bottom)
        // Nothing but the gradient in the Stories safe zones: every row there is one colour.
        for y in Array(0..<StoryTemplate.safeTop) + Array((1920 - StoryTemplate.safeBottom)..<1920) {
            let first = pixels.color(x: 0, y: y)
            #expect((0..<1080).allSatisfy { pixels.color(x: $0, y: y) == first }, "row \(y) has more than the gradient")
        }
        // The achievement line and the hold's name are drawn (white pixels) above and below the sticker.
        let white = { (rows: Range<Int>) in rows.contains { y in (0..<1080).contains { pixels.color(x: $0, y: y) == .white } } }
        #expect(white(StoryTemplate.safeTop..<StoryTemplate.stickerOrigin.y))
        #expect(white(1440..<(1920 - StoryTemplate.safeBottom)))
        try GoldenImage.check(story.bytes, named: "story")
    }

    @Test func storyBackgroundIsTheGradientWithoutTheSticker() throws {
        let renderer = try Renderer(settings: BuiltInSettings.render())
        let background = try renderer.renderStoryBackground(colors: Self.colors)
        #expect(background.width == 720 && background.height == 1280 && background.mediaType == "image/png")
        let pixels = try ImageDecoder.decode(background.bytes, name: "story background", limits: BuiltInSettings.render().limits)
        #expect(pixels.isOpaque)
        #expect(pixels.color(x: 0, y: 0) == Self.colors.top && pixels.color(x: 719, y: 1279) == Self.colors.bottom)
        // No sticker pixels: each row is one colour, and the colours only move from top to bottom.
        for y in stride(from: 0, to: 1280, by: 7) {
            let first = pixels.color(x: 0, y: y)
            #expect((0..<720).allSatisfy { pixels.color(x: $0, y: y) == first }, "row \(y)")
        }
        #expect(throws: RenderError.self) { try renderer.renderStoryBackground(colors: Self.colors, width: 0, height: 1280) }
        #expect(Renderer.storyBackgroundKey(colors: Self.colors) != Renderer.storyBackgroundKey(colors: Self.colors, width: 1080, height: 1920))
    }

    @Test func storyAsJPEGAndTogetherWithTheSticker() throws {
        let renderer = try Renderer(settings: BuiltInSettings.render())
        let jpeg = try renderer.renderStory(Self.content, colors: Self.colors, format: .jpeg(quality: 85))
        #expect(jpeg.mediaType == "image/jpeg" && jpeg.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let both = try renderer.renderStickerAndStory(Self.content, stickerScale: 3, colors: Self.colors)
        #expect(both.sticker.bytes == (try renderer.renderSticker(Self.content).bytes))
        #expect(both.story.bytes == (try renderer.renderStory(Self.content, colors: Self.colors).bytes))
    }

    @Test func collectionMatchesItsGoldens() throws {
        let directory = try TemporaryDirectory()
        let renderer = try Renderer(settings: BuiltInSettings.render())
        for scale in [3, 1] {
            let path = directory.file("collection-\(scale)x.png")
            let image = try renderer.renderCollection(Self.collection(count: 4), scale: scale, to: path)
            #expect(image.width == 360 * scale)
            try GoldenImage.check(Array(try Data(contentsOf: URL(fileURLWithPath: path))), named: "collection-\(scale)x")
        }
    }

    @Test(arguments: [1, 4, 400])
    func collectionGrowsWithItsHolds(count: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("collection.png")
        let image = try Renderer(settings: BuiltInSettings.render()).renderCollection(Self.collection(count: count), scale: 1, to: path)
        let rows = (count + 2) / 3
        #expect(image.width == 360)
        #expect(image.height == 100 + rows * 152 - 12 + 20)
        let pixels = try ImageDecoder.decode(contentsOf: path, limits: ImageLimits(maxSide: 1 << 16, maxDecodedBytes: 64 << 20))
        #expect(pixels.width == image.width && pixels.height == image.height && pixels.isOpaque)
        // The last card is drawn (card colour at its lower edge), and nothing beyond the last item.
        let lastIndex = count - 1
        let lastColumn = lastIndex % 3
        let lastTop = 100 + (lastIndex / 3) * 152
        #expect(pixels.color(x: 18 + lastColumn * 112 + 50, y: lastTop + 136) == CollectionTemplate.cardColor)
        if lastColumn < 2 {
            #expect(pixels.color(x: 18 + 2 * 112 + 50, y: lastTop + 136) == CollectionTemplate.backgroundColor)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["collection.png"], "no partial files left")
    }

    @Test func collectionHeaderShowsProgressAndTheStreak() throws {
        let directory = try TemporaryDirectory()
        var content = Self.collection(count: 4)
        content.progress = CollectionProgress(collected: 12, total: 18, currentStreakWeeks: 5, longestStreakWeeks: 9)
        let path = directory.file("collection-progress-2x.png")
        let image = try Renderer(settings: BuiltInSettings.render()).renderCollection(content, scale: 2, to: path)
        #expect(image.height == (146 + 2 * 152 - 12 + 20) * 2)
        let png = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let pixels = try ImageDecoder.decode(png, name: "collection-progress-2x", limits: BuiltInSettings.render().limits)
        // The bar is filled two thirds of the way (12 of 18) and shows its track after that.
        let bar = CollectionTemplate.progressBar
        let barMiddle = Int((bar.top + bar.height / 2) * 2)
        #expect(pixels.color(x: Int((18 + 324 * 0.6) * 2), y: barMiddle) == bar.fill)
        #expect(pixels.color(x: Int((18 + 324 * 0.72) * 2), y: barMiddle) == bar.track)
        try GoldenImage.check(png, named: "collection-progress-2x")
        #expect(CollectionTemplate.streakText(content.progress!) == "🔥 5-week streak · best 9")
        #expect(CollectionTemplate.streakText(CollectionProgress(collected: 0, total: 18, currentStreakWeeks: 0, longestStreakWeeks: 1))
            == "Best streak 1 week")
        #expect(CollectionTemplate.collectedText(content.progress!) == "12 of 18 holds collected")
        let renderer = try Renderer(settings: BuiltInSettings.render())
        var longer = content
        longer.progress?.currentStreakWeeks = 6
        #expect(try renderer.collectionKey(content) != (try renderer.collectionKey(longer)), "a longer streak is a new image")
    }

    @Test func emptyCollectionHasAHeaderAndAMessage() throws {
        let directory = try TemporaryDirectory()
        let image = try Renderer(settings: BuiltInSettings.render()).renderCollection(
            CollectionContent(memberName: "New Member", items: [], firstDate: nil, lastDate: nil), scale: 1, to: directory.file("empty.png"))
        #expect(image.height == 180)
    }

    @Test func failedCollectionLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        var content = Self.collection(count: 7)
        content.items[5].holdPath = directory.file("missing-hold.png")
        #expect {
            try Renderer(settings: BuiltInSettings.render()).renderCollection(content, scale: 1, to: directory.file("collection.png"))
        } throws: { error in
            (error as? RenderError)?.description.contains("missing-hold.png") == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func badArtworkFailsTheRenderNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let truncated = try TestImages.write(
            Array(try Data(contentsOf: URL(fileURLWithPath: TestImages.hold)).prefix(5000)), named: "hold.png", in: directory.path)
        var content = Self.content
        content.holdPath = truncated
        #expect {
            try Renderer(settings: BuiltInSettings.render()).renderSticker(content)
        } throws: { error in
            let error = error as? RenderError
            return error?.code == "image_truncated" && error?.description.contains(truncated) == true
        }
        #expect(throws: RenderError.self) { try Renderer(settings: BuiltInSettings.render()).renderSticker(Self.content, scale: 4) }
    }

    @Test func formatsTheDateInTheMeetupsZoneAndTheClubsLocale() throws {
        // 2026-11-28 15:30 UTC is already Sunday the 29th in Seoul.
        let instant = Date(timeIntervalSince1970: 1_795_879_800)
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        #expect(StickerContent.formatDate(instant, timeZone: seoul, locale: Locale(identifier: "ko_KR")) == "2026.11.29 (일)")
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(StickerContent.formatDate(instant, timeZone: utc, locale: Locale(identifier: "en_US")) == "2026.11.28 (Sat)")
    }

    @Test func contentKeysChangeExactlyWhenTheImageWould() throws {
        let directory = try TemporaryDirectory()
        let renderer = try Renderer(settings: BuiltInSettings.render())
        let copy = directory.file("hold.png")
        try FileManager.default.copyItem(atPath: TestImages.hold, toPath: copy)
        var content = Self.content
        content.holdPath = copy
        let key = try renderer.stickerKey(content)
        #expect(try renderer.stickerKey(content) == key)
        #expect(key.digest.count == 64)
        // A copy of the same artwork elsewhere, or a touched file, is the same image.
        let second = directory.file("same-hold.png")
        try FileManager.default.copyItem(atPath: TestImages.hold, toPath: second)
        var moved = content
        moved.holdPath = second
        #expect(try renderer.stickerKey(moved) == key)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: copy)
        #expect(try renderer.stickerKey(content) == key)
        // Everything that changes pixels changes the key.
        var other = content
        other.place = "더클라임 신림점"
        #expect(try renderer.stickerKey(other) != key)
        other = content
        other.date = "2026.11.30 (월)"
        #expect(try renderer.stickerKey(other) != key)
        #expect(try renderer.stickerKey(content, scale: 2) != key)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: copy)))
        bytes[bytes.count - 20] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        #expect(try renderer.stickerKey(content) != key)
        // The story's key covers its colours and format, and differs from the sticker's.
        let story = try renderer.storyKey(Self.content, colors: Self.colors)
        #expect(story != (try renderer.stickerKey(Self.content)))
        #expect(story != (try renderer.storyKey(Self.content, colors: StoryColors(top: .black, bottom: .white))))
        #expect(story != (try renderer.storyKey(Self.content, colors: Self.colors, format: .jpeg(quality: 90))))
        #expect(try renderer.collectionKey(Self.collection(count: 4)) != (try renderer.collectionKey(Self.collection(count: 5))))
        #expect(Template.rewardImagesVersion == Template.holdSticker.version + Template.story.version)
    }

    @Test func severalRenderersAtOnceDrawTheSameSticker() throws {
        let reference = try Renderer(settings: BuiltInSettings.render()).renderSticker(Self.content, scale: 1).bytes
        let outputs = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let renderer = try? Renderer(settings: BuiltInSettings.render()), let sticker = try? renderer.renderSticker(Self.content, scale: 1) else { return }
            outputs.withLock { $0.append(sticker.bytes) }
        }
        #expect(outputs.withLock { $0.count } == 4)
        #expect(outputs.withLock { $0.allSatisfy { $0 == reference } })
    }

    static func collection(count: Int) -> CollectionContent {
        let places = ["더클라임 강남점", "서울숲 클라이밍 🧗", "Gangnam Boulders", "손상원클라이밍짐 을지로 본점"]
        var items: [CollectionItem] = []
        for index in 0..<count {
            // Real hold artworks, and a tall background to check fitting of any shape.
            let artworks = [TestImages.hold, TestImages.fixture("jug-gold.png"), TestImages.fixture("sloper-teal.png"), TestImages.background]
            let artwork = artworks[index % artworks.count]
            let date = String(format: "2026.%02d.%02d", index % 12 + 1, index % 28 + 1)
            items.append(CollectionItem(holdPath: artwork, place: places[index % places.count], date: date))
        }
        return CollectionContent(
            memberName: "김민지 Minji", items: items, firstDate: items.first?.date, lastDate: items.last?.date)
    }
}
