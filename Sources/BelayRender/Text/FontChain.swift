import CFreeType
import CHarfBuzz
import Foundation

/// Picks the font of each grapheme cluster by coverage along the fallback chain, opening each
/// file the first time it is needed and never again.
///
/// A cluster takes the first font of the chain that has all its characters, with three
/// preferences: emoji-presentation clusters try the emoji font first; Han, kana and Bopomofo
/// try the regional font collections (Noto Sans CJK) first, so that a Japanese or Chinese
/// label is set in one face rather than in whatever ideographs a Korean font has; ASCII
/// digits and punctuation beside Hangul or Han take the primary font (Inter), as Pretendard
/// sets them; other punctuation, digits and spaces (script Common or Inherited)
/// stay in the font of the cluster before them when it has them (unless that is the emoji
/// font), so a run of Arabic or Thai is not split by its spaces.
///
/// Not thread-safe: it belongs to one `TextEngine`.
final class FontChain {
    private let library: FT_Library
    private let settings: FontSettings
    /// The chain's files in order, each with the file for bold labels (found once).
    private let order: [(regular: String, bold: String)]
    /// Every face opened, by index; glyphs name their face by this index.
    private(set) var files: [FontFile] = []
    private var fileIndex: [FileKey: Int] = [:]
    /// For each file path, whether it is a regional collection, and its faces by region (`JP`…).
    private var regions: [String: [String: Int]] = [:]
    /// Face indices by the FreeType face pointer raqm hands back with each glyph.
    private var byFace: [UnsafeMutableRawPointer: Int] = [:]
    private var coverage: [CoverageKey: Bool] = [:]
    /// Whether each file's "…" sits on the baseline, once asked.
    private var baselineEllipsis: [Int: Bool] = [:]

    private struct FileKey: Hashable {
        var path: String
        var faceIndex: Int
    }

    private struct CoverageKey: Hashable {
        var file: Int
        var scalar: UInt32
    }

    init(library: FT_Library, settings: FontSettings) throws {
        self.library = library
        self.settings = settings
        order = settings.chain
        for path in settings.allFiles where !FileManager.default.isReadableFile(atPath: path) {
            throw RenderError(.fontUnavailable(role: role(of: path), path: path, detail: "the file does not exist or cannot be read"))
        }
    }

    private func role(of path: String) -> String {
        switch path {
        case settings.bold: "bold"
        case settings.regular: "regular"
        case settings.emoji: "emoji"
        case settings.lastResort: "last-resort"
        default: "fallback"
        }
    }

    /// Closes every face (before the engine closes the FreeType library).
    func closeAll() {
        byFace.removeAll()
        files.removeAll()
    }

    /// The face that `raqm` reports for a glyph, as an index into `files`.
    func index(of face: FT_Face) -> Int? {
        byFace[UnsafeMutableRawPointer(face)]
    }

    /// The primary font of `weight` (Inter by default), always the first of the chain.
    func primary(_ weight: FontWeight) throws -> Int {
        try open(weight == .bold ? settings.bold : settings.regular, region: nil)
    }

    /// The font for `cluster` in `weight`, or nil when no font of the chain has it.
    /// `previous` is the font of the cluster before it; `region` the label's CJK region.
    func font(for cluster: Character, weight: FontWeight, previous: Int?, region: String) throws -> Int? {
        let scalars = cluster.unicodeScalars.filter { !Self.isInvisibleJoiner($0) }
        if scalars.isEmpty { return try previous ?? primary(weight) }
        let prefersEmoji = cluster.unicodeScalars.contains { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }
            && !cluster.unicodeScalars.contains { $0.value == 0xFE0E }
        let scripts = scalars.map(Self.script)
        let isCommon = scripts.allSatisfy { $0 == HB_SCRIPT_COMMON || $0 == HB_SCRIPT_INHERITED || $0 == HB_SCRIPT_UNKNOWN }
        // ASCII digits and punctuation after Hangul, Han or kana are the primary font's, as
        // Pretendard's are Inter's. Spaces stay in the CJK font: each change of font is a run
        // of its own, and raqm 0.7 makes a HarfBuzz font for every run (costly for Noto Sans
        // CJK), so words split by spaces in another font would cost a run each.
        if isCommon, !prefersEmoji, let previous, !cluster.isWhitespace, scalars.allSatisfy({ $0.isASCII }),
            try isRegionalFace(previous) {
            let primary = try primary(weight)
            if scalars.allSatisfy({ covers(primary, $0) }) { return primary }
        }
        // (Not after colour emoji: their spaces and digits are emoji-wide.)
        if isCommon, !prefersEmoji, let previous, !files[previous].isColor, scalars.allSatisfy({ covers(previous, $0) }) {
            return previous
        }
        let isCJK = scripts.contains { $0 == HB_SCRIPT_HAN || $0 == HB_SCRIPT_HIRAGANA || $0 == HB_SCRIPT_KATAKANA || $0 == HB_SCRIPT_BOPOMOFO }
        var order = order.map { weight == .bold ? $0.bold : $0.regular }
        if prefersEmoji, let emoji = order.firstIndex(of: settings.emoji) {
            order.insert(order.remove(at: emoji), at: 0)
        } else if isCJK {
            let collections = try order.filter { try isRegionalCollection($0) }
            order = collections + order.filter { !collections.contains($0) }
        }
        for path in order {
            let file = try open(path, region: region)
            if scalars.allSatisfy({ covers(file, $0) }) { return file }
        }
        return nil
    }

    /// The font of the "…" that ends an ellipsised line: the font of the last cluster kept
    /// (`previous`) when its "…" sits on the baseline, else the first font of the chain whose
    /// "…" does (Noto Sans Arabic has none, NanumGothic's floats a quarter em above the line);
    /// nil when no font has one.
    func ellipsisFont(weight: FontWeight, previous: Int?, region: String) throws -> Int? {
        let ellipsis: Unicode.Scalar = "\u{2026}"
        func suits(_ file: Int) -> Bool {
            guard !files[file].isColor, covers(file, ellipsis) else { return false }
            if let known = baselineEllipsis[file] { return known }
            let answer = files[file].sitsOnBaseline(ellipsis)
            baselineEllipsis[file] = answer
            return answer
        }
        if let previous, suits(previous) { return previous }
        for path in order.map({ weight == .bold ? $0.bold : $0.regular }) {
            let file = try open(path, region: region)
            if suits(file) { return file }
        }
        return try font(for: "\u{2026}", weight: weight, previous: previous, region: region)
    }

    private func covers(_ file: Int, _ scalar: Unicode.Scalar) -> Bool {
        let key = CoverageKey(file: file, scalar: scalar.value)
        if let known = coverage[key] { return known }
        let answer = files[file].covers(scalar)
        coverage[key] = answer
        return answer
    }

    /// Opens `path` (its face for `region` when it is a regional collection) once.
    private func open(_ path: String, region: String?) throws -> Int {
        var faceIndex = 0
        if let region, try isRegionalCollection(path), let faces = try regionalFaces(path) {
            faceIndex = faces[region] ?? faces["JP"] ?? faces.values.min() ?? 0
        }
        return try open(path, faceIndex: faceIndex)
    }

    private func open(_ path: String, faceIndex: Int) throws -> Int {
        let key = FileKey(path: path, faceIndex: faceIndex)
        if let known = fileIndex[key] { return known }
        let file: FontFile
        do {
            file = try FontFile(library: library, path: path, faceIndex: faceIndex)
        } catch let error as RenderError {
            if case let .fontUnavailable(_, path, detail) = error.kind {
                throw RenderError(.fontUnavailable(role: role(of: path), path: path, detail: detail))
            }
            throw error
        }
        files.append(file)
        fileIndex[key] = files.count - 1
        byFace[UnsafeMutableRawPointer(file.face)] = files.count - 1
        return files.count - 1
    }

    /// Whether the opened face `file` belongs to a regional CJK collection.
    private func isRegionalFace(_ file: Int) throws -> Bool {
        try isRegionalCollection(files[file].path)
    }

    /// Whether `path` is a font collection with faces for CJK regions; only `.ttc`/`.otc`
    /// files are opened to find out.
    private func isRegionalCollection(_ path: String) throws -> Bool {
        let name = path.lowercased()
        guard name.hasSuffix(".ttc") || name.hasSuffix(".otc") else { return false }
        return try !(regionalFaces(path)?.isEmpty ?? true)
    }

    /// The faces of a collection whose family names end in a CJK region (`Noto Sans CJK JP`,
    /// `… KR`, `… SC`, `… TC`, `… HK`); empty for an ordinary font file. The first face of each
    /// region wins (Noto's proportional faces come before its monospaced ones).
    private func regionalFaces(_ path: String) throws -> [String: Int]? {
        if let known = regions[path] { return known }
        let first = try open(path, faceIndex: 0)
        var faces: [String: Int] = [:]
        let count = files[first].faceCount
        if count > 1 {
            for index in 0..<count {
                let family = index == 0 ? files[first].familyName : try FontFile(library: library, path: path, faceIndex: index).familyName
                guard let region = family.split(separator: " ").last.map(String.init),
                    ["JP", "KR", "SC", "TC", "HK"].contains(region), faces[region] == nil
                else { continue }
                faces[region] = index
            }
        }
        regions[path] = faces
        return faces
    }

    /// The Unicode script of `scalar`, from HarfBuzz's Unicode data.
    static func script(_ scalar: Unicode.Scalar) -> hb_script_t {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value)
    }

    static func isInvisibleJoiner(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF: true
        default: false
        }
    }

    /// The CJK region whose glyph forms suit `text` in a club of `language`: Japanese when the
    /// text has kana, Korean when it has Hangul, otherwise the language's (`zh-Hant`, `zh_TW`
    /// → TC; `zh_HK` → HK; other Chinese → SC; `ko` → KR), Japanese for any other language.
    static func region(for text: [Character], language: String) -> String {
        var hasHangul = false
        for character in text {
            for scalar in character.unicodeScalars {
                let script = Self.script(scalar)
                if script == HB_SCRIPT_HIRAGANA || script == HB_SCRIPT_KATAKANA { return "JP" }
                if script == HB_SCRIPT_HANGUL { hasHangul = true }
            }
        }
        if hasHangul { return "KR" }
        let locale = Locale(identifier: language)
        switch locale.language.languageCode?.identifier {
        case "ko": return "KR"
        case "zh":
            if locale.language.script?.identifier == "Hant" { return locale.region?.identifier == "HK" ? "HK" : "TC" }
            switch locale.region?.identifier {
            case "HK", "MO": return "HK"
            case "TW": return "TC"
            default: return "SC"
            }
        default: return "JP"
        }
    }

    /// The BCP 47 language for shaping a label of `region` (CJK) or the club's `language`.
    static func shapingLanguage(region: String, text: [Character], language: String) -> String {
        let hasCJK = text.contains { $0.unicodeScalars.contains { [HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA, HB_SCRIPT_KATAKANA].contains(script($0)) } }
        guard hasCJK else { return Locale(identifier: language).language.languageCode?.identifier ?? "und" }
        switch region {
        case "JP": return "ja"
        case "KR": return "ko"
        case "TC": return "zh-Hant"
        case "HK": return "zh-HK"
        default: return "zh-Hans"
        }
    }
}
