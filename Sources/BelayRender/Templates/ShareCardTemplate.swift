/// `share-card`: the 1200x630 link-preview image of a shared reward (`og:image`), what
/// KakaoTalk, iMessage, Slack or X unfold a share link into, in the story's style.
///
/// The background's two colours as a vertical gradient, darkened on the right so white text
/// reads on any pair; the sticker (drawn at the scale that fits its box) on the left;
/// on the right the line of what the day meant, the hold's name (in the club's language), the
/// place and the date, and at the bottom the club's mark and name.
enum ShareCardTemplate {
    /// Bump on any change to how a card looks (the sticker's own version counts separately).
    /// 2: the achievement line, the club's mark, Inter with Noto Sans CJK, as the story.
    /// 3: the sticker drawn at its size in the card, no longer drawn at 2x and scaled down.
    static let version = 3

    static let width = 1200
    static let height = 630
    static let stickerBox = (x: 64, y: 40, width: 412, height: 550)
    /// The sticker's scale that fills its box (about 1.7x).
    static let stickerScale = min(Double(stickerBox.width) / StickerTemplate.width, Double(stickerBox.height) / StickerTemplate.height)
    static let column = (left: 540.0, right: 1140.0)
    static let shade = Color(red: 0, green: 0, blue: 0, alpha: 96)
    static let achievementSize = 30.0
    static let achievementBaseline = 160.0
    static let achievementColor = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 220)
    static let holdSize = 60.0
    static let holdBaseline = 250.0
    static let placeSize = 38.0
    static let placeBaseline = 330.0
    static let dateSize = 30.0
    static let dateBaseline = 385.0
    static let dateColor = Color(red: 0xE0, green: 0xE0, blue: 0xE0)
    static let clubSize = 28.0
    static let clubColor = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 220)
    static let markSide = 48.0
    static let markGap = 16.0
    static let clubRowTop = 512.0

    /// The card's sizes in points are its pixels over 2.
    static func style(_ weight: FontWeight, size: Double, language: String) -> TextStyle {
        TextStyle(weight: weight, pixelSize: size, language: language, tracking: TextStyle.displayTracking(points: size / 2))
    }

    /// Draws the card around an already drawn 2x sticker; long names shrink, then wrap or
    /// are ellipsised, like the sticker's place name.
    static func draw(
        sticker: Pixmap, content: ShareCardContent, colors: StoryColors, logo: Pixmap?,
        text: TextEngine, report: inout StickerReport
    ) throws -> Pixmap {
        var card = Pixmap(width: width, height: height)
        card.fillVerticalGradient(top: colors.top, bottom: colors.bottom)
        let shadeWidth = Double(width) - column.left + 40
        card.fill(RoundedRectangle(x: column.left - 40, y: 0, width: shadeWidth, height: Double(height), radius: 0), color: shade)

        card.draw(sticker, x: stickerBox.x + (stickerBox.width - sticker.width) / 2, y: stickerBox.y + (stickerBox.height - sticker.height) / 2)

        let centerX = (column.left + column.right) / 2
        let maxWidth = column.right - column.left
        let language = content.sticker.language
        let labels: [(String, TextStyle, Double, Color, String)] = [
            (content.sticker.achievement, style(.bold, size: achievementSize, language: language), achievementBaseline, achievementColor,
             "achievement"),
            (content.holdName, style(.bold, size: holdSize, language: language), holdBaseline, .white, "hold"),
            (content.sticker.place, style(.regular, size: placeSize, language: language), placeBaseline, .white, "place"),
            (content.sticker.date, style(.regular, size: dateSize, language: language), dateBaseline, dateColor, "date"),
        ]
        let fit = LabelFit(maxWidth: maxWidth, minimumScale: StickerTemplate.placeMinimumScale, scaleStep: StickerTemplate.placeScaleStep)
        for (string, style, baseline, color, name) in labels where !string.isEmpty {
            let label = try text.layoutLabel(string, style: style, fit: fit)
            report.add(label, name: name, text: string)
            text.draw(label, in: &card, centerX: centerX, baseline: baseline, color: color)
        }
        if !content.clubName.isEmpty {
            let clubFit = LabelFit(maxWidth: maxWidth - markSide - markGap, minimumScale: 0.75)
            let club = try text.layoutLabel(content.clubName, style: style(.bold, size: clubSize, language: language), fit: clubFit)
            report.add(club, name: "club", text: content.clubName)
            let mark = try ClubMark(logo: logo, clubName: content.clubName, side: markSide, language: language, text: text)
            if let line = club.lines.first {
                let row = ClubMark.row(nameWidth: line.width, markSide: markSide, gap: markGap, centerX: centerX,
                                       rightToLeft: club.direction == .rightToLeft)
                mark.draw(in: &card, x: row.markX, y: clubRowTop, rowOffset: 0, text: text)
                text.draw(line, in: &card, x: row.nameX, baseline: clubRowTop + markSide / 2 + club.pixelSize * 0.36, color: clubColor)
            }
        }
        return card
    }
}
