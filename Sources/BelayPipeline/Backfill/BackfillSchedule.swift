import Foundation
import BelayDomain

/// When the server runs the backfill by itself (`backfill.daily_at` / `backfill.every_minutes`).
public enum BackfillSchedule: Sendable, Hashable {
    /// Never (both settings unset).
    case off
    /// Every day at this wall-clock time in `timeZone` (the club's zone).
    case daily(hour: Int, minute: Int, timeZone: TimeZone)
    /// Every `minutes` minutes, the first run `minutes` after start.
    case every(minutes: Int)

    /// The schedule from the two settings: `daily_at` wins when both are set.
    /// - Parameters:
    ///   - dailyAt: hour and minute, or nil.
    ///   - everyMinutes: 0 for none.
    public init(dailyAt: (hour: Int, minute: Int)?, everyMinutes: Int, timeZone: TimeZone) {
        if let dailyAt {
            self = .daily(hour: dailyAt.hour, minute: dailyAt.minute, timeZone: timeZone)
        } else if everyMinutes > 0 {
            self = .every(minutes: everyMinutes)
        } else {
            self = .off
        }
    }

    /// The first run strictly after `instant`, or nil when off. Daily times that a
    /// daylight-saving jump skips run at the next existing instant.
    public func nextRun(after instant: Date) -> Date? {
        switch self {
        case .off:
            return nil
        case let .every(minutes):
            return instant.addingTimeInterval(Double(minutes) * 60)
        case let .daily(hour, minute, timeZone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.nextDate(after: instant, matching: DateComponents(hour: hour, minute: minute, second: 0),
                                     matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
        }
    }

    /// For logs: `daily at 04:30 Asia/Seoul`, `every 15 minutes`, `off`.
    public var summary: String {
        switch self {
        case .off: return "off"
        case let .every(minutes): return "every \(Plural.counted(minutes, "minute"))"
        case let .daily(hour, minute, zone):
            return "daily at " + String(format: "%02d:%02d", hour, minute) + " " + zone.identifier
        }
    }
}
