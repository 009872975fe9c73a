import Foundation

/// What a sticker (and the story around it) shows: plain inputs, no database.
public struct StickerContent: Sendable, Hashable {
    /// Path of the background artwork (PNG or JPEG), scaled to fill the card.
    public var backgroundPath: String
    /// Path of the hold artwork (PNG with transparency), fitted into the hold box.
    public var holdPath: String
    /// The place name, set in bold and ellipsised when too long.
    public var place: String
    /// The date line, already formatted (see `StickerContent.formatDate`).
    public var date: String
    /// The club's locale (e.g. `ko_KR`, `ja_JP`, `zh_TW`): picks the regional forms of Han
    /// characters when the text itself does not (kana → Japanese, Hangul → Korean).
    public var language: String
    /// The club's name, drawn above the sticker on the composite story ("" draws none).
    public var clubName: String
    /// The hold's name, drawn below the sticker on the composite story ("" draws none).
    public var holdName: String
    /// A signed Open Badges 3.0 credential (a VC-JWT) baked into the sticker PNG as an
    /// `iTXt` chunk with keyword `openbadgecredential`; nil bakes none. Part of the sticker's
    /// content key, not the story's (the story does not carry it).
    public var badgeCredential: String?
    /// The line the story and share card lead with, what the day meant ("12th check-in ·
    /// 5-week streak"); "" draws none. Part of the story's and card's content keys.
    public var achievement = ""
    /// A PNG of the club's mark, drawn beside the club's name on the story and share card;
    /// "" draws a monogram of the name's first letter.
    public var clubLogoPath = ""

    public init(
        backgroundPath: String, holdPath: String, place: String, date: String, language: String = "ko_KR",
        clubName: String = "", holdName: String = ""
    ) {
        self.clubName = clubName
        self.holdName = holdName
        self.backgroundPath = backgroundPath
        self.holdPath = holdPath
        self.place = place
        self.date = date
        self.language = language
    }

    /// The sticker's date line: `2026.11.29 (일)` for ko_KR, the weekday abbreviated in the
    /// club's locale, the date taken in the meetup's time zone.
    public static func formatDate(_ date: Date, timeZone: TimeZone, locale: Locale) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy.MM.dd (E)"
        return formatter.string(from: date)
    }
}

/// The two colours of the story's vertical gradient (each background declares its pair; the
/// share payload sends the same pair to Instagram).
public struct StoryColors: Sendable, Hashable {
    public var top: Color
    public var bottom: Color

    public init(top: Color, bottom: Color) {
        self.top = top
        self.bottom = bottom
    }
}

/// The story's file format.
public enum StoryFormat: Sendable, Hashable {
    case png
    /// Baseline JPEG at a quality of 1–100 (smaller; the story is opaque).
    case jpeg(quality: Int)
}

/// An encoded image.
public struct RenderedImage: Sendable {
    /// The file's bytes (PNG or JPEG).
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    /// `image/png` or `image/jpeg`.
    public let mediaType: String
    /// Things worth telling an admin that did not stop the render, e.g. characters that no
    /// font has (left out of the label).
    public let warnings: [String]
    /// How each label was set (fonts, sizes, lines, missing characters).
    public var labels: [LabelReport] = []

    /// Every character left out of any label, once each, in order.
    public var missingCharacters: [Character] {
        var seen = Set<Character>()
        return labels.flatMap(\.missingCharacters).filter { seen.insert($0).inserted }
    }
}
