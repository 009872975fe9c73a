import BelayCore

/// How one label of a rendered image was set, for `belay render … --json` and for the logs:
/// which font drew what, at what size, and what it took to fit.
public struct LabelReport: Sendable, Hashable {
    /// One line of the label.
    public struct Line: Sendable, Hashable {
        /// The text of the line in logical order (with "…" when ellipsised).
        public let text: String
        public let width: Double
        public let runs: [TextRun]
    }

    /// Which label: `place`, `date`, `club`, `hold`.
    public let name: String
    /// The text asked for.
    public let text: String
    public let pixelSize: Double
    public let direction: TextDirection
    public let lines: [Line]
    public let isShrunk: Bool
    public let isWrapped: Bool
    public let isEllipsised: Bool
    /// Characters no font of the chain has, left out of the label.
    public let missingCharacters: [Character]

    init(name: String, text: String, label: TextLabel) {
        self.name = name
        self.text = text
        pixelSize = label.pixelSize
        direction = label.direction
        lines = label.lines.map { Line(text: $0.text, width: $0.width, runs: $0.runs) }
        isShrunk = label.isShrunk
        isWrapped = label.isWrapped
        isEllipsised = label.isEllipsised
        missingCharacters = label.missingCharacters
    }

    /// The warning an admin sees when characters are missing, or nil.
    var warning: String? {
        let what = name == "place" ? "place name" : name == "hold" ? "hold name" : name == "club" ? "club name" : name
        return Self.warning(missing: missingCharacters, label: what)
    }

    /// "The place name has characters no font of the chain has; …", or nil when none is missing.
    static func warning(missing: [Character], label: String) -> String? {
        guard !missing.isEmpty else { return nil }
        return "The \(label) has characters no font of the chain has; they were left out: " + CodePoints.describe(missing)
    }
}
