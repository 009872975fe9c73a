/// `hold-sticker`: the app's share view as a card. 240x320 pt, drawn at 1x, 2x or 3x.
///
/// The background artwork fills the card (centre-cropped) inside a rounded rectangle, with
/// transparency outside it; the hold artwork is fitted into a square box; the place name
/// (bold, white) and the date (regular, grey) are centred below it.
enum StickerTemplate {
    /// Bump on any change to how a sticker looks.
    static let version = 1

    static let width = 240.0
    static let height = 320.0
    static let cornerRadius = 16.0
    static let holdBox = (x: 40.0, y: 30.0, side: 160.0)
    static let placeSize = 24.0
    static let placeBaseline = 233.0
    static let placeMaxWidth = 640.0 / 3
    static let placeColor = Color.white
    static let dateSize = 16.0
    static let dateBaseline = 263.0
    static let dateColor = Color(red: 0xA0, green: 0xA0, blue: 0xA0)

    static func pixelSize(scale: Int) -> (width: Int, height: Int) {
        (Int(width) * scale, Int(height) * scale)
    }

    /// Draws the sticker at `scale` as a premultiplied pixmap.
    static func draw(
        background: Pixmap, hold: Pixmap, place: String, date: String, scale: Int,
        text: TextEngine, parallelism: Int, warnings: inout [String]
    ) throws -> Pixmap {
        let s = Double(scale)
        let size = pixelSize(scale: scale)
        var card = background.resizedToCover(width: size.width, height: size.height, parallelism: parallelism)
        card.clip(to: RoundedRectangle(x: 0, y: 0, width: Double(size.width), height: Double(size.height), radius: cornerRadius * s))

        let box = Int(holdBox.side * s)
        let fitted = hold.resizedToFit(width: box, height: box, parallelism: parallelism)
        card.draw(fitted, x: Int(holdBox.x * s) + (box - fitted.width) / 2, y: Int(holdBox.y * s) + (box - fitted.height) / 2)

        let placeLine = try text.drawCentered(
            place, style: TextStyle(weight: .bold, pixelSize: placeSize * s), maxWidth: placeMaxWidth * s,
            in: &card, centerX: width / 2 * s, baseline: placeBaseline * s, color: placeColor)
        let dateLine = try text.drawCentered(
            date, style: TextStyle(weight: .regular, pixelSize: dateSize * s), maxWidth: placeMaxWidth * s,
            in: &card, centerX: width / 2 * s, baseline: dateBaseline * s, color: dateColor)
        warnings += missingCharacterWarnings(placeLine, label: "place name") + missingCharacterWarnings(dateLine, label: "date")
        return card
    }

    static func missingCharacterWarnings(_ line: TextLine, label: String) -> [String] {
        guard !line.missingCharacters.isEmpty else { return [] }
        let listed = line.missingCharacters.map { character in
            "'\(character)' (" + character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") + ")"
        }
        return ["The \(label) has characters no font of the chain has; they were left out: " + listed.joined(separator: ", ")]
    }
}
