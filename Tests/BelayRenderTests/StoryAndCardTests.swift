import BelayTestSupport
import Foundation
import Testing
@testable import BelayRender

/// The story and the share card around the sticker: the achievement line and the club's mark
/// are drawn inside the Stories safe zones and are part of the content keys, exactly where
/// they show.
struct StoryAndCardTests {
    static var content: StickerContent {
        var content = TemplateTests.content
        content.clubName = "더클라임 클라이밍 클럽"
        content.holdName = "골드 저그"
        content.achievement = "12번째 체크인 · 5주 연속"
        return content
    }

    @Test func theAchievementLineIsInTheStoryAndCardKeysButNotTheStickers() throws {
        let renderer = try Renderer(settings: BuiltInSettings.render())
        var other = Self.content
        other.achievement = "13번째 체크인 · 5주 연속"
        #expect(try renderer.stickerKey(other) == (try renderer.stickerKey(Self.content)))
        #expect(try renderer.storyKey(other, colors: TemplateTests.colors) != (try renderer.storyKey(Self.content, colors: TemplateTests.colors)))
        let card = ShareCardContent(sticker: Self.content, holdName: "골드 저그", clubName: "더클라임")
        let otherCard = ShareCardContent(sticker: other, holdName: "골드 저그", clubName: "더클라임")
        #expect(try renderer.shareCardKey(otherCard, colors: TemplateTests.colors) != (try renderer.shareCardKey(card, colors: TemplateTests.colors)))
        other.achievement = Self.content.achievement
        #expect(try renderer.storyKey(other, colors: TemplateTests.colors) == (try renderer.storyKey(Self.content, colors: TemplateTests.colors)))
    }

    @Test func theClubsLogoIsDrawnAndItsContentIsInTheKey() throws {
        let directory = try TemporaryDirectory()
        let logo = directory.file("logo.png")
        var red = Pixmap(width: 90, height: 90)
        red.fill(Color(red: 0xFF, green: 0, blue: 0))
        try Data(try PNGEncoder().encode(red, as: .rgba)).write(to: URL(fileURLWithPath: logo))
        let renderer = try Renderer(settings: BuiltInSettings.render())
        var content = Self.content
        let monogramKey = try renderer.storyKey(content, colors: TemplateTests.colors)
        content.clubLogoPath = logo
        let logoKey = try renderer.storyKey(content, colors: TemplateTests.colors)
        #expect(logoKey != monogramKey)
        let story = try ImageDecoder.decode(try renderer.renderStory(content, colors: TemplateTests.colors).bytes, name: "story", limits: BuiltInSettings.render().limits)
        // The red mark sits in the club's row, left of the name, below the safe zone.
        let rows = Int(StoryTemplate.clubRow.top)..<Int(StoryTemplate.clubRow.top + StoryTemplate.markSide)
        let redPixels = rows.reduce(0) { count, y in
            count + (0..<1080).filter { story.color(x: $0, y: y) == Color(red: 0xFF, green: 0, blue: 0) }.count
        }
        #expect(redPixels >= 60 * 60)
        // Another logo file with other pixels is another story.
        red.fill(Color(red: 0, green: 0, blue: 0xFF))
        try Data(try PNGEncoder().encode(red, as: .rgba)).write(to: URL(fileURLWithPath: logo))
        #expect(try Renderer(settings: BuiltInSettings.render()).storyKey(content, colors: TemplateTests.colors) != logoKey)
    }

    @Test func aKoreanCardMatchesItsGolden() throws {
        let card = ShareCardContent(sticker: Self.content, holdName: "골드 저그", clubName: "더클라임 클라이밍 클럽")
        let image = try Renderer(settings: BuiltInSettings.render()).renderShareCard(card, colors: TemplateTests.colors)
        #expect(image.width == 1200 && image.height == 630)
        #expect(image.labels.map(\.name) == ["place", "date", "achievement", "hold", "place", "date", "club"])
        try GoldenImage.check(image.bytes, named: "card-korean")
    }

    @Test func aRightToLeftClubNameHasItsMarkOnTheRight() {
        let leftToRight = ClubMark.row(nameWidth: 300, markSide: 64, gap: 20, centerX: 540, rightToLeft: false)
        let rightToLeft = ClubMark.row(nameWidth: 300, markSide: 64, gap: 20, centerX: 540, rightToLeft: true)
        #expect(leftToRight.markX < leftToRight.nameX)
        #expect(rightToLeft.markX > rightToLeft.nameX + 300 - 1)
        #expect(leftToRight.markX == rightToLeft.nameX, "the row stays centred")
    }
}
