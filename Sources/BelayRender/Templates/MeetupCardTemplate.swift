/// `meetup-card`: a meetup's 1200x630 link-preview card (Open Graph's size): on a dark
/// gradient, the club's name, the title in large type (two lines at most, shrunk to fit), then
/// when and where, and at the foot the level and the places left as two pills.
enum MeetupCardTemplate {
    static let version = 1
    static let width = 1200
    static let height = 630
    static let top = Color(red: 0x1E, green: 0x2A, blue: 0x38)
    static let bottom = Color(red: 0x0D, green: 0x13, blue: 0x1A)
    static let accent = Color(red: 0x4F, green: 0xC3, blue: 0xF7)
    static let quiet = Color(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 190)
    static let margin = 72.0

    static func style(_ weight: FontWeight, size: Double, language: String) -> TextStyle {
        TextStyle(weight: weight, pixelSize: size, language: language, tracking: TextStyle.displayTracking(points: size / 3))
    }

    static func draw(_ content: MeetupCardContent, text: TextEngine) throws -> Pixmap {
        var image = Pixmap(width: width, height: height)
        image.fillVerticalGradient(top: top, bottom: bottom)
        image.fill(RoundedRectangle(x: 0, y: 0, width: 14, height: Double(height), radius: 0), color: accent)
        let language = content.language
        let lineWidth = Double(width) - 2 * margin
        func line(_ value: String, _ weight: FontWeight, _ size: Double, baseline: Double, color: Color) throws {
            guard !value.isEmpty,
                  let first = try text.layoutLabel(value, style: style(weight, size: size, language: language),
                                                   fit: LabelFit(maxWidth: lineWidth, minimumScale: 0.55)).lines.first else { return }
            text.draw(first, in: &image, x: margin, baseline: baseline, color: color)
        }
        try line(content.clubName, .bold, 34, baseline: 100, color: accent)
        // The title: up to two lines, each shrunk to the width when it must be.
        let words = content.title
        let titleStyle = style(.bold, size: 76, language: language)
        let layout = try text.layoutLabel(words, style: titleStyle, fit: LabelFit(maxWidth: lineWidth, minimumScale: 0.6))
        for (index, titleLine) in layout.lines.prefix(2).enumerated() {
            text.draw(titleLine, in: &image, x: margin, baseline: 210 + Double(index) * 88, color: .white)
        }
        try line(content.when, .regular, 40, baseline: 410, color: .white)
        try line(content.place, .regular, 40, baseline: 468, color: quiet)
        var x = margin
        for pill in [content.level, content.placesLeft] where !pill.isEmpty {
            guard let label = try text.layoutLabel(pill, style: style(.bold, size: 34, language: language),
                                                   fit: LabelFit(maxWidth: 480, minimumScale: 0.6)).lines.first else { continue }
            let pillWidth = label.width + 48
            image.fill(RoundedRectangle(x: x, y: 520, width: pillWidth, height: 62, radius: 31), color: accent)
            text.draw(label, in: &image, x: x + 24, baseline: 563, color: bottom)
            x += pillWidth + 20
        }
        return image
    }
}
