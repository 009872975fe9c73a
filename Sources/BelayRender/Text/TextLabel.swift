/// A label fitted into its box by `TextEngine.layoutLabel`: one or more lines at one size,
/// and what it took to fit them.
public struct TextLabel: Sendable {
    /// The lines, top to bottom.
    public let lines: [TextLine]
    /// The size the lines are set at, in pixels (the style's size, or less when shrunk).
    public let pixelSize: Double
    /// Baseline-to-baseline distance between lines, in pixels.
    public let lineAdvance: Double
    /// The direction of the paragraph (of its first strong character).
    public let direction: TextDirection
    /// Whether the label is set smaller than its style's size.
    public let isShrunk: Bool
    /// Whether the label takes more than one line.
    public var isWrapped: Bool { lines.count > 1 }
    /// Whether the last line was cut and ends with "…".
    public var isEllipsised: Bool { lines.last?.isTruncated ?? false }
    /// Characters no font of the chain has; they are left out.
    public let missingCharacters: [Character]
}
