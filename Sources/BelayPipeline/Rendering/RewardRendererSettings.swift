import BelayRender
import Foundation

/// What the real renderer needs beyond a request: its fonts (fallback chain) and the limits
/// on the images it reads. BelayAPI fills it from `config.json` (`fonts`, `render`).
public struct RewardRendererSettings: Sendable, Hashable {
    public var boldFont: String
    public var regularFont: String
    /// `fonts.fallbacks`: tried in order after the regular and bold fonts.
    public var fallbackFonts: [String]
    public var emojiFont: String
    public var lastResortFont: String
    /// Largest width or height of an artwork read, in pixels.
    public var maxImageSide: Int
    /// Largest decoded artwork accepted, in bytes.
    public var maxDecodedBytes: Int

    public init(boldFont: String, regularFont: String, fallbackFonts: [String] = FontSettings.debianFallbacks,
                emojiFont: String, lastResortFont: String, maxImageSide: Int = 8_192, maxDecodedBytes: Int = 64 << 20) {
        self.fallbackFonts = fallbackFonts
        self.boldFont = boldFont
        self.regularFont = regularFont
        self.emojiFont = emojiFont
        self.lastResortFont = lastResortFont
        self.maxImageSide = maxImageSide
        self.maxDecodedBytes = maxDecodedBytes
    }
}
