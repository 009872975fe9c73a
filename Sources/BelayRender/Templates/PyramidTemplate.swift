/// `logbook-pyramid`: a member's grade pyramid as a 1080x1350 picture (the 4:5 of a feed post):
/// on a dark gradient, the title and period, then a bar a grade, hardest at the top, each
/// centred so that the bars make the pyramid, sends in the grade's colour and flashes beside
/// them in a light tint of it with a white rim (a gym's yellow level must not pass for a flash),
/// the grade on the left and the counts on the right, and a legend at the foot.
enum PyramidTemplate {
    static let version = 1
    static let width = 1080
    static let height = 1350
    static let maximumSteps = 12
    static let top = Color(red: 0x1E, green: 0x2A, blue: 0x38)
    static let bottom = Color(red: 0x0D, green: 0x13, blue: 0x1A)
    static let sendColour = Color(red: 0x4F, green: 0xC3, blue: 0xF7)
    static let rim = 5.0
    static let quiet = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 180)
    static let titleBaseline = 150.0
    static let subtitleBaseline = 215.0
    static let barsTop = 290.0
    static let barsBottom = 1190.0
    static let labelRight = 230.0
    static let barArea = (left: 260.0, right: 900.0)
    static let countLeft = 925.0
    static let legendBaseline = 1275.0

    static func style(_ weight: FontWeight, size: Double, language: String) -> TextStyle {
        TextStyle(weight: weight, pixelSize: size, language: language, tracking: TextStyle.displayTracking(points: size / 3))
    }

    static func draw(_ content: PyramidContent, text: TextEngine) throws -> Pixmap {
        var image = Pixmap(width: width, height: height)
        image.fillVerticalGradient(top: top, bottom: bottom)
        let language = content.language
        let centre = Double(width) / 2
        let fit = LabelFit(maxWidth: Double(width) - 120, minimumScale: 0.6)
        if !content.title.isEmpty {
            text.draw(try text.layoutLabel(content.title, style: style(.bold, size: 64, language: language), fit: fit),
                      in: &image, centerX: centre, baseline: titleBaseline, color: .white)
        }
        if !content.subtitle.isEmpty {
            text.draw(try text.layoutLabel(content.subtitle, style: style(.regular, size: 38, language: language), fit: fit),
                      in: &image, centerX: centre, baseline: subtitleBaseline, color: quiet)
        }

        try drawBars(content.steps, in: &image, top: barsTop, bottom: barsBottom, language: language, text: text)

        try drawLegend(sends: content.sendsWord, flashes: content.flashesWord, in: &image, baseline: legendBaseline, language: language, text: text)
        return image
    }

    /// One bar a step between `top` and `bottom`, the block centred in that space: the grade
    /// on the left, the bar centred on the image, the counts on the right.
    static func drawBars(_ allSteps: [PyramidContent.Step], in image: inout Pixmap, top: Double, bottom: Double, language: String,
                         text: TextEngine) throws {
        let barsTop = top, barsBottom = bottom
        let steps = Array(allSteps.prefix(maximumSteps))
        let most = max(1, steps.map { $0.sends + $0.flashes }.max() ?? 1)
        let pitch = steps.isEmpty ? 0 : min(96, (barsBottom - barsTop) / Double(steps.count))
        let barHeight = pitch * 0.7
        // A few grades sit in the middle of the space, not under the title.
        let blockTop = barsTop + ((barsBottom - barsTop) - pitch * Double(steps.count)) / 2
        let unit = (barArea.right - barArea.left) / Double(most)
        let labelStyle = style(.bold, size: min(44, barHeight * 0.75), language: language)
        let countStyle = style(.regular, size: min(36, barHeight * 0.6), language: language)
        let labelFit = LabelFit(maxWidth: labelRight - 40, minimumScale: 0.5)
        for (index, step) in steps.enumerated() {
            let y = blockTop + Double(index) * pitch + (pitch - barHeight) / 2
            let total = Double(step.sends + step.flashes) * unit
            let left = (barArea.left + barArea.right - total) / 2
            let colour = step.colour.flatMap { Color(hex: $0) } ?? sendColour
            let radius = min(10, barHeight / 3)
            if step.sends > 0 {
                image.fill(RoundedRectangle(x: left, y: y, width: Double(step.sends) * unit, height: barHeight, radius: radius), color: colour)
            }
            if step.flashes > 0 {
                drawFlashes(&image, x: left + Double(step.sends) * unit, y: y, width: Double(step.flashes) * unit, height: barHeight,
                            radius: radius, colour: colour)
            }
            let baseline = y + barHeight / 2 + labelStyle.pixelSize * 0.36
            if let line = try text.layoutLabel(step.label, style: labelStyle, fit: labelFit).lines.first {
                text.draw(line, in: &image, x: labelRight - line.width, baseline: baseline, color: .white)
            }
            let counts = step.flashes > 0 ? "\(step.sends + step.flashes) (\(step.flashes))" : "\(step.sends)"
            if let line = try text.layoutLabel(counts, style: countStyle, fit: LabelFit(maxWidth: Double(width) - countLeft - 20)).lines.first {
                text.draw(line, in: &image, x: countLeft, baseline: y + barHeight / 2 + countStyle.pixelSize * 0.36, color: quiet)
            }
        }

    }

    /// The legend: a swatch and a word for each part of a bar, centred together on `baseline`.
    static func drawLegend(sends: String, flashes: String, in image: inout Pixmap, baseline legendBaseline: Double, language: String,
                           text: TextEngine) throws {
        let centre = Double(width) / 2
        let legendStyle = style(.regular, size: 34, language: language)
        let words = [(sends, false), (flashes, true)]
        let lines = try words.map { word, _ in try text.layoutLabel(word, style: legendStyle, fit: LabelFit(maxWidth: 400)).lines.first }
        let swatch = 30.0, gap = 14.0, spacing = 60.0
        let widths = lines.map { swatch + gap + ($0?.width ?? 0) }
        var x = centre - (widths.reduce(0, +) + spacing * Double(widths.count - 1)) / 2
        for ((_, flashes), line) in zip(words, lines) {
            if flashes {
                drawFlashes(&image, x: x, y: legendBaseline - swatch + 4, width: swatch, height: swatch, radius: 6, colour: sendColour)
            } else {
                image.fill(RoundedRectangle(x: x, y: legendBaseline - swatch + 4, width: swatch, height: swatch, radius: 6), color: sendColour)
            }
            if let line { text.draw(line, in: &image, x: x + swatch + gap, baseline: legendBaseline, color: quiet) }
            x += swatch + gap + (line?.width ?? 0) + spacing
        }
    }

    /// A flashes segment: a white rim around a light tint of the grade's colour.
    static func drawFlashes(_ image: inout Pixmap, x: Double, y: Double, width: Double, height: Double, radius: Double, colour: Color) {
        image.fill(RoundedRectangle(x: x, y: y, width: width, height: height, radius: radius), color: .white)
        guard width > 2 * rim, height > 2 * rim else { return }
        var tint = colour
        tint.alpha = 150
        image.fill(RoundedRectangle(x: x + rim, y: y + rim, width: width - 2 * rim, height: height - 2 * rim, radius: max(0, radius - rim / 2)),
                   color: tint)
    }
}
