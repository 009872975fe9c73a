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
