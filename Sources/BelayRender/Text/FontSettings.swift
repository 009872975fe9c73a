/// The font files of the fallback chain: NanumGothic Bold and Regular for Korean and Latin,
/// Noto Color Emoji for emoji, and a last-resort font for anything else. The paths come from
/// config.json `fonts`.
public struct FontSettings: Hashable, Sendable {
    public var bold: String
    public var regular: String
    public var emoji: String
    public var lastResort: String

    public init(bold: String, regular: String, emoji: String, lastResort: String) {
        self.bold = bold
        self.regular = regular
        self.emoji = emoji
        self.lastResort = lastResort
    }

    /// Where Debian's `fonts-nanum`, `fonts-noto-color-emoji` and `fonts-dejavu-core` put them.
    public static let debian = FontSettings(
        bold: "/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf",
        regular: "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
        emoji: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        lastResort: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

    var files: [(role: FontRole, path: String)] {
        [(.bold, bold), (.regular, regular), (.emoji, emoji), (.lastResort, lastResort)]
    }
}

/// A font's place in the fallback chain.
enum FontRole: Int, CaseIterable, Sendable {
    case bold, regular, emoji, lastResort

    var name: String {
        switch self {
        case .bold: "bold"
        case .regular: "regular"
        case .emoji: "emoji"
        case .lastResort: "last-resort"
        }
    }
}

/// The weight of a label; the chain's first font.
public enum FontWeight: Sendable, Hashable {
    case bold, regular

    var role: FontRole { self == .bold ? .bold : .regular }
}

/// How a label is set: weight and size in pixels (already multiplied by the render scale).
public struct TextStyle: Hashable, Sendable {
    public var weight: FontWeight
    public var pixelSize: Double

    public init(weight: FontWeight, pixelSize: Double) {
        self.weight = weight
        self.pixelSize = pixelSize
    }
}
