/// `story-background`: the background layer Belay hands to the Instagram and Facebook Stories
/// composers: the vertical gradient of the background's colour pair, with no sticker (the
/// composer draws the sticker layer on top itself). 9:16; Meta's "Sharing to Stories" asks
/// for at most 720x1280 on Android, the default size.
enum StoryBackgroundTemplate {
    /// Bump on any change to how the background looks.
    static let version = 1

    static let defaultSize = (width: 720, height: 1280)
    /// Largest side accepted.
    static let maxSide = 4096

    static func writePNG(colors: StoryColors, width: Int, height: Int, settings: PNGSettings) throws -> [UInt8] {
        let sink = MemorySink(reserving: 64 << 10)
        let writer = try PNGStreamWriter(width: width, height: height, colorType: .rgb, settings: settings, sink: sink)
        let bandHeight = 256
        var band = Pixmap(uninitializedWidth: width, height: bandHeight)
        var start = 0
        while start < height {
            let rows = min(bandHeight, height - start)
            if rows != band.height { band = Pixmap(uninitializedWidth: width, height: rows) }
            band.fillVerticalGradient(top: colors.top, bottom: colors.bottom, rowOffset: start, totalHeight: height)
            try writer.append(band)
            start += rows
        }
        try writer.finish()
        return sink.bytes
    }
}
