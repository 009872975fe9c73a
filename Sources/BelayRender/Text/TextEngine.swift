import CFreeType
import CHarfBuzz

/// Lays out and draws single-line labels: FreeType rasterises, HarfBuzz shapes, and each
/// grapheme cluster takes the first font of the chain that has all its characters (the
/// label's weight, then colour emoji, then the last-resort font; emoji-presentation clusters
/// try the emoji font first).
///
/// An engine is not thread-safe (FreeType faces are not): use one per thread. `Renderer`
/// keeps a pool and lends each render its own. Rasterised glyphs are cached, so setting a
/// label again costs microseconds.
public final class TextEngine {
    private let library: FT_Library
    private let fonts: FontSettings
    private var faces: [FontFace] = []
    private var faceIndex: [FaceKey: Int] = [:]
    /// Unsized faces answering "does this font have this character?".
    private var coverageFaces: [FontRole: FontFace] = [:]
    private var coverage: [CoverageKey: Bool] = [:]
    private var glyphCache: [GlyphKey: GlyphImage] = [:]

    private struct FaceKey: Hashable {
        var role: FontRole
        var pixelSize: Double
    }

    private struct CoverageKey: Hashable {
        var role: FontRole
        var scalar: UInt32
    }

    private struct GlyphKey: Hashable {
        var face: Int
        var glyph: UInt32
        /// Horizontal sub-pixel position in quarters of a pixel.
        var phase: Int
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

    /// Opens every font of the chain.
    /// - Throws: `RenderError` (`font_unavailable`) naming the font that cannot be opened.
    public init(fonts: FontSettings) throws {
        var library: FT_Library?
        let initialised = FT_Init_FreeType(&library)
        guard initialised == 0, let library else {
            throw RenderError(.fontUnavailable(role: "any", path: fonts.regular, detail: "FreeType failed to start (\(initialised))"))
        }
        self.library = library
        self.fonts = fonts
        for (role, path) in fonts.files {
            coverageFaces[role] = try FontFace(library: library, path: path, role: role, pixelSize: 16)
        }
    }

    deinit {
        faces.removeAll()
        coverageFaces.removeAll()
        FT_Done_FreeType(library)
    }

    // MARK: Layout

    /// Shapes `text` as one line in `style`. Line breaks and tabs become spaces. When
    /// `maxWidth` is given and the text is wider, it is cut at a grapheme-cluster boundary and
    /// ends with "…" so that it fits.
    public func layout(_ text: String, style: TextStyle, maxWidth: Double? = nil) throws -> TextLine {
        let clusters = Self.clean(text)
        let full = try shape(clusters, style: style)
        guard let maxWidth, full.width > maxWidth, !clusters.isEmpty else {
            return line(full, text: String(clusters), truncated: false)
        }
        let ellipsis = try shape(["…"], style: style)
        var count = clusters.count
        // Drop whole clusters from the end until the rest plus "…" fits; the cluster advances
        // give the first guess, the reshaped line (kerning may differ at the cut) decides.
        var used = full.width
        while count > 0 {
            used -= full.clusterAdvances[count - 1]
            count -= 1
            if used + ellipsis.width <= maxWidth { break }
        }
        while true {
            var kept = Array(clusters[0..<count])
            while let last = kept.last, last.isWhitespace { kept.removeLast() }
            let candidate = try shape(kept + ["…"], style: style)
            if candidate.width <= maxWidth || kept.isEmpty {
                return line(candidate, text: String(kept + ["…"]), truncated: true)
            }
            count = kept.count - 1
        }
    }

    /// The label's ascent and descent in pixels for `style` (of its primary font).
    public func verticalMetrics(_ style: TextStyle) throws -> (ascent: Double, descent: Double) {
        try face(style.weight.role, style.pixelSize).verticalMetrics
    }

    private struct Shaped {
        var glyphs: [TextLine.Glyph]
        var width: Double
        var clusterAdvances: [Double]
        var missing: [Character]
    }

    private func line(_ shaped: Shaped, text: String, truncated: Bool) -> TextLine {
        TextLine(
            glyphs: shaped.glyphs, width: shaped.width, text: text, isTruncated: truncated,
            missingCharacters: shaped.missing, engineIdentifier: ObjectIdentifier(self))
    }

    /// Control characters go; line breaks and tabs become spaces.
    static func clean(_ text: String) -> [Character] {
        text.compactMap { character -> Character? in
            if character.isNewline || character == "\t" { return " " }
            if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { return nil }
            return character
        }
    }

    private func shape(_ clusters: [Character], style: TextStyle) throws -> Shaped {
        var shaped = Shaped(glyphs: [], width: 0, clusterAdvances: Array(repeating: 0, count: clusters.count), missing: [])
        // Runs of consecutive clusters set in the same font.
        var runs: [(role: FontRole, clusters: Range<Int>)] = []
        for (index, cluster) in clusters.enumerated() {
            guard let role = fontRole(for: cluster, weight: style.weight) else {
                shaped.missing.append(cluster)
                continue
            }
            if let last = runs.last, last.role == role, last.clusters.upperBound == index {
                runs[runs.count - 1].clusters = last.clusters.lowerBound..<(index + 1)
            } else {
                runs.append((role, index..<(index + 1)))
            }
        }
        var penX = 0.0
        for run in runs {
            let face = try face(run.role, style.pixelSize)
            let faceNumber = faceIndex[FaceKey(role: run.role, pixelSize: style.pixelSize)]!
            // UTF-8 offsets of each cluster, to map HarfBuzz clusters back to graphemes.
            var utf8: [UInt8] = []
            var clusterStarts: [Int] = []
            for index in run.clusters {
                clusterStarts.append(utf8.count)
                utf8.append(contentsOf: String(clusters[index]).utf8)
            }
            let buffer = hb_buffer_create()
            defer { hb_buffer_destroy(buffer) }
            utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    hb_buffer_add_utf8(buffer, characters.baseAddress, Int32(characters.count), 0, Int32(characters.count))
                }
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
            hb_shape(face.font, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { continue }
            let scale = face.bitmapScale / 64
            for glyph in 0..<Int(count) {
                let info = infos[glyph]
                let position = positions[glyph]
                let advance = Double(position.x_advance) * scale
                shaped.glyphs.append(
                    TextLine.Glyph(
                        face: faceNumber, id: info.codepoint,
                        x: penX + Double(position.x_offset) * scale, y: -Double(position.y_offset) * scale))
                penX += advance
                // The cluster value is the UTF-8 offset of the grapheme the glyph belongs to.
                var local = 0
                while local + 1 < clusterStarts.count && clusterStarts[local + 1] <= Int(info.cluster) { local += 1 }
                shaped.clusterAdvances[run.clusters.lowerBound + local] += advance
            }
        }
        shaped.width = penX
        return shaped
    }

    /// The first font of the chain that has every character of `cluster` (ignoring joiners and
    /// variation selectors), or nil when none has.
    private func fontRole(for cluster: Character, weight: FontWeight) -> FontRole? {
        let scalars = cluster.unicodeScalars.filter { !Self.isInvisibleJoiner($0) }
        if scalars.isEmpty { return weight.role }
        let prefersEmoji = cluster.unicodeScalars.contains { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }
            && !cluster.unicodeScalars.contains { $0.value == 0xFE0E }
        let chain: [FontRole] = prefersEmoji
            ? [.emoji, weight.role, .lastResort]
            : [weight.role, .emoji, .lastResort]
        for role in chain where scalars.allSatisfy({ covers(role, $0) }) {
            return role
        }
        return nil
    }

    private static func isInvisibleJoiner(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: true
        default: false
        }
    }

    private func covers(_ role: FontRole, _ scalar: Unicode.Scalar) -> Bool {
        let key = CoverageKey(role: role, scalar: scalar.value)
        if let known = coverage[key] { return known }
        let answer = coverageFaces[role]?.covers(scalar) ?? false
        coverage[key] = answer
        return answer
    }

    private func face(_ role: FontRole, _ pixelSize: Double) throws -> FontFace {
        let key = FaceKey(role: role, pixelSize: pixelSize)
        if let index = faceIndex[key] { return faces[index] }
        let path = fonts.files.first { $0.role == role }!.path
        let face = try FontFace(library: library, path: path, role: role, pixelSize: pixelSize)
        faces.append(face)
        faceIndex[key] = faces.count - 1
        return face
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

    private static let loadTargetLight: Int32 = 1 << 16
    private static let loadColor: Int32 = 1 << 20

    private func glyphImage(face index: Int, glyph: UInt32, phase: Int) -> GlyphImage? {
        let face = faces[index]
        // Colour bitmaps are scaled, so sub-pixel phases would not differ: cache them once.
        let key = GlyphKey(face: index, glyph: glyph, phase: face.isColor ? 0 : phase)
        if let cached = glyphCache[key] { return cached }
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
                let scale = face.bitmapScale
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
