/// `story`: a 1080x1920 vertical image for the share sheet and "save image", laid out for the
/// Stories safe zones (nothing in the top 250 px or the bottom 340 px, where Instagram and
/// Facebook draw their own controls): on a vertical gradient of the background's colour pair,
/// the club's mark and name, the line of what the day meant ("12th check-in · 5-week streak"),
/// the 3x sticker, and the hold's name in the club's language.
///
/// Stories composers get the sticker and a background without it (`StoryBackgroundTemplate`),
/// never this composite: they draw the sticker layer themselves.
enum StoryTemplate {
    /// Bump on any change to how a story looks (the sticker's own version counts separately).
    /// 2: club and hold names, Stories safe zones.
    /// 3: the club's mark, the achievement line, the hold's name in the club's language, Inter
    ///    with Noto Sans CJK.
    static let version = 3

    static let width = 1080
    static let height = 1920
    static let stickerScale = 3
    static let stickerOrigin = (x: 180, y: 500)
    /// Rows drawn and encoded at a time when streaming the PNG; divides `height`.
    static let bandHeight = 240
    /// Rows at the top and bottom kept free of text and sticker.
    static let safeTop = 250
    static let safeBottom = 340
    static let textMaxWidth = 900.0
    /// The club's row: its mark and name, centred together.
    static let markSide = 64.0
    static let markGap = 20.0
    static let clubRow = (top: 282.0, size: 36.0, color: Color(red: 255, green: 255, blue: 255, alpha: 230))
    static let achievementStyle = (size: 54.0, baseline: 440.0, color: Color.white)
    static let holdStyle = (size: 56.0, baseline: 1560.0, color: Color.white)

    /// The story's sizes in points are its pixels over 3 (a 360 pt wide phone screen).
    static func style(_ weight: FontWeight, size: Double, language: String) -> TextStyle {
        TextStyle(weight: weight, pixelSize: size, language: language, tracking: TextStyle.displayTracking(points: size / 3))
    }

    /// What is drawn around the sticker, laid out once and drawn into every band.
    struct Labels {
        var club: TextLabel?
        var mark: ClubMark?
        var achievement: TextLabel?
        var hold: TextLabel?

        init(content: StickerContent, logo: Pixmap?, text: TextEngine, report: inout StickerReport) throws {
            let language = content.language
            let fit = LabelFit(maxWidth: textMaxWidth, minimumScale: StickerTemplate.placeMinimumScale, scaleStep: StickerTemplate.placeScaleStep)
            if !content.clubName.isEmpty {
                let clubFit = LabelFit(maxWidth: textMaxWidth - markSide - markGap, minimumScale: 0.75)
                let label = try text.layoutLabel(content.clubName, style: style(.bold, size: clubRow.size, language: language), fit: clubFit)
                report.add(label, name: "club", text: content.clubName)
                club = label
                mark = try ClubMark(logo: logo, clubName: content.clubName, side: markSide, language: language, text: text)
            }
            if !content.achievement.isEmpty {
                let label = try text.layoutLabel(
                    content.achievement, style: style(.bold, size: achievementStyle.size, language: language), fit: fit)
                report.add(label, name: "achievement", text: content.achievement)
                achievement = label
            }
            if !content.holdName.isEmpty {
                let holdFit = LabelFit(maxWidth: textMaxWidth, minimumScale: 0.75, maxLines: 1)
                let label = try text.layoutLabel(content.holdName, style: style(.bold, size: holdStyle.size, language: language), fit: holdFit)
                report.add(label, name: "hold", text: content.holdName)
                hold = label
            }
        }
    }


    /// Draws the whole story around an already drawn 3x sticker.
    static func draw(sticker: Pixmap, colors: StoryColors, labels: Labels, text: TextEngine) -> Pixmap {
        var story = Pixmap(uninitializedWidth: width, height: height)
        drawBand(&story, start: 0, sticker: sticker, colors: colors, labels: labels, text: text)
        return story
    }

    /// Draws rows `start..<start + band.height` of the story into `band`.
    static func drawBand(_ band: inout Pixmap, start: Int, sticker: Pixmap, colors: StoryColors, labels: Labels, text: TextEngine) {
        band.fillVerticalGradient(top: colors.top, bottom: colors.bottom, rowOffset: start, totalHeight: height)
        band.draw(sticker, x: stickerOrigin.x, y: stickerOrigin.y - start)
        let centre = Double(width) / 2
        if let club = labels.club, let mark = labels.mark, let line = club.lines.first {
            // The mark leads the name: on its left, or on its right in a right-to-left name.
            let row = ClubMark.row(nameWidth: line.width, markSide: markSide, gap: markGap, centerX: centre,
                                   rightToLeft: club.direction == .rightToLeft)
            mark.draw(in: &band, x: row.markX, y: clubRow.top, rowOffset: start, text: text)
            // The name's middle on the mark's (about 0.36 em under the baseline's rise).
            let baseline = clubRow.top + markSide / 2 + club.pixelSize * 0.36
            text.draw(line, in: &band, x: row.nameX, baseline: baseline, color: clubRow.color, rowOffset: start)
        }
        if let achievement = labels.achievement {
            text.draw(achievement, in: &band, centerX: centre, baseline: achievementStyle.baseline, color: achievementStyle.color, rowOffset: start)
        }
        if let hold = labels.hold {
            text.draw(hold, in: &band, centerX: centre, baseline: holdStyle.baseline, color: holdStyle.color, rowOffset: start)
        }
    }

    /// Encodes the story as an RGB PNG a band at a time (no full-size pixmap is made).
    static func writePNG(sticker: Pixmap, colors: StoryColors, labels: Labels, text: TextEngine, settings: PNGSettings) throws -> [UInt8] {
        let sink = MemorySink(reserving: 1 << 20)
        let writer = try PNGStreamWriter(width: width, height: height, colorType: .rgb, settings: settings, sink: sink)
        // One band's pixels, redrawn for every band (bandHeight divides the height).
        var band = Pixmap(uninitializedWidth: width, height: bandHeight)
        for start in stride(from: 0, to: height, by: bandHeight) {
            drawBand(&band, start: start, sticker: sticker, colors: colors, labels: labels, text: text)
            try writer.append(band)
        }
        try writer.finish()
        return sink.bytes
    }
}
