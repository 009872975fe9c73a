import CHarfBuzz
import CFreeType
import BelayTestSupport
import Testing
@testable import BelayRender

/// Right-to-left text comes out as HarfBuzz itself shapes it: joined and in visual order.
struct BidiShapingTests {
    static let arabicBold = "/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf"

    /// HarfBuzz's own glyph ids for `text` in `path` at `size`, right to left, in visual order.
    static func harfBuzzGlyphs(_ text: String, path: String, size: Double) throws -> [UInt32] {
        var started: FT_Library?
        #expect(FT_Init_FreeType(&started) == 0)
        let library = try #require(started)
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        #expect(FT_New_Face(library, path, 0, &face) == 0)
        let ftFace = try #require(face)
        FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(size * 64), 72, 72)
        let font = hb_ft_font_create_referenced(ftFace)
        defer { hb_font_destroy(font) }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { hb_buffer_add_utf8(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count)) }
        }
        hb_buffer_set_direction(buffer, HB_DIRECTION_RTL)
        hb_buffer_set_script(buffer, HB_SCRIPT_ARABIC)
        hb_buffer_set_language(buffer, hb_language_from_string("ar", -1))
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = try #require(hb_buffer_get_glyph_infos(buffer, &count))
        return (0..<Int(count)).map { infos[$0].codepoint }
    }

    @Test func arabicRunIsJoinedAndRightToLeftAsHarfBuzzShapesIt() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let text = "صالة التسلق"
        let line = try engine.layout(text, style: TextStyle(weight: .bold, pixelSize: 48, language: "ar"))
        let glyphs = engine.glyphIDs(line)
        #expect(glyphs.allSatisfy { $0.font == Self.arabicBold })
        let expected = try Self.harfBuzzGlyphs(text, path: Self.arabicBold, size: 48)
        #expect(glyphs.map(\.id) == expected)
        // Joined: contextual forms differ from the isolated letters shaped one by one.
        let isolated = try text.map { try Self.harfBuzzGlyphs(String($0), path: Self.arabicBold, size: 48) }.flatMap { $0 }
        #expect(Set(expected) != Set(isolated))
        #expect(line.runs.map(\.direction) == [.rightToLeft])
        // The first logical letter is drawn rightmost.
        let first = line.glyphs.filter { $0.character == 0 }.map(\.x)
        #expect(try #require(first.min()) > line.width / 2)
    }

    @Test func rightToLeftLabelIsEllipsisedOnTheLeft() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let text = "صالة التسلق الكبرى في مدينة الرياض للمبتدئين والمحترفين والعائلات"
        let label = try engine.layoutLabel(
            text, style: TextStyle(weight: .bold, pixelSize: 48, language: "ar"),
            fit: LabelFit(maxWidth: 426, minimumScale: 0.75, maxLines: 2))
        #expect(label.direction == .rightToLeft && label.isWrapped && label.isEllipsised)
        let last = try #require(label.lines.last)
        #expect(last.width <= 426)
        let ellipsis = Array(last.text).count - 1
        #expect(Array(last.text)[ellipsis] == "…")
        let ellipsisX = try #require(last.glyphs.filter { $0.character == ellipsis }.map(\.x).max())
        let textX = try #require(last.glyphs.filter { $0.character != ellipsis }.map(\.x).min())
        #expect(ellipsisX < textX, "the ellipsis ends a right-to-left line on its left")
        // The first line starts the text; the second goes on from where it broke, at a space.
        let first = Array(label.lines[0].text)
        #expect(Array(text).starts(with: first))
        #expect(Array(text)[first.count] == " ")
    }

    @Test func mixedLineKeepsEachRunInItsOwnDirection() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let line = try engine.layout("Climb صالة 2", style: TextStyle(weight: .bold, pixelSize: 48, language: "ar"))
        let directions = line.runs.map { "\($0.script):\($0.direction.rawValue)" }
        #expect(line.runs.first?.script == "Latn" && line.runs.first?.direction == .leftToRight, "\(directions)")
        #expect(line.runs.contains { $0.script == "Arab" && $0.direction == .rightToLeft }, "\(directions)")
        // "Climb" (characters 0–4) is drawn left of the Arabic word (6–9), and reads left to right.
        let x = { (index: Int) in line.glyphs.first { $0.character == index }?.x ?? -1 }
        #expect(x(0) < x(4) && x(4) < x(6))
        #expect(x(6) > x(9), "the Arabic word reads right to left")
    }
}

/// Line-break opportunities follow UAX #14 (libunibreak).
struct LineBreakTests {
    @Test func breaksBetweenWordsAndBetweenHangulAndKanaButNotInsideLatinWords() {
        let latin = LineBreaks.opportunities(Array("Rock Gym"), language: "en")
        #expect(latin.enumerated().filter(\.element).map(\.offset) == [5])
        let hangul = LineBreaks.opportunities(Array("강남점"), language: "ko")
        #expect(hangul == [false, true, true])
        let kana = LineBreaks.opportunities(Array("ジム渋谷"), language: "ja")
        #expect(kana == [false, true, true, true])
    }

    @Test func flagsDoNotStopTheBreaker() {
        let breaks = LineBreaks.opportunities(Array("Seoul 🇰🇷 강남"), language: "ko")
        #expect(breaks.count == 10)
        #expect(breaks[6] && breaks[8], "before the flag and after its space")
    }
}
