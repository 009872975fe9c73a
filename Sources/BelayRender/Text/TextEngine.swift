import CFreeType
import CFriBidi
import CHarfBuzz
import CRaqm
import Foundation

/// Lays out and draws labels. libraqm itemizes the text, applies the bidi algorithm (FriBidi)
/// and shapes each run with HarfBuzz; libunibreak finds line-break opportunities; FreeType
/// rasterises. Each grapheme cluster takes its font from the fallback chain by coverage
/// (`FontChain`).
///
/// An engine is not thread-safe (FreeType faces are not): use one per thread. `Renderer`
/// keeps a pool and lends each render its own. Each font file is opened once per engine; laid
/// out labels and rasterised glyphs are cached, so setting a label again costs microseconds.
public final class TextEngine {
    private let library: FT_Library
    private let chain: FontChain
    /// Faces at a size, by index; glyphs of a `TextLine` name them by this index.
    private var faces: [SizedFace] = []
    private var faceIndex: [SizedKey: Int] = [:]
    private var glyphCache: [GlyphKey: GlyphImage] = [:]
    private var labelCache: [LabelKey: TextLabel] = [:]
    private static let labelCacheLimit = 1024

    private struct SizedFace {
        var file: Int
        var pixelSize: Double
        var bitmapScale: Double
    }

    private struct SizedKey: Hashable {
        var file: Int
        var size64: Int
    }

    private struct GlyphKey: Hashable {
        var face: Int
        var glyph: UInt32
        /// Horizontal sub-pixel position in quarters of a pixel.
        var phase: Int
    }

    private struct LabelKey: Hashable {
        var text: String
        var style: TextStyle
        var fit: LabelFit
    }

    /// A rasterised glyph: a coverage mask (outline fonts) or premultiplied colour (emoji),
    /// with its top-left corner relative to the pen position on the baseline.
    private struct GlyphImage {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
        var mask: [UInt8]
        var color: Pixmap?
    }

    /// A character of a label with the font the chain chose for it.
    private struct Item {
        var character: Character
        var font: Int
    }

    /// Checks that every font of the chain can be read; each is opened when first needed.
    /// - Throws: `RenderError` (`font_unavailable`) naming the font that cannot be opened.
    public init(fonts: FontSettings) throws {
        var library: FT_Library?
        let initialised = FT_Init_FreeType(&library)
        guard initialised == 0, let library else {
            throw RenderError(.fontUnavailable(role: "any", path: fonts.regular, detail: "FreeType failed to start (\(initialised))"))
        }
        self.library = library
        do {
            chain = try FontChain(library: library, settings: fonts)
            _ = try chain.primary(.bold)
            _ = try chain.primary(.regular)
        } catch {
            FT_Done_FreeType(library)
            throw error
        }
    }

    deinit {
        faces.removeAll()
        glyphCache.removeAll()
        labelCache.removeAll()
        // The chain's faces must go before the library that made them.
        chain.closeAll()
        FT_Done_FreeType(library)
    }

    // MARK: Layout

    /// Shapes `text` as one line in `style`. Line breaks and tabs become spaces. When
    /// `maxWidth` is given and the text is wider, it is cut at a grapheme-cluster boundary and
    /// ends with "…" (at the end of the text's direction) so that it fits.
    public func layout(_ text: String, style: TextStyle, maxWidth: Double? = nil) throws -> TextLine {
        let fit = LabelFit(maxWidth: maxWidth ?? .infinity)
        return try layoutLabel(text, style: style, fit: fit).lines[0]
    }

    /// Fits `text` into `fit`: at the style's size while it fits; otherwise shrunk in steps
    /// down to the minimum scale; otherwise wrapped onto at most `fit.maxLines` lines at
    /// line-break opportunities (at the minimum size); only then is the last line ellipsised
    /// at a grapheme boundary.
    public func layoutLabel(_ text: String, style: TextStyle, fit: LabelFit) throws -> TextLabel {
        let key = LabelKey(text: text, style: style, fit: fit)
        if let cached = labelCache[key] { return cached }
        let label = try fitLabel(text, style: style, fit: fit)
        if labelCache.count >= Self.labelCacheLimit { labelCache.removeAll(keepingCapacity: true) }
        labelCache[key] = label
        return label
    }

    /// Lays `text` out again without the label cache (shaping, line breaking and font choice
    /// all run; fonts already open and glyphs already rasterised stay so), for measuring.
    func layoutLabelUncached(_ text: String, style: TextStyle, fit: LabelFit) throws -> TextLabel {
        try fitLabel(text, style: style, fit: fit)
    }

    /// The grapheme clusters of `text` that no font of the chain has in `style`'s weight, in
    /// order, once each: what a label of `text` leaves out. Nothing is shaped.
    public func missingCharacters(in text: String, style: TextStyle) throws -> [Character] {
        let characters = Self.clean(text)
        let region = FontChain.region(for: characters, language: style.language)
        var missing: [Character] = []
        var previous: Int?
        for character in characters {
            if let font = try chain.font(for: character, weight: style.weight, previous: previous, region: region) {
                previous = font
            } else if !missing.contains(character) {
                missing.append(character)
            }
        }
        return missing
    }

    /// The ascent and descent in pixels of the primary font of `style`.
    public func verticalMetrics(_ style: TextStyle) throws -> (ascent: Double, descent: Double) {
        let file = try chain.primary(style.weight)
        let scale = try chain.files[file].activate(pixelSize: style.pixelSize)
        return chain.files[file].verticalMetrics(bitmapScale: scale)
    }

    private func fitLabel(_ text: String, style: TextStyle, fit: LabelFit) throws -> TextLabel {
        let characters = Self.clean(text)
        let region = FontChain.region(for: characters, language: style.language)
        let language = FontChain.shapingLanguage(region: region, text: characters, language: style.language)
        var items: [Item] = []
        var missing: [Character] = []
        var previous: Int?
        // A character left out takes the space beside it along: "Crag ? Hall" reads "Crag Hall".
        var leftOut = false
        for character in characters {
            guard let font = try chain.font(for: character, weight: style.weight, previous: previous, region: region) else {
                missing.append(character)
                leftOut = true
                continue
            }
            if leftOut, character.isWhitespace, items.last?.character.isWhitespace ?? true { continue }
            leftOut = false
            items.append(Item(character: character, font: font))
            previous = font
        }
        if leftOut {
            while let last = items.last, last.character.isWhitespace { items.removeLast() }
        }
        let direction = Self.paragraphDirection(items.map(\.character))
        let tracking = style.tracking
        func label(_ lines: [Shaped], size: Double) -> TextLabel {
            TextLabel(
                lines: lines.map { finish($0, missing: missing, direction: direction, language: language) },
                pixelSize: size, lineAdvance: (size * 1.2).rounded(), direction: direction,
                isShrunk: size < style.pixelSize, missingCharacters: missing)
        }
        // Advances scale with the size (hinting aside), so the line at full size tells which
        // step should fit; shaping at that step and below decides.
        var size = style.pixelSize
        var last = try shape(items, pixelSize: size, direction: direction, language: language, tracking: tracking)
        if last.width <= fit.maxWidth || items.isEmpty { return label([last], size: size) }
        let scales = fit.scales
        let firstGuess = scales.firstIndex { $0 < 1 && last.width * $0 <= fit.maxWidth } ?? scales.count - 1
        for scale in scales[max(1, firstGuess)...] {
            size = style.pixelSize * scale
            let line = try shape(items, pixelSize: size, direction: direction, language: language, tracking: tracking)
            if line.width <= fit.maxWidth { return label([line], size: size) }
            last = line
        }
        if size != style.pixelSize * fit.minimumScale {
            size = style.pixelSize * fit.minimumScale
            last = try shape(items, pixelSize: size, direction: direction, language: language, tracking: tracking)
        }
        let full = last
        var rest = items[...]
        var lines: [Shaped] = []
        let breaks = fit.maxLines > 1
            ? LineBreaks.opportunities(items.map(\.character), language: language, keepAll: LineBreaks.keepsWordsWhole(characters))
            : []
        while lines.count < fit.maxLines - 1 {
            guard let end = try firstLineEnd(
                rest, breaks: breaks, full: full, items: items, size: size, direction: direction, language: language,
                tracking: tracking, maxWidth: fit.maxWidth)
            else { break }
            lines.append(end.line)
            rest = rest[end.next...]
            while let first = rest.first, first.character.isWhitespace { rest = rest.dropFirst() }
            if rest.isEmpty { return label(lines, size: size) }
            let remaining = try shape(Array(rest), pixelSize: size, direction: direction, language: language, tracking: tracking)
            if remaining.width <= fit.maxWidth { return label(lines + [remaining], size: size) }
        }
        lines.append(try ellipsised(
            rest, full: full, weight: style.weight, region: region, size: size, direction: direction, language: language,
            tracking: tracking, maxWidth: fit.maxWidth))
        return label(lines, size: size)
    }

    /// The longest first line of `rest` that fits, ending at a break opportunity (or, when no
    /// opportunity leaves a line that fits, at a grapheme boundary); nil when not even one
    /// cluster fits.
    private func firstLineEnd(
        _ rest: ArraySlice<Item>, breaks: [Bool], full: Shaped, items: [Item], size: Double,
        direction: TextDirection, language: String, tracking: Double, maxWidth: Double
    ) throws -> (line: Shaped, next: Int)? {
        let start = rest.startIndex
        var candidates = (start + 1..<rest.endIndex).filter { breaks[$0] }.reversed().map { $0 }
        // Emergency breaks at every cluster, tried only when no opportunity gives a line.
        let emergency = (start + 1..<rest.endIndex).reversed().map { $0 }
        for pass in 0..<2 {
            if pass == 1 { candidates = emergency }
            for end in candidates {
                var trimmed = end
                while trimmed > start, items[trimmed - 1].character.isWhitespace { trimmed -= 1 }
                guard trimmed > start else { continue }
                let estimate = full.advances[start..<trimmed].reduce(0, +)
                if estimate > maxWidth * 1.05 { continue }
                let line = try shape(Array(items[start..<trimmed]), pixelSize: size, direction: direction, language: language, tracking: tracking)
                if line.width <= maxWidth { return (line, end) }
            }
        }
        return nil
    }

    /// `rest` cut at a grapheme boundary with "…" at its logical end, so that it fits.
    private func ellipsised(
        _ rest: ArraySlice<Item>, full: Shaped, weight: FontWeight, region: String, size: Double, direction: TextDirection,
        language: String, tracking: Double, maxWidth: Double
    ) throws -> Shaped {
        let ellipsisFont = try chain.ellipsisFont(weight: weight, previous: rest.last?.font, region: region)
            ?? rest.last?.font ?? chain.primary(weight)
        let ellipsis = Item(character: "…", font: ellipsisFont)
        let ellipsisWidth = try shape([ellipsis], pixelSize: size, direction: direction, language: language, tracking: tracking).width
        // The cluster advances of the full line give the first guess; the reshaped line
        // (joining and kerning may differ at the cut) decides.
        var count = rest.count
        var used = full.advances[rest.startIndex..<rest.endIndex].reduce(0, +)
        while count > 0, used + ellipsisWidth > maxWidth {
            count -= 1
            used -= full.advances[rest.startIndex + count]
        }
        while true {
            var kept = Array(rest.prefix(count))
            while let last = kept.last, last.character.isWhitespace { kept.removeLast() }
            var candidate = try shape(kept + [ellipsis], pixelSize: size, direction: direction, language: language, tracking: tracking)
            if candidate.width <= maxWidth || kept.isEmpty {
                candidate.isTruncated = true
                return candidate
            }
            count = kept.count - 1
        }
    }

    /// A line as shaped, before its runs are described.
    private struct Shaped {
        var glyphs: [TextLine.Glyph]
        var width: Double
        /// Advance of each item, in logical order.
        var advances: [Double]
        var items: [Item]
        var pixelSize: Double
        var isTruncated = false
    }

    private func finish(_ shaped: Shaped, missing: [Character], direction: TextDirection, language: String) -> TextLine {
        TextLine(
            glyphs: shaped.glyphs, width: shaped.width, text: String(shaped.items.map(\.character)),
            isTruncated: shaped.isTruncated, missingCharacters: missing,
            runs: runs(shaped, direction: direction), engineIdentifier: ObjectIdentifier(self))
    }

    /// The text in Unicode Normalization Form C (a decomposed "e\u{301}" is set as the "é" every
    /// font has, not taken from whichever font has the combining mark); control characters go;
    /// line breaks and tabs become spaces.
    static func clean(_ text: String) -> [Character] {
        text.precomposedStringWithCanonicalMapping.compactMap { character -> Character? in
            if character.isNewline || character == "\t" { return " " }
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return nil }
            return character
        }
    }

    /// Shapes `items` as one line with raqm: bidi, script itemization and HarfBuzz shaping,
    /// each cluster in its chosen font.
    private func shape(_ items: [Item], pixelSize: Double, direction: TextDirection, language: String, tracking: Double) throws -> Shaped {
        var shaped = Shaped(glyphs: [], width: 0, advances: Array(repeating: 0, count: items.count), items: items, pixelSize: pixelSize)
        guard !items.isEmpty else { return shaped }
        var utf8: [UInt8] = []
        var starts: [Int] = []
        for item in items {
            starts.append(utf8.count)
            utf8.append(contentsOf: String(item.character).utf8)
        }
        guard let layout = raqm_create() else { throw RenderError(.invalidRequest(detail: "raqm could not start")) }
        defer { raqm_destroy(layout) }
        let textSet = utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { raqm_set_text_utf8(layout, $0.baseAddress, $0.count) }
        }
        _ = raqm_set_par_direction(layout, direction == .rightToLeft ? RAQM_DIRECTION_RTL : RAQM_DIRECTION_LTR)
        _ = language.withCString { raqm_set_language(layout, $0, 0, utf8.count) }
        // Each run of items in one font gets that font's face, at this size.
        var runStart = 0
        var faceOf: [Int: Int] = [:]
        for index in items.indices where index + 1 == items.count || items[index + 1].font != items[index].font {
            let file = items[index].font
            let sized = try sizedFace(file: file, pixelSize: pixelSize)
            faceOf[file] = sized
            let byteStart = starts[runStart]
            let byteEnd = index + 1 < items.count ? starts[index + 1] : utf8.count
            _ = raqm_set_freetype_face_range(layout, chain.files[file].face, byteStart, byteEnd - byteStart)
            runStart = index + 1
        }
        for (file, sized) in faceOf { try chain.files[file].activate(pixelSize: faces[sized].pixelSize) }
        guard textSet, raqm_layout(layout) else {
            throw RenderError(.invalidRequest(detail: "raqm could not lay out \"\(String(items.map(\.character)))\""))
        }
        var count = 0
        guard let glyphs = raqm_get_glyphs(layout, &count) else { return shaped }
        var penX = 0.0
        shaped.glyphs.reserveCapacity(count)
        let buffer = UnsafeBufferPointer(start: glyphs, count: count)
        let tracks = tracking == 0 ? [] : items.map { Self.isTracked($0, isColor: chain.files[$0.font].isColor) }
        for (position, glyph) in buffer.enumerated() {
            guard let face = glyph.ftface, let file = chain.index(of: face), let sized = faceOf[file] else { continue }
            let scale = faces[sized].bitmapScale / 64
            var advance = Double(glyph.x_advance) * scale
            // The cluster is the UTF-8 offset of the character the glyph belongs to.
            let item = Self.lastIndex(in: starts, atMost: Int(glyph.cluster))
            shaped.glyphs.append(
                TextLine.Glyph(
                    face: sized, id: UInt32(glyph.index), character: item,
                    x: penX + Double(glyph.x_offset) * scale, y: -Double(glyph.y_offset) * scale))
            // Tracking goes between clusters, after the last glyph of a tracked one.
            if !tracks.isEmpty, tracks[item], position + 1 < count,
                Self.lastIndex(in: starts, atMost: Int(buffer[position + 1].cluster)) != item {
                advance += tracking * pixelSize
            }
            penX += advance
            shaped.advances[item] += advance
        }
        shaped.width = penX
        return shaped
    }

    /// Whether tracking applies after `item`: clusters of scripts whose letters stand apart
    /// (Latin, Greek, Cyrillic, Hangul, Han, kana, and common characters), not emoji, not joined
    /// or headstroke scripts (Arabic, Devanagari, …) whose letters tracking would pull apart.
    private static func isTracked(_ item: Item, isColor: Bool) -> Bool {
        guard !isColor else { return false }
        return item.character.unicodeScalars.allSatisfy { scalar in
            switch FontChain.script(scalar) {
            case HB_SCRIPT_COMMON, HB_SCRIPT_INHERITED, HB_SCRIPT_LATIN, HB_SCRIPT_GREEK, HB_SCRIPT_CYRILLIC, HB_SCRIPT_HANGUL,
                HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA, HB_SCRIPT_BOPOMOFO:
                true
            default: false
            }
        }
    }

    /// The index of the last element of the sorted `starts` that is at most `value`.
    private static func lastIndex(in starts: [Int], atMost value: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= value { low = middle } else { high = middle - 1 }
        }
        return low
    }

    private func sizedFace(file: Int, pixelSize: Double) throws -> Int {
        let key = SizedKey(file: file, size64: Int((pixelSize * 64).rounded()))
        if let known = faceIndex[key] { return known }
        let scale = try chain.files[file].activate(pixelSize: pixelSize)
        faces.append(SizedFace(file: file, pixelSize: pixelSize, bitmapScale: scale))
        faceIndex[key] = faces.count - 1
        return faces.count - 1
    }

    /// The direction of a paragraph: that of its first strong character (FriBidi), left to
    /// right when it has none.
    static func paragraphDirection(_ characters: [Character]) -> TextDirection {
        let scalars = characters.flatMap { $0.unicodeScalars.map(\.value) }
        var levels = [UInt8](repeating: 0, count: scalars.count)
        let resolved = belay_fribidi_levels(scalars, Int32(scalars.count), 0, &levels)
        return resolved == 2 ? .rightToLeft : .leftToRight
    }

    /// Describes a shaped line's runs: consecutive characters of one script (HarfBuzz's
    /// Unicode data; common characters join the run they sit in), one bidi direction
    /// (FriBidi's embedding levels in the paragraph's direction) and one font.
    private func runs(_ shaped: Shaped, direction: TextDirection) -> [TextRun] {
        let items = shaped.items
        guard !items.isEmpty else { return [] }
        var scalars: [UInt32] = []
        var firstScalar: [Int] = []
        for item in items {
            firstScalar.append(scalars.count)
            scalars.append(contentsOf: item.character.unicodeScalars.map(\.value))
        }
        var levels = [UInt8](repeating: 0, count: scalars.count)
        _ = belay_fribidi_levels(scalars, Int32(scalars.count), direction == .rightToLeft ? 2 : 1, &levels)
        // Emoji are Common (Zyyy) whatever surrounds them: they neither take nor lend a script.
        let isEmoji = items.map { chain.files[$0.font].isColor }
        var scripts: [hb_script_t?] = items.indices.map { index in
            if isEmoji[index] { return HB_SCRIPT_COMMON }
            return items[index].character.unicodeScalars.map(FontChain.script).first {
                $0 != HB_SCRIPT_COMMON && $0 != HB_SCRIPT_INHERITED && $0 != HB_SCRIPT_UNKNOWN
            }
        }
        // Other common characters take the script of the run before them (or after, at the start
        // or after an emoji).
        for index in scripts.indices where scripts[index] == nil && index > 0 && !isEmoji[index - 1] {
            scripts[index] = scripts[index - 1]
        }
        for index in scripts.indices.reversed() where scripts[index] == nil && index + 1 < scripts.count && !isEmoji[index + 1] {
            scripts[index] = scripts[index + 1]
        }
        var runs: [TextRun] = []
        var start = 0
        for index in items.indices {
            let next = index + 1
            let rtl = levels[firstScalar[index]] & 1 == 1
            let ends = next == items.count || items[next].font != items[index].font || scripts[next] != scripts[index]
                || (levels[firstScalar[next]] & 1 == 1) != rtl
            guard ends else { continue }
            let file = chain.files[items[index].font]
            runs.append(
                TextRun(
                    range: start..<next, script: Self.iso15924(scripts[index] ?? HB_SCRIPT_COMMON),
                    direction: rtl ? .rightToLeft : .leftToRight,
                    font: file.faceIndex == 0 ? file.path : "\(file.path)#\(file.faceIndex)", pixelSize: shaped.pixelSize))
            start = next
        }
        return runs
    }

    private static func iso15924(_ script: hb_script_t) -> String {
        let tag = hb_script_to_iso15924_tag(script)
        let bytes = [24, 16, 8, 0].map { UInt8((tag >> $0) & 0xFF) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The inked pixels of each glyph of `line` drawn alone, in the line's glyph order.
    func glyphInk(_ line: TextLine) -> [Int] {
        line.glyphs.map { glyph in
            guard let image = glyphImage(face: glyph.face, glyph: glyph.id, phase: 0) else { return 0 }
            if let color = image.color { return stride(from: 3, to: color.bytes.count, by: 4).reduce(0) { $0 + (color.bytes[$1] > 0 ? 1 : 0) } }
            return image.mask.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        }
    }

    /// Each glyph's ink in pixels above the baseline (`top` its highest row, `bottom` its
    /// lowest, negative below it), in the line's glyph order (for tests).
    func inkBounds(_ line: TextLine) -> [(top: Int, bottom: Int)] {
        line.glyphs.map { glyph in
            guard let image = glyphImage(face: glyph.face, glyph: glyph.id, phase: 0), image.height > 0 else { return (0, 0) }
            let top = image.top - Int(glyph.y.rounded())
            return (top, top - image.height)
        }
    }

    /// The glyph ids of `line` with their font files, in visual order (for tests).
    func glyphIDs(_ line: TextLine) -> [(id: UInt32, font: String)] {
        line.glyphs.map { ($0.id, chain.files[faces[$0.face].file].path) }
    }

    /// How many rasterised glyphs the cache holds.
    var cachedGlyphCount: Int { glyphCache.count }

    // MARK: Drawing

    /// Draws `line` with its origin at (`x`, `baseline`) in `pixmap`'s pixels; emoji keep
    /// their own colours, other glyphs take `color`. `rowOffset` shifts the drawing up by that
    /// many rows (for pixmaps that are bands of a taller image).
    public func draw(_ line: TextLine, in pixmap: inout Pixmap, x: Double, baseline: Double, color: Color, rowOffset: Int = 0) {
        precondition(line.engineIdentifier == ObjectIdentifier(self), "a TextLine can only be drawn by the engine that laid it out")
        let baselineRow = Int(baseline.rounded()) - rowOffset
        for glyph in line.glyphs {
            let penX = x + glyph.x
            let whole = penX.rounded(.down)
            var phase = Int(((penX - whole) * 4).rounded())
            var column = Int(whole)
            if phase == 4 {
                phase = 0
                column += 1
            }
            guard let image = glyphImage(face: glyph.face, glyph: glyph.id, phase: phase) else { continue }
            let left = column + image.left
            let top = baselineRow + Int(glyph.y.rounded()) - image.top
            if let colorImage = image.color {
                pixmap.draw(colorImage, x: left, y: top)
            } else if image.width > 0 {
                image.mask.withUnsafeBufferPointer { mask in
                    pixmap.drawMask(mask, maskWidth: image.width, maskHeight: image.height, x: left, y: top, color: color)
                }
            }
        }
    }

    /// Lays out `text` and draws it centred on `centerX` at `baseline`; returns the line.
    @discardableResult
    public func drawCentered(
        _ text: String, style: TextStyle, maxWidth: Double?, in pixmap: inout Pixmap,
        centerX: Double, baseline: Double, color: Color, rowOffset: Int = 0
    ) throws -> TextLine {
        let line = try layout(text, style: style, maxWidth: maxWidth)
        draw(line, in: &pixmap, x: centerX - line.width / 2, baseline: baseline, color: color, rowOffset: rowOffset)
        return line
    }

    /// Draws `label`'s lines, each centred on `centerX`, the first on `baseline` and each next
    /// one `label.lineAdvance` below.
    public func draw(_ label: TextLabel, in pixmap: inout Pixmap, centerX: Double, baseline: Double, color: Color, rowOffset: Int = 0) {
        for (index, line) in label.lines.enumerated() {
            draw(line, in: &pixmap, x: centerX - line.width / 2, baseline: baseline + Double(index) * label.lineAdvance, color: color, rowOffset: rowOffset)
        }
    }

    private static let loadTargetLight: Int32 = 1 << 16
    private static let loadColor: Int32 = 1 << 20

    private func glyphImage(face index: Int, glyph: UInt32, phase: Int) -> GlyphImage? {
        let sized = faces[index]
        let face = chain.files[sized.file]
        // Colour bitmaps are scaled, so sub-pixel phases would not differ: cache them once.
        let key = GlyphKey(face: index, glyph: glyph, phase: face.isColor ? 0 : phase)
        if let cached = glyphCache[key] { return cached }
        guard (try? face.activate(pixelSize: sized.pixelSize)) != nil else { return nil }
        let flags = face.isColor ? Self.loadColor : Self.loadTargetLight
        // Shift outlines by the sub-pixel phase (26.6 units) as they load.
        var shift = FT_Vector(x: FT_Pos(key.phase * 16), y: 0)
        FT_Set_Transform(face.face, nil, &shift)
        guard FT_Load_Glyph(face.face, glyph, flags) == 0, let slot = face.face.pointee.glyph else { return nil }
        if slot.pointee.format != FT_GLYPH_FORMAT_BITMAP {
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width)
        let height = Int(bitmap.rows)
        var image = GlyphImage(
            left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            width: width, height: height, mask: [], color: nil)
        if width > 0, height > 0, let buffer = bitmap.buffer {
            let pitch = Int(bitmap.pitch)
            if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) {
                // Premultiplied BGRA at the strike size: swap to RGBA, then scale to the label size.
                var rgba = [UInt8](repeating: 0, count: width * height * 4)
                for row in 0..<height {
                    let line = buffer + row * pitch
                    for column in 0..<width {
                        let source = line + column * 4
                        let destination = (row * width + column) * 4
                        rgba[destination] = source[2]
                        rgba[destination + 1] = source[1]
                        rgba[destination + 2] = source[0]
                        rgba[destination + 3] = source[3]
                    }
                }
                let strike = Pixmap(width: width, height: height, premultipliedBytes: rgba)
                let scale = sized.bitmapScale
                let scaledWidth = max(1, Int((Double(width) * scale).rounded()))
                let scaledHeight = max(1, Int((Double(height) * scale).rounded()))
                image.color = scale == 1 ? strike : strike.resized(toWidth: scaledWidth, height: scaledHeight)
                image.left = Int((Double(image.left) * scale).rounded())
                image.top = Int((Double(image.top) * scale).rounded())
                image.width = scaledWidth
                image.height = scaledHeight
            } else if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) {
                var mask = [UInt8](repeating: 0, count: width * height)
                for row in 0..<height {
                    let line = buffer + row * pitch
                    for column in 0..<width { mask[row * width + column] = line[column] }
                }
                image.mask = mask
            } else if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue) {
                var mask = [UInt8](repeating: 0, count: width * height)
                for row in 0..<height {
                    let line = buffer + row * pitch
                    for column in 0..<width where line[column >> 3] & (0x80 >> UInt8(column & 7)) != 0 {
                        mask[row * width + column] = 255
                    }
                }
                image.mask = mask
            } else {
                image.width = 0
            }
        } else {
            image.width = 0
        }
        glyphCache[key] = image
        return image
    }
}
