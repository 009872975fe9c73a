/// `story`: a 1080x1920 vertical image for Instagram/Facebook Stories: a vertical gradient of
/// the background's colour pair with the 3x sticker centred on it.
enum StoryTemplate {
    /// Bump on any change to how a story looks (the sticker's own version counts separately).
    static let version = 1

    static let width = 1080
    static let height = 1920
    static let stickerScale = 3
    static let stickerOrigin = (x: 180, y: 480)
    /// Rows drawn and encoded at a time when streaming the PNG; divides `height`.
    static let bandHeight = 240

    /// Draws the whole story around an already drawn 3x sticker.
    static func draw(sticker: Pixmap, colors: StoryColors) -> Pixmap {
        drawBand(rows: 0..<height, sticker: sticker, colors: colors)
    }

    /// Draws rows `rows` of the story.
    static func drawBand(rows: Range<Int>, sticker: Pixmap, colors: StoryColors) -> Pixmap {
        var band = Pixmap(uninitializedWidth: width, height: rows.count)
        band.fillVerticalGradient(top: colors.top, bottom: colors.bottom, rowOffset: rows.lowerBound, totalHeight: height)
        band.draw(sticker, x: stickerOrigin.x, y: stickerOrigin.y - rows.lowerBound)
        return band
    }

    /// Encodes the story as an RGB PNG a band at a time (no full-size pixmap is made).
    static func writePNG(sticker: Pixmap, colors: StoryColors, settings: PNGSettings) throws -> [UInt8] {
        let sink = MemorySink(reserving: 1 << 20)
        let writer = try PNGStreamWriter(width: width, height: height, colorType: .rgb, settings: settings, sink: sink)
        // One band's pixels, redrawn for every band (bandHeight divides the height).
        var band = Pixmap(uninitializedWidth: width, height: bandHeight)
        for start in stride(from: 0, to: height, by: bandHeight) {
            band.fillVerticalGradient(top: colors.top, bottom: colors.bottom, rowOffset: start, totalHeight: height)
            band.draw(sticker, x: stickerOrigin.x, y: stickerOrigin.y - start)
            try writer.append(band)
        }
        try writer.finish()
        return sink.bytes
    }
}
