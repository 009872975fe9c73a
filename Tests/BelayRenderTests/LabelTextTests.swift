import Foundation
import BelayTestSupport
import Testing
@testable import BelayRender

/// Issue 28's text defects, each on the chain where it showed: where Korean lines break,
/// decomposed names, the ellipsis of a right-to-left line, characters no font has, and the
/// script reported for emoji.
struct LabelTextTests {
    /// The chain before Inter led it: NanumGothic first, where the NFD and ellipsis defects showed.
    static let nanumFirst = FontSettings(
        bold: "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf", regular: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        fallbacks: BuiltInSettings.render().fonts.fallbacks, emoji: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", lastResort: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    static let chains: [FontSettings] = [BuiltInSettings.render().fonts, nanumFirst]

    /// The sticker's place label at 3x.
    static let placeStyle = TextStyle(weight: .bold, pixelSize: 72, language: "ko_KR")
    static let placeFit = LabelFit(maxWidth: 640, minimumScale: 0.75, maxLines: 2)

    @Test(arguments: chains)
    func koreanLinesBreakBetweenWords(fonts: FontSettings) throws {
        let engine = try TextEngine(fonts: fonts)
        let places = [
            "손상원클라이밍짐 서울특별시 강남구 테헤란로점",
            "더클라임 클라이밍짐 서울특별시 강남구 본점",
            "클라이밍파크 종로점 서울특별시 종로구 본관",
            "서울특별시 강남구 테헤란로 더클라임 클라이밍 강남점 본관 3층",
        ]
        for place in places {
            let label = try engine.layoutLabel(place, style: Self.placeStyle, fit: Self.placeFit)
            #expect(label.isWrapped, "\(place) should take two lines")
            let first = label.lines[0].text
            let words = place.split(separator: " ").map(String.init)
            // The first line is whole words: the place starts with it followed by a space.
            #expect(place.hasPrefix(first + " "), "'\(first)' / '\(label.lines[1].text)' breaks inside a word")
            #expect(words.contains(String(first.split(separator: " ").last ?? "")))
        }
    }

    @Test func aKoreanWordLongerThanTheLineStillBreaksInside() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let place = "서울특별시강남구테헤란로더클라임클라이밍강남점본관"
        let label = try engine.layoutLabel(place, style: Self.placeStyle, fit: Self.placeFit)
        #expect(label.isWrapped)
        #expect(label.lines[0].width <= 640 && label.lines[0].width > 500, "the first line is filled")
        #expect(place.hasPrefix(label.lines[0].text))
    }

    @Test(arguments: chains)
    func aDecomposedNameIsSetInOneFontLikeThePrecomposedOne(fonts: FontSettings) throws {
        let engine = try TextEngine(fonts: fonts)
        let precomposed = "Café Zürich"
        let decomposed = precomposed.decomposedStringWithCanonicalMapping
        #expect(Array(decomposed.unicodeScalars) != Array(precomposed.unicodeScalars))
        for weight in [FontWeight.bold, .regular] {
            let style = TextStyle(weight: weight, pixelSize: 72, language: "ko_KR")
            let nfd = try engine.layout(decomposed, style: style)
            let nfc = try engine.layout(precomposed, style: style)
            #expect(Set(nfd.runs.map(\.font)).count == 1, "fonts \(nfd.runs.map(\.font))")
            #expect(nfd.runs.map(\.font) == nfc.runs.map(\.font))
            #expect(engine.glyphIDs(nfd).map(\.id) == engine.glyphIDs(nfc).map(\.id))
            #expect(nfd.width == nfc.width)
        }
    }

    @Test(arguments: chains)
    func theEllipsisOfAnArabicLineSitsOnItsBaseline(fonts: FontSettings) throws {
        let engine = try TextEngine(fonts: fonts)
        let place = "صالة التسلق الكبرى في مدينة الرياض للمبتدئين والمحترفين والعائلات"
        let label = try engine.layoutLabel(place, style: TextStyle(weight: .bold, pixelSize: 72, language: "ar"), fit: Self.placeFit)
        #expect(label.isEllipsised)
        let last = try #require(label.lines.last)
        let ellipsisIndex = Array(last.text).count - 1
        #expect(Array(last.text).last == "…")
        let ellipsis = try #require(engine.inkBounds(last).enumerated().first { last.glyphs[$0.offset].character == ellipsisIndex })
        // The dots' lowest ink is on the baseline (a pixel or two of anti-aliasing either side),
        // not 15–22 px above it as NanumGothic's are.
        #expect(abs(ellipsis.element.bottom) <= 3, "the ellipsis' ink ends \(ellipsis.element.bottom) px above the baseline")
    }

    @Test(arguments: ["Crag \u{13000} Hall", "Crag \u{13000}\u{13001} Hall", "\u{13000} Crag Hall", "Crag Hall \u{13000}"])
    func aCharacterNoFontHasTakesItsSpaceAlong(text: String) throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let label = try engine.layoutLabel(text, style: Self.placeStyle, fit: Self.placeFit)
        #expect(!label.missingCharacters.isEmpty)
        #expect(label.lines.map(\.text) == ["Crag Hall"])
        let reference = try engine.layout("Crag Hall", style: Self.placeStyle)
        #expect(label.lines[0].width == reference.width)
    }

    @Test func spacesTheTextItselfDoublesAreKept() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        #expect(try engine.layout("Crag  Hall", style: Self.placeStyle).text == "Crag  Hall")
    }

    @Test(arguments: chains)
    func anEmojiRunIsCommonNotTheScriptBesideIt(fonts: FontSettings) throws {
        let engine = try TextEngine(fonts: fonts)
        for text in ["Boulder 🧗 Gym", "Boulder 🧗‍♀️", "🧗 Boulder", "더클라임 🧗 강남"] {
            let line = try engine.layout(text, style: Self.placeStyle)
            let characters = Array(line.text)
            let emojiRuns = line.runs.filter { run in characters[run.range].contains { $0.unicodeScalars.first?.properties.isEmojiPresentation == true } }
            #expect(!emojiRuns.isEmpty)
            #expect(emojiRuns.allSatisfy { $0.script == "Zyyy" }, "\(text): \(line.runs.map(\.script))")
            // The words keep their own scripts.
            let wordScripts = Set(line.runs.filter { !emojiRuns.contains($0) }.map(\.script))
            #expect(wordScripts.isSubset(of: ["Latn", "Hang"]), "\(text): \(line.runs.map(\.script))")
        }
    }
}
