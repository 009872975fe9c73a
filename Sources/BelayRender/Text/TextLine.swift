/// A shaped line of text, ready to draw: glyphs in visual order with pen positions relative
/// to the line's origin on the baseline, and the line's advance width.
///
/// A line belongs to the `TextEngine` that laid it out and can only be drawn by it.
public struct TextLine: Sendable {
    struct Glyph: Sendable {
        /// Index of the sized face in the engine's list.
        var face: Int
        var id: UInt32
        /// The character (index in the line's text) the glyph belongs to.
        var character: Int
        /// Pen position of the glyph origin, in pixels from the line origin (y grows down).
        var x: Double
        var y: Double
    }

    var glyphs: [Glyph]
    /// Advance width in pixels.
    public let width: Double
    /// The text actually set (with "…" when ellipsised), in logical order.
    public let text: String
    /// Whether the text was cut and ended with "…" to fit.
    public let isTruncated: Bool
    /// Characters no font of the chain has; they are left out of the line.
    public let missingCharacters: [Character]
    /// The line's runs in logical order: consecutive characters of one script, direction and font.
    public let runs: [TextRun]
    let engineIdentifier: ObjectIdentifier
}

/// A run of a line: characters `range` (grapheme clusters of the line's `text`) of one script
/// and direction, set in one font at one size.
public struct TextRun: Sendable, Hashable {
    public let range: Range<Int>
    /// ISO 15924 code, e.g. `Hang`, `Arab`, `Zyyy` (common) for a run of only spaces and digits.
    public let script: String
    public let direction: TextDirection
    /// The font file (with `#n` for a face of a collection other than the first).
    public let font: String
    public let pixelSize: Double
}

/// Which way a run or paragraph reads.
public enum TextDirection: String, Sendable, Hashable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
}
