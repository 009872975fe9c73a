import CFreeType

/// One face of a font file, opened once per `TextEngine`: a FreeType face with one FreeType
/// size object per pixel size the engine has set it at.
///
/// Not thread-safe (FreeType faces are not): a face belongs to one `TextEngine`, which is used
/// by one thread at a time.
final class FontFile {
    let path: String
    let faceIndex: Int
    let face: FT_Face
    let isColor: Bool
    private let isScalable: Bool
    /// Size objects by pixel size in 1/64 px, with the bitmap scale at that size.
    private var sizes: [Int: (size: FT_Size, bitmapScale: Double)] = [:]

    init(library: FT_Library, path: String, faceIndex: Int = 0) throws {
        var face: FT_Face?
        let opened = FT_New_Face(library, path, FT_Long(faceIndex), &face)
        guard opened == 0, let face else {
            throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "FreeType error \(opened) opening it"))
        }
        self.path = path
        self.faceIndex = faceIndex
        self.face = face
        let flags = face.pointee.face_flags
        isScalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        isColor = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        if !isScalable && face.pointee.num_fixed_sizes == 0 {
            FT_Done_Face(face)
            throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "neither outlines nor bitmap strikes"))
        }
    }

    deinit {
        FT_Done_Face(face)  // frees its size objects too
    }

    /// How many faces the file holds (a `.ttc` collection holds several).
    var faceCount: Int { Int(face.pointee.num_faces) }

    /// The face's family name, e.g. `Noto Sans CJK JP`.
    var familyName: String {
        face.pointee.family_name.map { String(cString: $0) } ?? ""
    }

    /// Whether the font has a glyph for `scalar`.
    func covers(_ scalar: Unicode.Scalar) -> Bool {
        FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
    }

    /// Whether the glyph of `scalar` has its ink on the baseline (its lowest point within 8% of
    /// the em of it), as a Latin "…" does; NanumGothic's sits a quarter of an em above it.
    func sitsOnBaseline(_ scalar: Unicode.Scalar) -> Bool {
        let glyph = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        guard glyph != 0, isScalable, face.pointee.units_per_EM > 0,
            FT_Load_Glyph(face, glyph, Self.loadNoScale) == 0, let slot = face.pointee.glyph
        else { return false }
        let metrics = slot.pointee.metrics
        let bottom = Double(metrics.horiBearingY - metrics.height) / Double(face.pointee.units_per_EM)
        return abs(bottom) <= 0.08
    }

    private static let loadNoScale: Int32 = 1

    /// Makes `pixelSize` the face's current size (creating its size object the first time) and
    /// returns the bitmap scale: 1 for outline fonts, the requested size over the strike size
    /// for bitmap-only fonts (colour emoji), whose bitmaps are scaled when drawn.
    @discardableResult
    func activate(pixelSize: Double) throws -> Double {
        let key = Int((pixelSize * 64).rounded())
        if let known = sizes[key] {
            FT_Activate_Size(known.size)
            return known.bitmapScale
        }
        var created: FT_Size?
        guard FT_New_Size(face, &created) == 0, let created else {
            throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "FreeType could not make a size"))
        }
        FT_Activate_Size(created)
        var scale = 1.0
        if isScalable {
            let sized = FT_Set_Char_Size(face, 0, FT_F26Dot6(key), 72, 72)
            guard sized == 0 else {
                FT_Done_Size(created)
                throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "FreeType error \(sized) setting size \(pixelSize)"))
            }
        } else {
            // A bitmap font (Noto Color Emoji's CBDT strike): pick the strike closest above the
            // size, scale its bitmaps down when drawing.
            let count = Int(face.pointee.num_fixed_sizes)
            guard let available = face.pointee.available_sizes else {
                FT_Done_Size(created)
                throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "no bitmap strikes"))
            }
            var best = 0
            for index in 0..<count {
                let ppem = Double(available[index].y_ppem) / 64
                let bestPpem = Double(available[best].y_ppem) / 64
                if (ppem >= pixelSize && (bestPpem < pixelSize || ppem < bestPpem)) || (bestPpem < pixelSize && ppem > bestPpem) {
                    best = index
                }
            }
            let selected = FT_Select_Size(face, FT_Int(best))
            guard selected == 0 else {
                FT_Done_Size(created)
                throw RenderError(.fontUnavailable(role: "fallback", path: path, detail: "FreeType error \(selected) selecting a strike"))
            }
            scale = pixelSize / (Double(available[best].y_ppem) / 64)
        }
        sizes[key] = (created, scale)
        return scale
    }

    /// Ascender and descender (positive below the baseline) in pixels at the current size.
    func verticalMetrics(bitmapScale: Double) -> (ascent: Double, descent: Double) {
        let metrics = face.pointee.size.pointee.metrics
        return (Double(metrics.ascender) / 64 * bitmapScale, -Double(metrics.descender) / 64 * bitmapScale)
    }
}
