import Foundation
import Synchronization

/// Date formatters kept by template, zone and locale. Making one (ICU opens its patterns and
/// symbols for the locale) costs far more than formatting with it: a console page listing 200
/// meetups spent most of its time making a formatter per row.
///
/// Thread-safety: one lock guards the table and every use of a formatter, so a formatter is
/// never used by two threads at once (formatting is a few microseconds). The table starts over
/// when it holds `capacity` formatters (templates and locales are few; zones come from meetups).
final class LocalizedDateFormatters: Sendable {
    private struct Key: Hashable {
        let template: String
        let zone: String
        let locale: String
    }

    /// A formatter inside the lock's care: not `Sendable` itself, only ever used under `table`'s lock.
    private final class Kept: @unchecked Sendable {
        let formatter: DateFormatter
        init(_ formatter: DateFormatter) { self.formatter = formatter }
    }

    static let shared = LocalizedDateFormatters(capacity: 512)

    private let capacity: Int
    private let table = Mutex<[Key: Kept]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// `instant` written with the localized `template` in `zone` and `locale`.
    func string(from instant: Date, template: String, zone: TimeZone, locale: String) -> String {
        let key = Key(template: template, zone: zone.identifier, locale: locale)
        return table.withLock { table in
            if let kept = table[key] { return kept.formatter.string(from: instant) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: locale)
            formatter.timeZone = zone
            formatter.setLocalizedDateFormatFromTemplate(template)
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = Kept(formatter)
            return formatter.string(from: instant)
        }
    }
}
