/// Draws one collection image band by band into a PNG stream.
struct CollectionRenderer {
    let content: CollectionContent
    let scale: Int
    let text: TextEngine
    let artwork: ArtworkStore
    let settings: RenderSettings

    private typealias Layout = CollectionTemplate

    /// Renders and encodes the whole image into `sink`; returns its size and any warnings.
    func render(to sink: PNGByteSink) throws -> (width: Int, height: Int, warnings: [String]) {
        let s = Double(scale)
        let bands = Layout.bands(itemCount: content.items.count, withProgress: content.progress != nil)
        let width = Int(Layout.width * s)
        let height = bands.reduce(0) { $0 + Int($1.height * s) }
        let writer = try PNGStreamWriter(width: width, height: height, colorType: .rgb, settings: settings.pngSettings, sink: sink)
        var holds = FittedHolds(side: Int(Layout.holdSide * s), artwork: artwork, parallelism: settings.parallelism)
        var warnings: [String] = []
        for band in bands {
            var pixmap = Pixmap(width: width, height: Int(band.height * s), color: Layout.backgroundColor)
            switch band {
            case .header:
                try drawHeader(in: &pixmap, warnings: &warnings)
                if let progress = content.progress { try drawProgress(progress, in: &pixmap) }
            case .empty:
                try text.drawCentered(
                    "No holds yet", style: TextStyle(weight: .regular, pixelSize: 14 * s), maxWidth: nil,
                    in: &pixmap, centerX: Layout.width / 2 * s, baseline: 40 * s, color: Layout.subtitleStyle.color)
            case let .row(row, _):
                for column in 0..<Layout.columns {
                    let index = row * Layout.columns + column
                    guard index < content.items.count else { break }
                    try drawCard(content.items[index], column: column, in: &pixmap, holds: &holds, warnings: &warnings)
                }
            }
            try writer.append(pixmap)
        }
        try writer.finish()
        return (width, height, Array(Set(warnings)).sorted().prefix(20).map { $0 })
    }

    private func drawHeader(in pixmap: inout Pixmap, warnings: inout [String]) throws {
        let s = Double(scale)
        let maxWidth = (Layout.width - 2 * Layout.margin) * s
        let title = try text.layout(content.memberName, style: TextStyle(weight: .bold, pixelSize: Layout.titleStyle.size * s), maxWidth: maxWidth)
        text.draw(title, in: &pixmap, x: Layout.margin * s, baseline: Layout.titleStyle.baseline * s, color: Layout.titleStyle.color)
        let subtitle = try text.layout(
            Layout.subtitle(content), style: TextStyle(weight: .regular, pixelSize: Layout.subtitleStyle.size * s), maxWidth: maxWidth)
        text.draw(subtitle, in: &pixmap, x: Layout.margin * s, baseline: Layout.subtitleStyle.baseline * s, color: Layout.subtitleStyle.color)
        warnings += LabelReport.warning(missing: title.missingCharacters, label: "member name").map { [$0] } ?? []
    }

    /// The bar of holds collected, its count on the left and the streak on the right.
    private func drawProgress(_ progress: CollectionProgress, in pixmap: inout Pixmap) throws {
        let s = Double(scale)
        let bar = Layout.progressBar
        let left = Layout.margin * s, width = (Layout.width - 2 * Layout.margin) * s
        pixmap.fill(RoundedRectangle(x: left, y: bar.top * s, width: width, height: bar.height * s, radius: bar.height / 2 * s),
                    color: bar.track)
        let fraction = progress.total > 0 ? min(1, Double(progress.collected) / Double(progress.total)) : 0
        if fraction > 0 {
            // At least a round dot, so one hold out of many still shows.
            let filled = max(bar.height * s, width * fraction)
            pixmap.fill(RoundedRectangle(x: left, y: bar.top * s, width: filled, height: bar.height * s, radius: bar.height / 2 * s),
                        color: bar.fill)
        }
        let style = TextStyle(weight: .regular, pixelSize: Layout.progressStyle.size * s)
        let gap = 12 * s
        let collected = try text.layout(Layout.collectedText(progress), style: style, maxWidth: width / 2 - gap / 2)
        text.draw(collected, in: &pixmap, x: left, baseline: Layout.progressStyle.baseline * s, color: Layout.progressStyle.color)
        let streak = try text.layout(Layout.streakText(progress), style: style, maxWidth: width - collected.width - gap)
        text.draw(streak, in: &pixmap, x: left + width - streak.width, baseline: Layout.progressStyle.baseline * s,
                  color: Layout.progressStyle.color)
    }

    private func drawCard(
        _ item: CollectionItem, column: Int, in pixmap: inout Pixmap, holds: inout FittedHolds, warnings: inout [String]
    ) throws {
        let s = Double(scale)
        let left = (Layout.margin + Double(column) * (Layout.cellWidth + Layout.gutter)) * s
        pixmap.fill(
            RoundedRectangle(x: left, y: 0, width: Layout.cellWidth * s, height: Layout.cellHeight * s, radius: Layout.cardRadius * s),
            color: Layout.cardColor)
        let hold = try holds.pixmap(for: item.holdPath)
        let box = Layout.holdSide * s
        pixmap.draw(
            hold, x: Int(left + (Layout.cellWidth * s - Double(hold.width)) / 2),
            y: Int(Layout.holdTop * s + (box - Double(hold.height)) / 2))
        let centre = left + Layout.cellWidth / 2 * s
        let maxWidth = (Layout.cellWidth - 2 * Layout.textInset) * s
        let place = try text.drawCentered(
            item.place, style: TextStyle(weight: .bold, pixelSize: Layout.placeStyle.size * s), maxWidth: maxWidth,
            in: &pixmap, centerX: centre, baseline: Layout.placeStyle.baseline * s, color: Layout.placeStyle.color)
        try text.drawCentered(
            item.date, style: TextStyle(weight: .regular, pixelSize: Layout.dateStyle.size * s), maxWidth: maxWidth,
            in: &pixmap, centerX: centre, baseline: Layout.dateStyle.baseline * s, color: Layout.dateStyle.color)
        warnings += LabelReport.warning(missing: place.missingCharacters, label: "place name").map { [$0] } ?? []
    }
}

/// Hold artworks fitted to the card's hold box, the most recently used 64 kept, so a long
/// collection with few distinct holds fits each once and memory stays bounded.
private struct FittedHolds {
    let side: Int
    let artwork: ArtworkStore
    let parallelism: Int
    private var fitted: [String: (pixmap: Pixmap, lastUse: Int)] = [:]
    private var clock = 0
    private let capacity = 64

    init(side: Int, artwork: ArtworkStore, parallelism: Int) {
        self.side = side
        self.artwork = artwork
        self.parallelism = parallelism
    }

    mutating func pixmap(for path: String) throws -> Pixmap {
        clock += 1
        if let known = fitted[path] {
            fitted[path]?.lastUse = clock
            return known.pixmap
        }
        let pixmap = try artwork.pixmap(path).resizedToFit(width: side, height: side, parallelism: parallelism)
        if fitted.count >= capacity, let oldest = fitted.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            fitted[oldest.key] = nil
        }
        fitted[path] = (pixmap, clock)
        return pixmap
    }
}
