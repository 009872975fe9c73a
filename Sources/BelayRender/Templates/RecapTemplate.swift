/// `logbook-recap`: a season of climbing as a 1080x1920 story, laid out for the Stories safe
/// zones as the reward's story is (nothing in the top 250 px or the bottom 340 px): the title and
/// period, three big figures, the grade pyramid (as `PyramidTemplate` draws it, with its
/// legend), and the places climbed most.
enum RecapTemplate {
    static let version = 1
    static let width = PyramidTemplate.width
    static let height = 1920
    static let titleBaseline = 330.0
    static let subtitleBaseline = 392.0
    static let figureBaseline = 540.0
    static let captionBaseline = 594.0
    static let barsTop = 640.0
    static let barsBottom = 1230.0
    static let legendBaseline = 1290.0
    static let placesHeadingBaseline = 1380.0
    static let placesFirstBaseline = 1440.0
    static let placesPitch = 52.0

    static func draw(_ content: RecapContent, text: TextEngine) throws -> Pixmap {
        var image = Pixmap(width: width, height: height)
        image.fillVerticalGradient(top: PyramidTemplate.top, bottom: PyramidTemplate.bottom)
        let language = content.language
        let centre = Double(width) / 2
        let style = { (weight: FontWeight, size: Double) in PyramidTemplate.style(weight, size: size, language: language) }
        let fit = LabelFit(maxWidth: Double(width) - 120, minimumScale: 0.6)
        if !content.title.isEmpty {
            text.draw(try text.layoutLabel(content.title, style: style(.bold, 64), fit: fit), in: &image, centerX: centre,
                      baseline: titleBaseline, color: .white)
        }
        if !content.subtitle.isEmpty {
            text.draw(try text.layoutLabel(content.subtitle, style: style(.regular, 38), fit: fit), in: &image, centerX: centre,
                      baseline: subtitleBaseline, color: PyramidTemplate.quiet)
        }
        let figures = Array(content.figures.prefix(3))
        let column = Double(width - 120) / Double(max(1, figures.count))
        for (index, figure) in figures.enumerated() {
            let x = 60 + column * (Double(index) + 0.5)
            let columnFit = LabelFit(maxWidth: column - 24, minimumScale: 0.5)
            text.draw(try text.layoutLabel(figure.value, style: style(.bold, 96), fit: columnFit), in: &image, centerX: x,
                      baseline: figureBaseline, color: .white)
            text.draw(try text.layoutLabel(figure.caption, style: style(.regular, 34), fit: columnFit), in: &image, centerX: x,
                      baseline: captionBaseline, color: PyramidTemplate.quiet)
        }
        try PyramidTemplate.drawBars(content.steps, in: &image, top: barsTop, bottom: barsBottom, language: language, text: text)
        try PyramidTemplate.drawLegend(sends: content.sendsWord, flashes: content.flashesWord, in: &image, baseline: legendBaseline,
                                       language: language, text: text)
        let places = Array(content.places.prefix(3))
        if !places.isEmpty {
            text.draw(try text.layoutLabel(content.placesHeading, style: style(.bold, 40), fit: fit), in: &image, centerX: centre,
                      baseline: placesHeadingBaseline, color: .white)
            for (index, place) in places.enumerated() {
                text.draw(try text.layoutLabel(place, style: style(.regular, 38), fit: fit), in: &image, centerX: centre,
                          baseline: placesFirstBaseline + Double(index) * placesPitch, color: PyramidTemplate.quiet)
            }
        }
        return image
    }
}
