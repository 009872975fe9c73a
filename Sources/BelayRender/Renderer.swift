import BelayCore
import Foundation

/// Belay's renderer: draws stickers, stories and collections from plain inputs (artwork
/// files, strings, a scale) and encodes them.
///
/// A renderer owns a text engine (FreeType faces are not thread-safe) and caches of decoded
/// artwork and rasterised glyphs, so it is used by one thread at a time: give each render
/// worker its own. Any number of renderers can work at once.
public final class Renderer {
    public let settings: RenderSettings
    private let text: TextEngine
    private let artwork: ArtworkStore

    /// Opens the fonts of the chain.
    /// - Throws: `RenderError` (`font_unavailable`) naming a font file that cannot be used.
    public init(settings: RenderSettings) throws {
        self.settings = settings
        text = try TextEngine(fonts: settings.fonts)
        artwork = ArtworkStore(limits: settings.limits, cacheBytes: settings.artworkCacheBytes)
    }

    // MARK: Sticker and story

    /// Renders the `hold-sticker` template as an RGBA PNG (240x320 pt at `scale`).
    /// - Throws: `RenderError` for an unusable artwork file (naming it), a scale other than
    ///   1–3, or a failed encode.
    public func renderSticker(_ content: StickerContent, scale: Int = 3) throws -> RenderedImage {
        var report = StickerReport()
        try Self.check(scale: scale)
        let sticker = try drawSticker(content, scale: Double(scale), report: &report)
        return try baked(try encodePNG(sticker, colorType: .rgba, report: report), content)
    }

    /// The keyword of the `iTXt` chunk an Open Badges 3.0 credential is baked under.
    public static let badgeKeyword = "openbadgecredential"

    /// A sticker PNG rendered without a credential, with `credential` baked in: the same bytes
    /// as rendering the sticker with it (the credential is a chunk of its own), for the cost of
    /// copying the file. Stickers of one hold, background, place and date differ only there.
    /// - Throws: `RenderError` when `sticker` is not a PNG.
    public static func bakingBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8] {
        try PNGTextChunk.inserting(keyword: badgeKeyword, text: credential, into: sticker)
    }

    /// `image` with the content's badge credential baked in, when it has one.
    private func baked(_ image: RenderedImage, _ content: StickerContent) throws -> RenderedImage {
        guard let credential = content.badgeCredential else { return image }
        return RenderedImage(bytes: try Self.bakingBadge(credential, into: image.bytes),
                             width: image.width, height: image.height, mediaType: image.mediaType,
                             warnings: image.warnings, labels: image.labels)
    }

    /// Renders the `story` template (1080x1920, the 3x sticker on the colours' gradient).
    /// - Throws: like `renderSticker`.
    public func renderStory(_ content: StickerContent, colors: StoryColors, format: StoryFormat = .png) throws -> RenderedImage {
        var report = StickerReport()
        let sticker = try drawSticker(content, scale: Double(StoryTemplate.stickerScale), report: &report)
        return try encodeStory(sticker: sticker, content: content, colors: colors, format: format, report: report)
    }

    /// Renders a sticker and its story together, drawing the 3x sticker once when both use it.
    /// - Throws: like `renderSticker`.
    public func renderStickerAndStory(
        _ content: StickerContent, stickerScale: Int = 3, colors: StoryColors, format: StoryFormat = .png
    ) throws -> (sticker: RenderedImage, story: RenderedImage) {
        var storyReport = StickerReport()
        try Self.check(scale: stickerScale)
        let story3x = try drawSticker(content, scale: Double(StoryTemplate.stickerScale), report: &storyReport)
        var stickerReport = storyReport
        var sticker = story3x
        if stickerScale != StoryTemplate.stickerScale {
            stickerReport = StickerReport()
            sticker = try drawSticker(content, scale: Double(stickerScale), report: &stickerReport)
        }
        return (
            try baked(try encodePNG(sticker, colorType: .rgba, report: stickerReport), content),
            try encodeStory(sticker: story3x, content: content, colors: colors, format: format, report: storyReport)
        )
    }

    /// Renders the `story-background` template: the Stories background layer, the colours'
    /// gradient without the sticker, as an RGB PNG of `width`x`height` (default 720x1280, the
    /// most Meta's "Sharing to Stories" takes on Android).
    /// - Throws: `RenderError` for a size outside 1–4096 px or a failed encode.
    public func renderStoryBackground(colors: StoryColors, width: Int = 720, height: Int = 1280) throws -> RenderedImage {
        try Self.renderStoryBackground(colors: colors, width: width, height: height, png: settings.pngSettings)
    }

    /// `renderStoryBackground` without a renderer (it draws no text and reads no artwork), safe
    /// to call from any thread.
    public static func renderStoryBackground(colors: StoryColors, width: Int, height: Int, png: PNGSettings = .default) throws -> RenderedImage {
        guard (1...StoryBackgroundTemplate.maxSide).contains(width), (1...StoryBackgroundTemplate.maxSide).contains(height) else {
            throw RenderError(.invalidRequest(detail: "a story background of \(width)x\(height) px; each side must be 1–\(StoryBackgroundTemplate.maxSide)"))
        }
        let bytes = try StoryBackgroundTemplate.writePNG(colors: colors, width: width, height: height, settings: png)
        return RenderedImage(bytes: bytes, width: width, height: height, mediaType: "image/png", warnings: [])
    }

    /// The content key of a story background.
    public static func storyBackgroundKey(colors: StoryColors, width: Int = 720, height: Int = 1280) -> ContentKey {
        var key = ContentKeyBuilder(template: .storyBackground)
        key.add("top", colors.top.hex)
        key.add("bottom", colors.bottom.hex)
        key.add("size", "\(width)x\(height)")
        return key.finish()
    }

    /// How long laying out the sticker's place label takes at `scale`, in microseconds: the
    /// first time in this renderer (opening the fonts it needs), and the median of `repeat`
    /// layouts after that without the label cache (what a new label costs on a warm worker).
    public func placeLayoutMicroseconds(_ content: StickerContent, scale: Int = 3, repeat count: Int = 50) throws -> (first: Double, warm: Double) {
        let style = StickerTemplate.placeStyle(scale: Double(scale), language: content.language)
        let fit = LabelFit(
            maxWidth: StickerTemplate.placeMaxWidth * Double(scale), minimumScale: StickerTemplate.placeMinimumScale,
            scaleStep: StickerTemplate.placeScaleStep, maxLines: StickerTemplate.placeMaxLines)
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = SystemTimeSource.monotonicNanoseconds()
            try body()
            return Double(SystemTimeSource.monotonicNanoseconds() - start) / 1000
        }
        let first = try time { _ = try text.layoutLabelUncached(content.place, style: style, fit: fit) }
        var warm: [Double] = []
        for _ in 0..<max(1, count) {
            warm.append(try time { _ = try text.layoutLabelUncached(content.place, style: style, fit: fit) })
        }
        warm.sort()
        return (first, warm[warm.count / 2])
    }

    /// Characters of the place name or date that no font of the chain has (the images leave
    /// them out), from the layout alone: microseconds once the labels are cached.
    /// - Throws: `RenderError` when a font of the chain cannot be opened.
    public func missingCharacters(_ content: StickerContent) throws -> [Character] {
        var report = StickerReport()
        try StickerTemplate.layoutLabels(place: content.place, date: content.date, language: content.language, scale: 1.0, text: text, report: &report)
        var seen = Set<Character>()
        return report.labels.flatMap(\.missingCharacters).filter { seen.insert($0).inserted }
    }

    /// The content key of a sticker: equal exactly when the rendered images would be equal.
    /// - Throws: `RenderError` when an artwork file cannot be read.
    public func stickerKey(_ content: StickerContent, scale: Int = 3) throws -> ContentKey {
        var key = ContentKeyBuilder(template: .holdSticker)
        try Self.check(scale: scale)
        try addSticker(content, scale: Double(scale), to: &key)
        if let credential = content.badgeCredential { key.add("badge", credential) }
        return key.finish()
    }

    /// The content key of a story.
    /// - Throws: `RenderError` when an artwork file cannot be read.
    public func storyKey(_ content: StickerContent, colors: StoryColors, format: StoryFormat = .png) throws -> ContentKey {
        var key = ContentKeyBuilder(template: .story)
        try addSticker(content, scale: Double(StoryTemplate.stickerScale), to: &key)
        key.add("story-version", String(StoryTemplate.version))
        key.add("club", content.clubName)
        key.add("hold-name", content.holdName)
        try addStoryExtras(content, to: &key)
        key.add("top", colors.top.hex)
        key.add("bottom", colors.bottom.hex)
        switch format {
        case .png: key.add("format", "png")
        case let .jpeg(quality): key.add("format", "jpeg-\(quality)")
        }
        return key.finish()
    }

    // MARK: Share card

    /// Renders the `share-card` template (1200x630, opaque RGB PNG): the link-preview image of
    /// a shared reward.
    /// - Throws: like `renderSticker`.
    public func renderShareCard(_ content: ShareCardContent, colors: StoryColors) throws -> RenderedImage {
        var report = StickerReport()
        let sticker = try drawSticker(content.sticker, scale: ShareCardTemplate.stickerScale, report: &report)
        let card = try ShareCardTemplate.draw(sticker: sticker, content: content, colors: colors, logo: try clubLogo(content.sticker.clubLogoPath, side: ShareCardTemplate.markSide),
                                              text: text, report: &report)
        return try encodePNG(card, colorType: .rgb, report: report)
    }

    /// The content key of a share card.
    /// - Throws: `RenderError` when an artwork file cannot be read.
    public func shareCardKey(_ content: ShareCardContent, colors: StoryColors) throws -> ContentKey {
        var key = ContentKeyBuilder(template: .shareCard)
        try addSticker(content.sticker, scale: ShareCardTemplate.stickerScale, to: &key)
        key.add("hold-name", content.holdName)
        key.add("club", content.clubName)
        try addStoryExtras(content.sticker, to: &key)
        key.add("top", colors.top.hex)
        key.add("bottom", colors.bottom.hex)
        return key.finish()
    }

    // MARK: Logbook pictures

    /// Renders the `logbook-pyramid` template (1080x1350, opaque RGB PNG): a member's grade
    /// pyramid, with the same text engine (every script) as the sticker.
    /// - Throws: `RenderError` for a failed layout or encode.
    public func renderPyramid(_ content: PyramidContent) throws -> RenderedImage {
        let image = try PyramidTemplate.draw(content, text: text)
        return try encodePNG(image, colorType: .rgb, report: StickerReport())
    }

    /// Renders the `logbook-recap` template (1080x1920, opaque RGB PNG): a season of a
    /// member's climbing as a story.
    /// - Throws: `RenderError` for a failed layout or encode.
    public func renderRecap(_ content: RecapContent) throws -> RenderedImage {
        let image = try RecapTemplate.draw(content, text: text)
        return try encodePNG(image, colorType: .rgb, report: StickerReport())
    }

    /// Renders the `meetup-card` template (1200x630, opaque RGB PNG): a meetup's link-preview
    /// card, with the same text engine (every script) as the sticker.
    /// - Throws: `RenderError` for a failed layout or encode.
    public func renderMeetupCard(_ content: MeetupCardContent) throws -> RenderedImage {
        let image = try MeetupCardTemplate.draw(content, text: text)
        return try encodePNG(image, colorType: .rgb, report: StickerReport())
    }

    /// The achievement line and the club's mark (its file's digest), which stories and cards draw.
    private func addStoryExtras(_ content: StickerContent, to key: inout ContentKeyBuilder) throws {
        key.add("achievement", content.achievement)
        key.add("club-logo", content.clubLogoPath.isEmpty ? "" : try artwork.fingerprint(content.clubLogoPath))
    }

    private func addSticker(_ content: StickerContent, scale: Double, to key: inout ContentKeyBuilder) throws {
        key.add("sticker-version", String(StickerTemplate.version))
        key.add("background", try artwork.fingerprint(content.backgroundPath))
        key.add("hold", try artwork.fingerprint(content.holdPath))
        key.add("place", content.place)
        key.add("date", content.date)
        key.add("language", content.language)
        key.add("scale", scale == scale.rounded() ? String(Int(scale)) : String(scale))
        key.add("fonts", fontIdentity)
    }

    /// Decodes and fits the content's background and hold for a sticker at `scale`, as
    /// `renderSticker` would, without drawing: the next render of them skips that work.
    /// - Throws: `RenderError` naming an artwork file that cannot be read or decoded.
    public func preloadArtwork(_ content: StickerContent, scale: Int = 3) throws {
        try Self.check(scale: scale)
        _ = try stickerArtwork(content, scale: Double(scale))
    }

    /// The background and hold of a sticker at `scale` (1–3, or the share card's), decoded and fitted once.
    private func stickerArtwork(_ content: StickerContent, scale: Double) throws -> (background: Pixmap, hold: Pixmap) {
        let parallelism = settings.parallelism
        let background = try artwork.pixmap(content.backgroundPath, variant: "sticker-card@\(scale)x") {
            StickerTemplate.cardBackground($0, scale: scale, parallelism: parallelism)
        }
        let hold = try artwork.pixmap(content.holdPath, variant: "sticker-hold@\(scale)x") {
            StickerTemplate.fittedHold($0, scale: scale, parallelism: parallelism)
        }
        return (background, hold)
    }

    private func drawSticker(_ content: StickerContent, scale: Double, report: inout StickerReport) throws -> Pixmap {
        let (background, hold) = try stickerArtwork(content, scale: scale)
        return try StickerTemplate.draw(
            cardBackground: background, fittedHold: hold, place: content.place, date: content.date, language: content.language,
            scale: scale, text: text, report: &report)
    }

    private func encodeStory(
        sticker: Pixmap, content: StickerContent, colors: StoryColors, format: StoryFormat, report: StickerReport
    ) throws -> RenderedImage {
        let (width, height) = (StoryTemplate.width, StoryTemplate.height)
        var report = report
        let labels = try StoryTemplate.Labels(content: content, logo: try clubLogo(content.clubLogoPath, side: StoryTemplate.markSide), text: text, report: &report)
        switch format {
        case .png:
            let bytes = try StoryTemplate.writePNG(sticker: sticker, colors: colors, labels: labels, text: text, settings: settings.pngSettings)
            return RenderedImage(bytes: bytes, width: width, height: height, mediaType: "image/png", warnings: report.warnings, labels: report.labels)
        case let .jpeg(quality):
            let bytes = try JPEGEncoder(quality: quality).encode(StoryTemplate.draw(sticker: sticker, colors: colors, labels: labels, text: text))
            return RenderedImage(bytes: bytes, width: width, height: height, mediaType: "image/jpeg", warnings: report.warnings, labels: report.labels)
        }
    }

    /// The club's logo fitted to its mark (decoded and fitted once per file), or nil for none.
    private func clubLogo(_ path: String, side: Double) throws -> Pixmap? {
        guard !path.isEmpty else { return nil }
        let parallelism = settings.parallelism
        return try artwork.pixmap(path, variant: "club-mark@\(side)") { ClubMark.fittedLogo($0, side: side, parallelism: parallelism) }
    }

    private func encodePNG(_ pixmap: Pixmap, colorType: PNGColorType, report: StickerReport) throws -> RenderedImage {
        let bytes = try PNGEncoder(settings: settings.pngSettings).encode(pixmap, as: colorType)
        return RenderedImage(
            bytes: bytes, width: pixmap.width, height: pixmap.height, mediaType: "image/png", warnings: report.warnings, labels: report.labels)
    }

    static func check(scale: Int) throws {
        guard (1...3).contains(scale) else {
            throw RenderError(.invalidRequest(detail: "scale \(scale) is not 1, 2 or 3"))
        }
    }

    /// The font files' paths and sizes: a different font file means different pixels.
    private lazy var fontIdentity: String = settings.fonts.allFiles.map { path in
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
        return "\(path):\(size)"
    }.joined(separator: ";")

    // MARK: Collection

    /// Renders the `collection` template at `scale` into an RGB PNG at `path`, a band at a
    /// time; the file appears (atomically) only when complete.
    /// - Throws: `RenderError` for an unusable hold artwork (naming it), a bad scale, or a
    ///   failed write; no partial file is left behind.
    @discardableResult
    public func renderCollection(_ content: CollectionContent, scale: Int = 2, to path: String) throws -> RenderedCollection {
        try Self.check(scale: scale)
        let file = try RenderOutputFile(path: path)
        let counter = CountingSink(file)
        let (width, height, warnings) = try CollectionRenderer(
            content: content, scale: scale, text: text, artwork: artwork, settings: settings
        ).render(to: counter)
        try file.commit()
        return RenderedCollection(path: path, width: width, height: height, bytes: counter.count, warnings: warnings)
    }

    /// The content key of a collection image.
    /// - Throws: `RenderError` when a hold artwork cannot be read.
    public func collectionKey(_ content: CollectionContent, scale: Int = 2) throws -> ContentKey {
        try Self.check(scale: scale)
        var key = ContentKeyBuilder(template: .collection)
        key.add("name", content.memberName)
        key.add("first", content.firstDate ?? "")
        key.add("last", content.lastDate ?? "")
        key.add("count", String(content.items.count))
        if let progress = content.progress {
            key.add("progress", "\(progress.collected)/\(progress.total) streak \(progress.currentStreakWeeks)/\(progress.longestStreakWeeks)")
        }
        for item in content.items {
            key.add("hold", try artwork.fingerprint(item.holdPath))
            key.add("place", item.place)
            key.add("date", item.date)
        }
        key.add("scale", String(scale))
        key.add("fonts", fontIdentity)
        return key.finish()
    }
}

/// Counts the bytes passing to another sink.
final class CountingSink: PNGByteSink {
    private let next: PNGByteSink
    private(set) var count = 0

    init(_ next: PNGByteSink) {
        self.next = next
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try next.write(bytes)
        count += bytes.count
    }
}
