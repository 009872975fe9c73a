/// `hold-sticker`: the app's share view as a card. 240x320 pt, drawn at 1x, 2x or 3x (and, inside
/// the share card, at the scale that fits its box, so that it is drawn once at its final size).
///
/// The background artwork fills the card (centre-cropped) inside a rounded rectangle, with
/// transparency outside it; the hold artwork is fitted into a square box; the place name
/// (Inter SemiBold 24, white) and the date (Inter Regular 16, light grey) are centred below it,
/// tracked tighter as the app's Pretendard is. A long place name shrinks down to
/// `placeMinimumScale`, then wraps onto two lines (the date moving down with it), and only
/// then is ellipsised. Behind the text, a scrim darkens artwork that is too bright there, so
/// the place and date keep a contrast ratio of at least 4.5:1 on any background.
enum StickerTemplate {
    /// Bump on any change to how a sticker looks.
    /// 2: libraqm layout (bidi, per-script fonts), shrink, wrap, then ellipsis.
    /// 3: the baked badge names the member by an identity keyed with the club's secret, not a
    ///    hash anyone could reverse to their id; the backfill re-renders stickers baked before.
    /// 4: Inter with Noto Sans CJK (the app's Pretendard) and tracking; Korean breaks between
    ///    words; a scrim keeps the place and date at 4.5:1 contrast; a lighter date.
    static let version = 4

    static let width = 240.0
    static let height = 320.0
    static let cornerRadius = 16.0
    static let holdBox = (x: 40.0, y: 30.0, side: 160.0)
    static let placeSize = 24.0
    static let placeBaseline = 233.0
    static let placeMaxWidth = 640.0 / 3
    static let placeMinimumScale = 0.75
    static let placeScaleStep = 0.05
    static let placeMaxLines = 2
    static let placeColor = Color.white
    static let dateSize = 16.0
    static let dateBaseline = 263.0
    static let dateColor = Color(red: 0xC8, green: 0xC8, blue: 0xC8)
    /// The contrast ratio the place and date keep with every pixel behind them (WCAG AA is
    /// 4.5:1; the scrim aims a little higher, so compositing's rounding cannot take a pixel under).
    static let scrim = TextScrim(target: 4.6, textColors: [placeColor, dateColor])
    /// Where text may be drawn, in points: from this row to the card's bottom, between these
    /// columns (the place's widest line, centred, and its tallest glyphs above the baseline).
    static let textArea = (top: 205.0, left: width / 2 - placeMaxWidth / 2 - 4, right: width / 2 + placeMaxWidth / 2 + 4)
    static let scrimFade = 36.0

    static func pixelSize(scale: Double) -> (width: Int, height: Int) {
        (Int((width * scale).rounded()), Int((height * scale).rounded()))
    }

    /// The background artwork scaled to cover the card at `scale`, with the scrim behind the
    /// text where the artwork needs one (kept by the artwork store).
    static func cardBackground(_ background: Pixmap, scale: Double, parallelism: Int) -> Pixmap {
        let size = pixelSize(scale: scale)
        var card = background.resizedToCover(width: size.width, height: size.height, parallelism: parallelism)
        let s = scale
        scrim.apply(
            to: &card, top: Int(textArea.top * s),
            columns: max(0, Int(textArea.left * s))..<min(size.width, Int((textArea.right * s).rounded(.up))),
            fade: Int(scrimFade * s))
        return card
    }

    /// The hold artwork fitted into the hold box at `scale` (kept by the artwork store).
    static func fittedHold(_ hold: Pixmap, scale: Double, parallelism: Int) -> Pixmap {
        let box = Int(holdBox.side * scale)
        return hold.resizedToFit(width: box, height: box, parallelism: parallelism)
    }

    /// Draws the sticker at `scale` as a premultiplied pixmap, from the background already
    /// scaled to the card (`cardBackground`) and the hold already fitted (`fittedHold`).
    static func draw(
        cardBackground: Pixmap, fittedHold fitted: Pixmap, place: String, date: String, language: String, scale: Double,
        text: TextEngine, report: inout StickerReport
    ) throws -> Pixmap {
        let s = scale
        let size = pixelSize(scale: scale)
        var card = cardBackground
        card.clip(to: RoundedRectangle(x: 0, y: 0, width: Double(size.width), height: Double(size.height), radius: cornerRadius * s))

        let box = Int(holdBox.side * s)
        card.draw(fitted, x: Int(holdBox.x * s) + (box - fitted.width) / 2, y: Int(holdBox.y * s) + (box - fitted.height) / 2)

        let (placeLabel, dateLabel) = try layoutLabels(place: place, date: date, language: language, scale: scale, text: text, report: &report)
        text.draw(placeLabel, in: &card, centerX: width / 2 * s, baseline: placeBaseline * s, color: placeColor)
        // The date moves down by the place's extra lines.
        let dateShift = Double(max(0, placeLabel.lines.count - 1)) * placeLabel.lineAdvance
        text.draw(dateLabel, in: &card, centerX: width / 2 * s, baseline: dateBaseline * s + dateShift, color: dateColor)
        return card
    }

    /// How the place name is set at `scale`.
    static func placeStyle(scale: Double, language: String) -> TextStyle {
        TextStyle(weight: .bold, pixelSize: placeSize * scale, language: language,
                  tracking: TextStyle.displayTracking(points: placeSize))
    }

    /// Lays out the place and date labels at `scale` and adds them to `report`.
    @discardableResult
    static func layoutLabels(
        place: String, date: String, language: String, scale: Double, text: TextEngine, report: inout StickerReport
    ) throws -> (place: TextLabel, date: TextLabel) {
        let s = scale
        let placeLabel = try text.layoutLabel(
            place, style: placeStyle(scale: scale, language: language),
            fit: LabelFit(maxWidth: placeMaxWidth * s, minimumScale: placeMinimumScale, scaleStep: placeScaleStep, maxLines: placeMaxLines))
        let dateLabel = try text.layoutLabel(
            date, style: TextStyle(weight: .regular, pixelSize: dateSize * s, language: language,
                                   tracking: TextStyle.displayTracking(points: dateSize)),
            fit: LabelFit(maxWidth: placeMaxWidth * s))
        report.add(placeLabel, name: "place", text: place)
        report.add(dateLabel, name: "date", text: date)
        return (placeLabel, dateLabel)
    }
}
