import Foundation

/// One render worker's own tools: its renderer (with its own text engine) and its date
/// formatters. Used by one thread at a time; each worker thread makes its own.
public final class RenderWorkerContext {
    /// The worker's renderer.
    public let renderer: any RewardImageRenderer
    /// The lease owner name the worker claims jobs under.
    public let owner: String
    private let dates = DateTextFormatter()

    public init(renderer: any RewardImageRenderer, owner: String) {
        self.renderer = renderer
        self.owner = owner
    }

    /// `instant` formatted with `pattern` in `timeZone` and `locale`.
    func dateText(_ instant: Date, timeZone: String, locale: String, pattern: String) -> String {
        dates.text(instant, timeZone: timeZone, locale: locale, pattern: pattern)
    }
}

/// Formats dates for images, keeping one `DateFormatter` per zone, locale and pattern.
/// Used by one thread at a time.
final class DateTextFormatter {
    private var formatters: [String: DateFormatter] = [:]

    /// `instant` formatted with `pattern` in `timeZone` (UTC for an unknown identifier) and `locale`.
    func text(_ instant: Date, timeZone: String, locale: String, pattern: String) -> String {
        let key = "\(timeZone)|\(locale)|\(pattern)"
        let formatter: DateFormatter
        if let cached = formatters[key] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(secondsFromGMT: 0)
            formatter.calendar = Calendar(identifier: .gregorian)
            formatter.dateFormat = pattern
            formatters[key] = formatter
        }
        return formatter.string(from: instant)
    }
}
