/// `story`: a 1080x1920 vertical image for the share sheet and "save image": a vertical
/// gradient of the background's colour pair, the club's name above the 3x sticker, and the
/// hold's name below it, all inside the Stories safe zones (nothing in the top 250 px or the
/// bottom 340 px, where Instagram and Facebook draw their own controls).
///
/// Stories composers get the sticker and a background without it (`StoryBackgroundTemplate`),
/// never this composite: they draw the sticker layer themselves.
enum StoryTemplate {
    /// Bump on any change to how a story looks (the sticker's own version counts separately).
    /// 2: club and hold names, Stories safe zones.
    static let version = 2

    static let width = 1080
    static let height = 1920
    static let stickerScale = 3
    static let stickerOrigin = (x: 180, y: 480)
    /// Rows drawn and encoded at a time when streaming the PNG; divides `height`.
    static let bandHeight = 240
    /// Rows at the top and bottom kept free of text and sticker.
    static let safeTop = 250
    static let safeBottom = 340
    static let textMaxWidth = 900.0
    static let clubStyle = (size: 48.0, baseline: 400.0, color: Color.white)
    static let holdStyle = (size: 56.0, baseline: 1530.0, color: Color.white)

    /// The names drawn around the sticker, laid out once and drawn into every band.
    struct Labels {
        var club: TextLabel?
        var hold: TextLabel?

        init(clubName: String, holdName: String, language: String, text: TextEngine, report: inout StickerReport) throws {
            let fit = LabelFit(maxWidth: textMaxWidth, minimumScale: StickerTemplate.placeMinimumScale, scaleStep: StickerTemplate.placeScaleStep)
            if !clubName.isEmpty {
                let label = try text.layoutLabel(clubName, style: TextStyle(weight: .bold, pixelSize: clubStyle.size, language: language), fit: fit)
                report.add(label, name: "club", text: clubName)
                club = label
            }
            if !holdName.isEmpty {
                let label = try text.layoutLabel(holdName, style: TextStyle(weight: .bold, pixelSize: holdStyle.size, language: language), fit: fit)
                report.add(label, name: "hold", text: holdName)
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
        if let club = labels.club {
            text.draw(club, in: &band, centerX: centre, baseline: clubStyle.baseline, color: clubStyle.color, rowOffset: start)
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
