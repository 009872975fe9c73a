/// Keeps text legible on any artwork: darkens the rows of an image behind its text with a
/// black scrim just strong enough that every pixel there keeps a WCAG 2.x contrast ratio of
/// `target` with each text colour, fading in above them so no edge shows. On artwork already
/// dark enough there (the catalogue's calm lower thirds) it draws nothing.
///
/// The scrim depends only on the artwork and the area, not on the text, so a template applies
/// it once to the scaled background it keeps (`ArtworkStore`).
struct TextScrim {
    /// The contrast ratio every pixel behind the text keeps with every text colour.
    var target: Double
    /// Colours of the text drawn over the area.
    var textColors: [Color]

    /// The brightest background luminance the text colours allow.
    var maximumLuminance: Double {
        textColors.map { ($0.relativeLuminance + 0.05) / target - 0.05 }.min() ?? 1
    }

    /// Darkens `pixmap` (opaque) in rows `top..<pixmap.height`, columns `columns`, fading in
    /// over the `fade` rows above `top`; returns the scrim's opacity (0–255, 0 when none was needed).
    @discardableResult
    func apply(to pixmap: inout Pixmap, top: Int, columns: Range<Int>, fade: Int) -> Int {
        let limit = maximumLuminance
        let rows = max(0, top)..<pixmap.height
        guard !rows.isEmpty, !columns.isEmpty else { return 0 }
        let alpha = Self.weakestAlpha(in: pixmap, rows: rows, columns: columns, limit: limit)
        guard alpha > 0 else { return 0 }
        let width = pixmap.width
        pixmap.bytes.withUnsafeMutableBufferPointer { bytes in
            for y in max(0, top - fade)..<pixmap.height {
                var rowAlpha = alpha
                if y < top {
                    // Smoothstep from 0 at `top - fade` to full strength at `top`.
                    let t = Double(y - (top - fade)) / Double(fade)
                    rowAlpha = Int((Double(alpha) * t * t * (3 - 2 * t)).rounded())
                }
                guard rowAlpha > 0 else { continue }
                let keep = UInt8(255 - rowAlpha)
                for index in stride(from: y * width * 4, to: (y + 1) * width * 4, by: 4) {
                    bytes[index] = Pixmap.multiply(bytes[index], keep)
                    bytes[index + 1] = Pixmap.multiply(bytes[index + 1], keep)
                    bytes[index + 2] = Pixmap.multiply(bytes[index + 2], keep)
                }
            }
        }
        return alpha
    }

    /// The smallest opacity of black (0–255) that brings every pixel of the area to at most
    /// `limit` luminance, found by bisection (darkening never brightens a pixel).
    static func weakestAlpha(in pixmap: Pixmap, rows: Range<Int>, columns: Range<Int>, limit: Double) -> Int {
        func passes(_ alpha: Int) -> Bool {
            let keep = UInt8(255 - alpha)
            let linear = Color.linear
            return pixmap.bytes.withUnsafeBufferPointer { bytes in
                for y in rows {
                    let row = y * pixmap.width * 4
                    for x in columns {
                        let index = row + x * 4
                        let luminance = 0.2126 * linear[Int(Pixmap.multiply(bytes[index], keep))]
                            + 0.7152 * linear[Int(Pixmap.multiply(bytes[index + 1], keep))]
                            + 0.0722 * linear[Int(Pixmap.multiply(bytes[index + 2], keep))]
                        if luminance > limit { return false }
                    }
                }
                return true
            }
        }
        if passes(0) { return 0 }
        var low = 0, high = 255
        while high - low > 1 {
            let middle = (low + high) / 2
            if passes(middle) { high = middle } else { low = middle }
        }
        return high
    }
}
