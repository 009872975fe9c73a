import BelayCore
import BelayDomain
import Foundation

/// How a notice names its meetup: the title, the place, and its times in the meetup's own zone
/// (`Sat 12 Dec, 19:00`, `12월 12일 (토) 19:00`, `12月12日(土) 19:00`).
struct MeetupWords {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    let title: String
    let place: String
    private let facts: NoticeFacts
    private let locale: MemberLocale
    private let calendar: Calendar

    init(_ facts: NoticeFacts, _ locale: MemberLocale) {
        self.facts = facts
        self.locale = locale
        title = facts[text: .meetupTitle] ?? ""
        place = facts[text: .placeName] ?? ""
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = facts.zone
        self.calendar = calendar
    }

    /// When the meetup starts: its day and time.
    var when: String {
        guard let starts = facts[instant: .startsAt] else { return "" }
        return day(of: starts) + (locale == .en ? ", " : " ") + clock(of: starts)
    }

    /// The day the meetup starts.
    var day: String { facts[instant: .startsAt].map(day(of:)) ?? "" }

    /// The time of day of the instant fact `key` (`19:30`), or nothing when the notice has none.
    func clock(_ key: NoticeFacts.Key) -> String { facts[instant: key].map(clock(of:)) ?? "" }

    private func clock(of instant: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    private func day(of instant: Date) -> String {
        let parts = calendar.dateComponents([.month, .day, .weekday], from: instant)
        let month = parts.month ?? 1, dayOfMonth = parts.day ?? 1, weekday = (parts.weekday ?? 1) - 1
        switch locale {
        case .en: return "\(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday]) \(dayOfMonth) \(Self.months[month - 1])"
        case .ko: return "\(month)월 \(dayOfMonth)일 (\(["일", "월", "화", "수", "목", "금", "토"][weekday]))"
        case .ja: return "\(month)月\(dayOfMonth)日(\(["日", "月", "火", "水", "木", "金", "土"][weekday]))"
        }
    }
}
