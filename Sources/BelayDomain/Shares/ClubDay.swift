import Foundation

/// Names the day an instant falls on in the club's time zone, `yyyy-MM-dd`, as the share
/// statistics query names it (the zone's UTC offset at that instant).
struct ClubDay: Sendable {
    let calendar: Calendar

    init(zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// `yyyy-MM-dd` of `instant`.
    func name(of instant: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The instant the day of `instant` begins.
    func start(of instant: Date) -> Date { calendar.startOfDay(for: instant) }
}
