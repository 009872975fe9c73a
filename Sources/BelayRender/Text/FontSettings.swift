import Foundation

/// The font files of the fallback chain, from config.json `fonts`: NanumGothic Bold and
/// Regular for Hangul and Latin, then the `fallbacks` in order (Noto Sans CJK for Han and kana,
/// the Noto Sans faces of `fonts-noto-core` for other scripts), Noto Color Emoji, and a
/// last-resort font.
///
/// A fallback names its regular file; a file beside it whose name has `Bold` in place of
/// `Regular` (as Noto's files are named) sets bold labels, and the regular file does when
/// there is none. A font collection with faces for several regions (Noto Sans CJK's `.ttc`:
/// JP, KR, SC, TC, HK) has the face chosen per label: Japanese when the text has kana, Korean
/// when it has Hangul, otherwise the club's locale.
public struct FontSettings: Hashable, Sendable {
    public var bold: String
    public var regular: String
    public var fallbacks: [String]
    public var emoji: String
    public var lastResort: String

    public init(bold: String, regular: String, fallbacks: [String] = FontSettings.debianFallbacks, emoji: String, lastResort: String) {
        self.bold = bold
        self.regular = regular
        self.fallbacks = fallbacks
        self.emoji = emoji
        self.lastResort = lastResort
    }

    /// Where Debian's `fonts-nanum`, `fonts-noto-color-emoji` and `fonts-dejavu-core` put them.
    public static let debian = FontSettings(
        bold: "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf",
        regular: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        emoji: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        lastResort: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

    /// The default `fonts.fallbacks`: Debian's `fonts-noto-cjk` and `fonts-noto-core`.
    public static let debianFallbacks: [String] = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]
        + [
            "Arabic", "Hebrew", "Thai", "Devanagari", "Bengali", "Tamil", "Telugu", "Kannada", "Malayalam",
            "Gujarati", "Gurmukhi", "Oriya", "Sinhala", "Khmer", "Lao", "Myanmar", "Georgian", "Armenian",
            "Ethiopic",
        ].map { "/usr/share/fonts/truetype/noto/NotoSans\($0)-Regular.ttf" }
        + ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf"]

    /// Every file of the chain in order, each with the file that sets bold labels.
    var chain: [(regular: String, bold: String)] {
        [(regular, bold)] + fallbacks.map { ($0, Self.boldSibling(of: $0)) } + [(emoji, emoji), (lastResort, lastResort)]
    }

    /// `NotoSansThai-Regular.ttf` → `NotoSansThai-Bold.ttf` when that file exists.
    static func boldSibling(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard name.contains("Regular") else { return path }
        let bold = url.deletingLastPathComponent().appendingPathComponent(name.replacingOccurrences(of: "Regular", with: "Bold")).path
        return FileManager.default.fileExists(atPath: bold) ? bold : path
    }

    /// Every file the chain may open, for content keys (checks the file system for bold
    /// siblings: compute once).
    var allFiles: [String] {
        var seen = Set<String>()
        return chain.flatMap { [$0.bold, $0.regular] }.filter { seen.insert($0).inserted }
    }
}

/// The weight of a label.
public enum FontWeight: Sendable, Hashable {
    case bold, regular
}

/// How a label is set: weight and size in pixels (already multiplied by the render scale),
/// and the language of the text (a BCP 47 tag or locale identifier such as `ko_KR`; it picks
/// the regional face of a font collection and the language's glyph forms).
public struct TextStyle: Hashable, Sendable {
    public var weight: FontWeight
    public var pixelSize: Double
    public var language: String

    public init(weight: FontWeight, pixelSize: Double, language: String = "ko") {
        self.weight = weight
        self.pixelSize = pixelSize
        self.language = language
    }
}
