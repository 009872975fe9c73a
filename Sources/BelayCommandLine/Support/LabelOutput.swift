import BelayCore
import BelayRender

/// A label of a rendered image in `belay render … --json`: which font drew which run, at what
/// size, on which lines, and what it took to fit.
struct LabelOutput: Encodable {
    struct Run: Encodable {
        /// Character (grapheme cluster) offsets in the line's text, start and end.
        let range: [Int]
        let script: String
        let direction: String
        let font: String
        let sizePx: Double
    }

    struct Line: Encodable {
        let text: String
        let widthPx: Double
        let runs: [Run]
    }

    struct Missing: Encodable {
        let character: String
        /// `U+13000` for each scalar.
        let codePoints: [String]
    }

    let name: String
    let text: String
    let sizePx: Double
    let direction: String
    let lines: [Line]
    let shrunk: Bool
    let wrapped: Bool
    let ellipsised: Bool
    let missingCharacters: [Missing]

    init(_ report: LabelReport) {
        name = report.name
        text = report.text
        sizePx = Self.rounded(report.pixelSize)
        direction = report.direction.rawValue
        lines = report.lines.map { line in
            Line(text: line.text, widthPx: Self.rounded(line.width), runs: line.runs.map { run in
                Run(range: [run.range.lowerBound, run.range.upperBound], script: run.script, direction: run.direction.rawValue,
                    font: run.font, sizePx: Self.rounded(run.pixelSize))
            })
        }
        shrunk = report.isShrunk
        wrapped = report.isWrapped
        ellipsised = report.isEllipsised
        missingCharacters = report.missingCharacters.map { character in
            Missing(character: String(character),
                    codePoints: CodePoints.names(of: character))
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
