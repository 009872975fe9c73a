/// `share-card`: the 1200x630 link-preview image of a shared reward (`og:image`), what
/// KakaoTalk, iMessage, Slack or X unfold a share link into.
///
/// The background's two colours as a vertical gradient, darkened on the right so white text
/// reads on any pair; the sticker (drawn at 2x and fitted to the card's height) on the left;
/// the hold's name, the place, the date and the club's name on the right.
enum ShareCardTemplate {
    /// Bump on any change to how a card looks (the sticker's own version counts separately).
    static let version = 1

    static let width = 1200
    static let height = 630
    static let stickerScale = 2
    static let stickerBox = (x: 64, y: 40, width: 412, height: 550)
    static let column = (left: 540.0, right: 1140.0)
    static let shade = Color(red: 0, green: 0, blue: 0, alpha: 96)
    static let holdSize = 60.0
    static let holdBaseline = 250.0
    static let placeSize = 38.0
    static let placeBaseline = 330.0
    static let dateSize = 30.0
    static let dateBaseline = 385.0
    static let dateColor = Color(red: 0xE0, green: 0xE0, blue: 0xE0)
    static let clubSize = 28.0
    static let clubBaseline = 540.0
    static let clubColor = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 200)

    /// Draws the card around an already drawn 2x sticker; long names shrink, then wrap or
    /// are ellipsised, like the sticker's place name.
    static func draw(
        sticker: Pixmap, content: ShareCardContent, colors: StoryColors,
        text: TextEngine, parallelism: Int, report: inout StickerReport
    ) throws -> Pixmap {
        var card = Pixmap(width: width, height: height)
        card.fillVerticalGradient(top: colors.top, bottom: colors.bottom)
        let shadeWidth = Double(width) - column.left + 40
        card.fill(RoundedRectangle(x: column.left - 40, y: 0, width: shadeWidth, height: Double(height), radius: 0), color: shade)

        let fitted = sticker.resizedToFit(width: stickerBox.width, height: stickerBox.height, parallelism: parallelism)
        card.draw(fitted, x: stickerBox.x + (stickerBox.width - fitted.width) / 2, y: stickerBox.y + (stickerBox.height - fitted.height) / 2)

        let centerX = (column.left + column.right) / 2
        let maxWidth = column.right - column.left
        let language = content.sticker.language
        let labels: [(String, TextStyle, Double, Color, String)] = [
            (content.holdName, TextStyle(weight: .bold, pixelSize: holdSize, language: language), holdBaseline, .white, "hold"),
            (content.sticker.place, TextStyle(weight: .regular, pixelSize: placeSize, language: language), placeBaseline, .white, "place"),
            (content.sticker.date, TextStyle(weight: .regular, pixelSize: dateSize, language: language), dateBaseline, dateColor, "date"),
            (content.clubName, TextStyle(weight: .bold, pixelSize: clubSize, language: language), clubBaseline, clubColor, "club"),
        ]
        let fit = LabelFit(maxWidth: maxWidth, minimumScale: StickerTemplate.placeMinimumScale, scaleStep: StickerTemplate.placeScaleStep)
        for (string, style, baseline, color, name) in labels where !string.isEmpty {
            let label = try text.layoutLabel(string, style: style, fit: fit)
            report.add(label, name: name, text: string)
            text.draw(label, in: &card, centerX: centerX, baseline: baseline, color: color)
        }
        return card
    }
}
