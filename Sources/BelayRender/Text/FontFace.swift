import CFreeType
import CHarfBuzz

/// One font file at one pixel size: a FreeType face with the HarfBuzz font that shapes with it.
///
/// Not thread-safe (FreeType faces are not): a face belongs to one `TextEngine`, which is used
/// by one thread at a time.
final class FontFace {
    let role: FontRole
    let face: FT_Face
    let font: OpaquePointer
    /// Multiplies the face's metrics and bitmaps: 1 for outline fonts, the requested size over
    /// the strike size for bitmap-only fonts (colour emoji).
    let bitmapScale: Double
    let isColor: Bool

    init(library: FT_Library, path: String, role: FontRole, pixelSize: Double) throws {
        var face: FT_Face?
        let opened = FT_New_Face(library, path, 0, &face)
        guard opened == 0, let face else {
            throw RenderError(.fontUnavailable(role: role.name, path: path, detail: "FreeType error \(opened) opening it"))
        }
        let flags = face.pointee.face_flags
        let scalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        var scale = 1.0
        if scalable {
            let sized = FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72)
            guard sized == 0 else {
                FT_Done_Face(face)
                throw RenderError(.fontUnavailable(role: role.name, path: path, detail: "FreeType error \(sized) setting size \(pixelSize)"))
            }
        } else {
            // A bitmap font (Noto Color Emoji's CBDT strike): pick the strike closest above the
            // size, scale its bitmaps down when drawing.
            let count = Int(face.pointee.num_fixed_sizes)
            guard count > 0, let sizes = face.pointee.available_sizes else {
                FT_Done_Face(face)
                throw RenderError(.fontUnavailable(role: role.name, path: path, detail: "neither outlines nor bitmap strikes"))
            }
            var best = 0
            for index in 0..<count {
                let ppem = Double(sizes[index].y_ppem) / 64
                let bestPpem = Double(sizes[best].y_ppem) / 64
                if (ppem >= pixelSize && (bestPpem < pixelSize || ppem < bestPpem)) || (bestPpem < pixelSize && ppem > bestPpem) {
                    best = index
                }
            }
            let selected = FT_Select_Size(face, FT_Int(best))
            guard selected == 0 else {
                FT_Done_Face(face)
                throw RenderError(.fontUnavailable(role: role.name, path: path, detail: "FreeType error \(selected) selecting a strike"))
            }
            scale = pixelSize / (Double(sizes[best].y_ppem) / 64)
        }
        guard let font = hb_ft_font_create_referenced(face) else {
            FT_Done_Face(face)
            throw RenderError(.fontUnavailable(role: role.name, path: path, detail: "HarfBuzz could not use it"))
        }
        self.role = role
        self.face = face
        self.font = font
        bitmapScale = scale
        isColor = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
    }

    /// Whether the font has a glyph for `scalar`.
    func covers(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// Ascender and descender (positive below the baseline) in pixels.
    var verticalMetrics: (ascent: Double, descent: Double) {
        let metrics = face.pointee.size.pointee.metrics
        return (Double(metrics.ascender) / 64 * bitmapScale, -Double(metrics.descender) / 64 * bitmapScale)
    }

    deinit {
        hb_font_destroy(font)  // releases its reference to the face
        FT_Done_Face(face)
    }
}
