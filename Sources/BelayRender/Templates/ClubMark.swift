import Foundation

/// The club's mark on stories and share cards: its logo (`club.logo`, fitted into a square),
/// or, without one, a monogram: the first letter of the club's name on a translucent disc.
struct ClubMark {
    /// The logo fitted into `side`x`side` pixels, or nil for the monogram.
    var logo: Pixmap?
    /// The monogram's letter, laid out once.
    var letter: TextLabel?
    var side: Double

    static let discColor = Color(red: 255, green: 255, blue: 255, alpha: 56)

    /// A logo fitted into a mark of `side` pixels (kept by the artwork store).
    static func fittedLogo(_ logo: Pixmap, side: Double, parallelism: Int) -> Pixmap {
        logo.resizedToFit(width: Int(side), height: Int(side), parallelism: parallelism)
    }

    /// The mark of a club named `clubName` at `side` pixels.
    init(logo: Pixmap?, clubName: String, side: Double, language: String, text: TextEngine) throws {
        self.logo = logo
        self.side = side
        if logo == nil, let first = clubName.trimmingCharacters(in: .whitespaces).first {
            letter = try text.layoutLabel(
                String(first).uppercased(), style: TextStyle(weight: .bold, pixelSize: side * 0.5, language: language),
                fit: LabelFit(maxWidth: side * 0.8))
        }
    }

    /// Where the mark and the name go in a row of both centred on `centerX`: the mark first in
    /// reading order (left of a left-to-right name, right of a right-to-left one).
    static func row(nameWidth: Double, markSide: Double, gap: Double, centerX: Double, rightToLeft: Bool) -> (markX: Double, nameX: Double) {
        let left = centerX - (markSide + gap + nameWidth) / 2
        return rightToLeft ? (left + nameWidth + gap, left) : (left, left + markSide + gap)
    }

    /// Draws the mark with its top-left corner at (`x`, `y`) in the coordinates of the whole
    /// image, into `band`, which holds its rows from `rowOffset`.
    func draw(in band: inout Pixmap, x: Double, y: Double, rowOffset: Int, text: TextEngine) {
        if let logo {
            band.draw(logo, x: Int(x) + (Int(side) - logo.width) / 2, y: Int(y) + (Int(side) - logo.height) / 2 - rowOffset)
            return
        }
        band.fill(RoundedRectangle(x: x, y: y, width: side, height: side, radius: side / 2), color: Self.discColor, rowOffset: rowOffset)
        if let letter {
            // The capital's middle on the disc's: cap height is about 0.72 em in Inter.
            let baseline = y + side / 2 + letter.pixelSize * 0.36
            text.draw(letter, in: &band, centerX: x + side / 2, baseline: baseline, color: .white, rowOffset: rowOffset)
        }
    }
}
