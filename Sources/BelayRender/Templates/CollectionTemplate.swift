/// `collection`: a member's whole collection as one tall image, like a scroll view's full
/// content: a header (name, number of holds, first and last date, and when known a bar of the
/// holds collected out of the catalogue with the weekly streak), then a grid of cards,
/// three per row, each with the hold, its place and its date. 360 pt wide at 1x–3x, as tall
/// as the collection needs.
///
/// The image is drawn and encoded a band at a time (the header, then one band per grid
/// row), so memory stays flat however many holds there are.
enum CollectionTemplate {
    /// Bump on any change to how a collection looks.
    /// 4: Inter with Noto Sans CJK, as the stickers.
    static let version = 4

    static let width = 360.0
    static let backgroundColor = Color(red: 0x0F, green: 0x11, blue: 0x15)
    static let headerHeight = 100.0
    /// The header with the progress bar and the streak line under the subtitle.
    static let progressHeaderHeight = 146.0
    static let progressBar = (top: 96.0, height: 8.0, track: Color(red: 0x2A, green: 0x2F, blue: 0x3A),
                              fill: Color(red: 0xF5, green: 0xB7, blue: 0x2E))
    static let progressStyle = (size: 12.0, baseline: 124.0, color: Color.white)
    static let emptyHeight = 80.0
    static let margin = 18.0
    static let gutter = 12.0
    static let columns = 3
    static let cellWidth = 100.0
    static let cellHeight = 140.0
    static let bottomMargin = 20.0
    static let cardColor = Color(red: 0x1B, green: 0x1F, blue: 0x27)
    static let cardRadius = 14.0
    static let holdSide = 76.0
    static let holdTop = 14.0
    static let titleStyle = (size: 26.0, baseline: 56.0, color: Color.white)
    static let subtitleStyle = (size: 13.0, baseline: 80.0, color: Color(red: 0x9B, green: 0xA1, blue: 0xAB))
    static let placeStyle = (size: 11.0, baseline: 112.0, color: Color.white)
    static let dateStyle = (size: 9.0, baseline: 128.0, color: Color(red: 0x8E, green: 0x94, blue: 0x9E))
    static let textInset = 6.0

    /// The bands of the image, top to bottom, heights in points.
    enum Band: Equatable {
        case header(withProgress: Bool)
        case empty
        case row(Int, isLast: Bool)

        var height: Double {
            switch self {
            case let .header(withProgress): withProgress ? CollectionTemplate.progressHeaderHeight : CollectionTemplate.headerHeight
            case .empty: CollectionTemplate.emptyHeight
            case let .row(_, isLast): CollectionTemplate.cellHeight + (isLast ? CollectionTemplate.bottomMargin : CollectionTemplate.gutter)
            }
        }
    }

    static func bands(itemCount: Int, withProgress: Bool) -> [Band] {
        let header = Band.header(withProgress: withProgress)
        guard itemCount > 0 else { return [header, .empty] }
        let rows = (itemCount + columns - 1) / columns
        return [header] + (0..<rows).map { .row($0, isLast: $0 == rows - 1) }
    }

    /// "12 of 18 holds collected".
    static func collectedText(_ progress: CollectionProgress) -> String {
        "\(progress.collected) of \(progress.total) \(progress.total == 1 ? "hold" : "holds") collected"
    }

    /// "🔥 5-week streak · best 9", or the best alone while no streak runs.
    static func streakText(_ progress: CollectionProgress) -> String {
        switch (progress.currentStreakWeeks, progress.longestStreakWeeks) {
        case (_, 0): return "No streak yet"
        case let (0, longest): return "Best streak \(longest == 1 ? "1 week" : "\(longest) weeks")"
        case let (current, longest) where current == longest: return "🔥 \(current)-week streak, your best"
        case let (current, longest): return "🔥 \(current)-week streak · best \(longest)"
        }
    }

    static func subtitle(_ content: CollectionContent) -> String {
        let count = content.items.count
        let holds = count == 1 ? "1 hold" : "\(count) holds"
        switch (content.firstDate, content.lastDate) {
        case let (first?, last?) where first != last: return "\(holds) · \(first) – \(last)"
        case let (first?, _): return "\(holds) · \(first)"
        case let (nil, last?): return "\(holds) · \(last)"
        case (nil, nil): return holds
        }
    }
}
