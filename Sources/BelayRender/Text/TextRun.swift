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
