import Foundation

/// The font files of the fallback chain, from config.json `fonts`. Its built-in default is the
/// app's own typography (Pretendard is Inter for Latin with Source Han Sans for Hangul): Inter
/// SemiBold and Regular for Latin, digits and punctuation, then the `fallbacks` in order (Noto
/// Sans CJK for Hangul, Han and kana, NanumGothic, the Noto Sans faces of `fonts-noto-core` for
/// other scripts), Noto Color Emoji, and a last-resort font.
///
/// A fallback names its regular file; the file that sets bold labels is found beside it at the
/// weight matching the primary bold: with a SemiBold primary (Inter SemiBold) a `SemiBold`, else
/// a `Medium`, else a `Bold` file (Noto Sans CJK Medium is closest in colour to Inter SemiBold;
/// most Noto families have only Bold), with a Bold primary a `Bold` file; the name's `Regular`
/// is replaced by the weight, or the weight is appended to a name without it
/// (`NanumGothic.ttf` → `NanumGothicBold.ttf`). The regular file sets bold labels when there is
/// none. A font collection with faces for several regions (Noto Sans CJK's `.ttc`: JP, KR, SC,
/// TC, HK) has the face chosen per label: Japanese when the text has kana, Korean when it has
/// Hangul, otherwise the club's locale.
public struct FontSettings: Hashable, Sendable {
    public var bold: String
    public var regular: String
    public var fallbacks: [String]
    public var emoji: String
    public var lastResort: String

    public init(bold: String, regular: String, fallbacks: [String], emoji: String, lastResort: String) {
        self.bold = bold
        self.regular = regular
        self.fallbacks = fallbacks
        self.emoji = emoji
        self.lastResort = lastResort
    }

    /// Every file of the chain in order, each with the file that sets bold labels.
    var chain: [(regular: String, bold: String)] {
        let weights = boldWeights
        return [(regular, bold)] + fallbacks.map { ($0, Self.boldSibling(of: $0, weights: weights)) }
            + [(emoji, emoji), (lastResort, lastResort)]
    }

    /// The weights a fallback's bold file is looked for at, in order: those nearest the
    /// primary bold's.
    var boldWeights: [String] {
        let name = URL(fileURLWithPath: bold).lastPathComponent.lowercased()
        return name.contains("semibold") || name.contains("demibold") ? ["SemiBold", "Medium", "Bold"] : ["Bold"]
    }

    /// `NotoSansThai-Regular.ttf` → `NotoSansThai-Bold.ttf`, `NanumGothic.ttf` →
    /// `NanumGothicBold.ttf`: the first of `weights` whose file exists, else `path` itself.
    static func boldSibling(of path: String, weights: [String] = ["Bold"]) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent()
        for weight in weights {
            let sibling: String
            if name.contains("Regular") {
                sibling = name.replacingOccurrences(of: "Regular", with: weight)
            } else {
                let stem = url.deletingPathExtension().lastPathComponent
                sibling = stem + weight + (url.pathExtension.isEmpty ? "" : "." + url.pathExtension)
            }
            let candidate = folder.appendingPathComponent(sibling).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return path
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
/// the language of the text (a BCP 47 tag or locale identifier such as `ko_KR`; it picks the
/// regional face of a font collection and the language's glyph forms), and the tracking.
public struct TextStyle: Hashable, Sendable {
    public var weight: FontWeight
    public var pixelSize: Double
    public var language: String
    /// Space added between grapheme clusters, in ems (negative tightens), in scripts whose
    /// letters stand apart (Latin, Greek, Cyrillic, Hangul, Han, kana); never inside a cluster,
    /// after the last one, or in joined scripts such as Arabic.
    public var tracking: Double

    public init(weight: FontWeight, pixelSize: Double, language: String = "ko", tracking: Double = 0) {
        self.weight = weight
        self.pixelSize = pixelSize
        self.language = language
        self.tracking = tracking
    }

    /// The tracking of Inter's dynamic metrics at an optical size of `points` (the label's
    /// size at 1x): -0.0223 + 0.185·e^(-0.1745·points) em, about -1.1% at 16 pt and -2% at 24 pt.
    /// Display sizes are set tighter, as Pretendard sets them.
    public static func displayTracking(points: Double) -> Double {
        -0.0223 + 0.185 * exp(-0.1745 * points)
    }
}
