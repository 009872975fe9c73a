import BelayTestSupport
import Testing
@testable import BelayRender

/// Stickers whose place names are in every script the club's members write, against golden
/// images; each states what it took to fit the name and which script each run is.
struct ScriptGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var place: String
        var language: String
        /// ISO 15924 codes the runs must include.
        var scripts: Set<String>
        var shrunk = false
        var wrapped = false
        var ellipsised = false
        var direction = TextDirection.leftToRight
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "korean", place: "더클라임 강남점", language: "ko_KR", scripts: ["Hang"]),
        Case(name: "japanese", place: "ボルダリングジム 渋谷", language: "ja_JP", scripts: ["Kana", "Hani"], shrunk: true),
        Case(name: "chinese-simplified", place: "北京攀岩馆 朝阳区", language: "zh_CN", scripts: ["Hani"]),
        Case(name: "chinese-traditional", place: "台北攀岩館 大安區", language: "zh_TW", scripts: ["Hani"]),
        Case(name: "arabic", place: "صالة التسلق", language: "ar", scripts: ["Arab"], direction: .rightToLeft),
        Case(name: "hebrew", place: "קיר טיפוס תל אביב", language: "he", scripts: ["Hebr"], direction: .rightToLeft),
        Case(name: "thai", place: "ยิมปีนผา กรุงเทพ", language: "th", scripts: ["Thai"]),
        Case(name: "devanagari", place: "मुंबई क्लाइंबिंग", language: "hi", scripts: ["Deva"]),
        Case(name: "emoji-zwj-skin-tone", place: "🧗🏽‍♀️ 볼더링 👨‍👩‍👧", language: "ko_KR", scripts: ["Hang"]),
        Case(name: "mixed-korean-latin-emoji", place: "더클라임 🧗‍♀️ Boulder 강남", language: "ko_KR", scripts: ["Hang", "Latn"], shrunk: true),
        Case(name: "mixed-arabic-digits-latin", place: "Climb صالة 2", language: "ar", scripts: ["Latn", "Arab"]),
        Case(name: "korean-shrinks", place: "더클라임 클라이밍 강남", language: "ko_KR", scripts: ["Hang"], shrunk: true),
        Case(name: "korean-wraps", place: "더클라임 클라이밍 강남점 본관", language: "ko_KR", scripts: ["Hang"], shrunk: true, wrapped: true),
        Case(
            name: "korean-ellipsises", place: "서울특별시 강남구 테헤란로 더클라임 클라이밍 강남점 본관 3층", language: "ko_KR",
            scripts: ["Hang"], shrunk: true, wrapped: true, ellipsised: true),
        Case(
            name: "arabic-ellipsises", place: "صالة التسلق الكبرى في مدينة الرياض للمبتدئين والمحترفين والعائلات", language: "ar",
            scripts: ["Arab"], shrunk: true, wrapped: true, ellipsised: true, direction: .rightToLeft),
    ]

    @Test(arguments: cases)
    func placeNameMatchesItsGolden(_ testCase: Case) throws {
        var content = TemplateTests.content
        content.place = testCase.place
        content.language = testCase.language
        let sticker = try Renderer(settings: BuiltInSettings.render()).renderSticker(content, scale: 2)
        #expect(sticker.warnings.isEmpty, "\(sticker.warnings)")
        let place = try #require(sticker.labels.first { $0.name == "place" })
        #expect(place.missingCharacters.isEmpty)
        #expect(place.isShrunk == testCase.shrunk)
        #expect(place.isWrapped == testCase.wrapped)
        #expect(place.isEllipsised == testCase.ellipsised)
        #expect(place.direction == testCase.direction)
        let scripts = Set(place.lines.flatMap { $0.runs.map(\.script) })
        #expect(testCase.scripts.isSubset(of: scripts), "runs are \(scripts)")
        if testCase.ellipsised {
            #expect(place.lines.last?.text.hasSuffix("…") == true)
        }
        try GoldenImage.check(sticker.bytes, named: "script-\(testCase.name)-2x")
    }

    /// Every character of each golden's place name is drawn with ink, and no glyph is .notdef.
    @Test(arguments: cases)
    func everyGlyphOfThePlaceNameHasInk(_ testCase: Case) throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let label = try engine.layoutLabel(
            testCase.place, style: TextStyle(weight: .bold, pixelSize: 48, language: testCase.language),
            fit: LabelFit(maxWidth: 426, minimumScale: 0.75, maxLines: 2))
        for line in label.lines {
            let characters = Array(line.text)
            let ink = engine.glyphInk(line)
            #expect(!line.glyphs.isEmpty)
            var inkPerCharacter = [Int](repeating: 0, count: characters.count)
            for (glyph, inked) in zip(line.glyphs, ink) {
                #expect(glyph.id != 0, "'\(characters[glyph.character])' is .notdef in \(testCase.name)")
                inkPerCharacter[glyph.character] += inked
            }
            // Per grapheme: shaping may add an empty placeholder glyph inside a cluster
            // (Noto Sans Devanagari does for a reordered vowel sign), never an empty cluster.
            for (index, character) in characters.enumerated() where !character.isWhitespace {
                #expect(inkPerCharacter[index] > 0, "'\(character)' in \(testCase.name) has no ink")
            }
        }
    }
}
