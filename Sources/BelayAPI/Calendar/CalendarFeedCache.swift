import BelayCore
import BelayDomain

/// Members' calendar feeds as sent, by ETag. A feed's ETag is a digest of what its bytes
/// depend on (its `CalendarFeedVersion`, the feed's name and the calendar settings), so it is
/// known from one small query before anything is built: a calendar app revalidating gets its
/// 304 without a feed being built, and members polling an unchanged feed share one build.
///
/// Bodies are named by content, so a kept body is never stale; the memory is bounded by
/// bytes and entries and forgets a body `lifetime` after it was built.
final class CalendarFeedCache: Sendable {
    /// The feed's `X-WR-CALNAME`.
    let name: String
    private let bodies: ExpiringMemory<String, [UInt8]>
    /// The feed's name and the settings, as they enter every ETag.
    private let fixedText: String

    /// - Parameters:
    ///   - name: the feed's `X-WR-CALNAME`.
    ///   - settings: the calendar settings every feed is written with.
    ///   - lifetime: how long a body is kept; zero keeps none.
    ///   - maximumBytes: the bodies' bytes kept at most; a 500-meetup feed is about 2.5 MB.
    init(name: String, settings: CalendarSettings, lifetime: Duration = .seconds(600), capacity: Int = 256,
         maximumBytes: Int = 64 << 20, clock: any TimeSource) {
        self.name = name
        bodies = ExpiringMemory(lifetime: lifetime, capacity: capacity, maximumCost: maximumBytes, clock: clock, cost: { $0.count })
        // The meetup link is a function; a sample of it stands for it (it only ever differs by the id).
        fixedText = "belay-calendar-feed 1\n\(name)\n\(settings.alarmMinutesBefore)\n\(settings.uidDomain)\n"
            + (settings.meetupURL?(0) ?? "-") + "\n"
    }

    /// The ETag of the feed `version` names.
    func etag(of version: CalendarFeedVersion) -> String {
        ContentETag.of(Array((fixedText + version.canonicalText).utf8))
    }

    /// The body sent with `etag`, when kept.
    func body(etag: String) -> [UInt8]? { bodies.value(for: etag) }

    func store(_ body: [UInt8], etag: String) { bodies.store(body, for: etag) }
}
