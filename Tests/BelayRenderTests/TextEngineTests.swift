import Dispatch
import Synchronization
import BelayTestSupport
import Testing
@testable import BelayRender

struct TextEngineTests {
    let bold72 = TextStyle(weight: .bold, pixelSize: 72)

    /// Pixels with any alpha in `pixmap`.
    private func inkedPixels(_ pixmap: Pixmap) -> Int {
        stride(from: 3, to: pixmap.bytes.count, by: 4).reduce(0) { $0 + (pixmap.bytes[$1] > 0 ? 1 : 0) }
    }

    @Test func ellipsisesALongKoreanPlaceAtAGraphemeBoundary() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let place = "서울특별시 강남구 테헤란로 더클라임 클라이밍 강남점 본관 3층"
        let line = try engine.layout(place, style: bold72, maxWidth: 640)
        #expect(line.isTruncated)
        #expect(line.width <= 640)
        #expect(line.width > 560, "the cut should use most of the room, not stop early")
        #expect(line.text.hasSuffix("…"))
        let kept = Array(line.text.dropLast())
        #expect(Array(place).starts(with: kept), "kept text is whole characters of the original")
        #expect(kept.last?.isWhitespace == false)

        let short = try engine.layout("더클라임 강남점", style: bold72, maxWidth: 640)
        #expect(!short.isTruncated && short.text == "더클라임 강남점")
    }

    @Test func neverCutsInsideAClusterWithCombiningMarksOrEmojiSequences() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        // e + combining acute, a ZWJ family, a flag and conjoining Hangul jamo (ᄀ + ᅡ + ᆨ = 각).
        let text = "Cafe\u{301} 👨‍👩‍👧 🇰🇷 \u{1100}\u{1161}\u{11A8} Cafe\u{301} 👨‍👩‍👧 🇰🇷"
        for maxWidth in stride(from: 60.0, through: 600, by: 37) {
            let line = try engine.layout(text, style: TextStyle(weight: .bold, pixelSize: 40), maxWidth: maxWidth)
            #expect(line.width <= maxWidth || Array(line.text) == ["…"], "\(maxWidth): \(line.width)")
            let kept = Array(line.isTruncated ? String(line.text.dropLast()) : line.text)
            #expect(Array(text).starts(with: kept), "\(maxWidth): \(line.text)")
        }
    }

    @Test func everyGlyphOfMixedKoreanLatinAndEmojiHasInk() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let text = "더클라임 Gangnam 🧗‍♀️ 강남점 café 👍🏽"
        let line = try engine.layout(text, style: bold72)
        #expect(line.missingCharacters.isEmpty)
        #expect(line.glyphs.allSatisfy { $0.id != 0 }, "no .notdef boxes")
        for character in text where !character.isWhitespace {
            var canvas = Pixmap(width: 200, height: 160)
            let single = try engine.layout(String(character), style: bold72)
            engine.draw(single, in: &canvas, x: 20, baseline: 110, color: .white)
            #expect(inkedPixels(canvas) > 80, "'\(character)' drew no ink")
        }
        // The emoji keep their own colours.
        var canvas = Pixmap(width: 200, height: 160)
        engine.draw(try engine.layout("🧗‍♀️", style: bold72), in: &canvas, x: 20, baseline: 110, color: .white)
        var colourful = 0
        for y in 0..<160 {
            for x in 0..<200 {
                let color = canvas.color(x: x, y: y)
                if color.alpha == 255 && abs(Int(color.red) - Int(color.blue)) > 60 { colourful += 1 }
            }
        }
        #expect(colourful > 50)
    }

    /// The HTTP layer asks about a meetup's place on every reward it shows: the answers are
    /// kept, and from any thread a text gets the same answer each time.
    @Test func fontCoverageAnswersTheSameForATextAskedAgainFromManyThreads() throws {
        let coverage = try FontCoverage(fonts: BuiltInSettings.render().fonts)
        let texts = ["강남 \u{13000} Gym", "더클라임 강남점", "Boulder \u{13000}\u{13001} Hall 🧗"]
        let expected: [[Character]] = [["\u{13000}"], [], ["\u{13000}", "\u{13001}"]]
        let answers = Mutex<[[Character]]>([])
        DispatchQueue.concurrentPerform(iterations: 60) { index in
            let answer = coverage.missingCharacters(in: texts[index % 3], language: "ko")
            answers.withLock { $0.append(answer) }
            #expect(answer == expected[index % 3], "\(texts[index % 3])")
        }
        #expect(answers.withLock { $0.count } == 60)
        #expect(coverage.missingCharacters(in: "Gym", language: "en").isEmpty)
    }

    @Test func reportsCharactersNoFontHasInsteadOfDrawingBoxes() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let line = try engine.layout("강남 \u{13000} Gym", style: bold72)
        #expect(line.missingCharacters == ["\u{13000}"])
        #expect(line.glyphs.allSatisfy { $0.id != 0 })
        #expect(line.text.contains("Gym"))
    }

    @Test func refusesAMissingFontNamingIt() {
        var fonts = BuiltInSettings.render().fonts
        fonts.emoji = "/nonexistent/NotoColorEmoji.ttf"
        #expect {
            try TextEngine(fonts: fonts)
        } throws: { error in
            let error = error as? RenderError
            return error?.code == "font_unavailable" && error?.description.contains("/nonexistent/NotoColorEmoji.ttf") == true
        }
    }

    @Test func linesAndControlCharactersBecomeOneLine() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        let line = try engine.layout("더클라임\n강남점\t\u{7}", style: bold72)
        #expect(line.text == "더클라임 강남점 ")
    }

    @Test func engineOnEachThreadDrawsTheSamePixels() throws {
        let reference = try Self.drawLabel(try TextEngine(fonts: BuiltInSettings.render().fonts))
        let results = Mutex<[Pixmap]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            guard let engine = try? TextEngine(fonts: BuiltInSettings.render().fonts), let pixmap = try? Self.drawLabel(engine) else { return }
            results.withLock { $0.append(pixmap) }
        }
        #expect(results.withLock { $0.count } == 4)
        #expect(results.withLock { $0.allSatisfy { $0 == reference } })
    }

    @Test func settingTheSameLabelAgainReusesCachedGlyphs() throws {
        let engine = try TextEngine(fonts: BuiltInSettings.render().fonts)
        _ = try Self.drawLabel(engine)
        let cached = engine.cachedGlyphCount
        #expect(cached > 0)
        _ = try Self.drawLabel(engine)
        #expect(engine.cachedGlyphCount == cached)
    }

    static func drawLabel(_ engine: TextEngine) throws -> Pixmap {
        var pixmap = Pixmap(width: 400, height: 100)
        try engine.drawCentered(
            "더클라임 강남점 🧗", style: TextStyle(weight: .bold, pixelSize: 36), maxWidth: 380, in: &pixmap,
            centerX: 200, baseline: 70, color: .white)
        return pixmap
    }
}
