import BelayCore
import BelayStorage
import Foundation

/// How often a recurring meetup repeats.
public enum MeetupRepeat: String, Sendable, CaseIterable {
    case weekly
}

extension MeetupService {
    /// The most occurrences one series may have (two years of weekly meetups).
    public static let maxSeriesLength = 104

    /// Creates a recurring meetup: `new` and its repetitions every week up to `until`
    /// (inclusive: an occurrence starting at or before it is made), each on its own row with
    /// its own attendance and check-in code, sharing a `seriesID`. Times are kept in the
    /// meetup's zone: a 19:00 meetup stays at 19:00 across a daylight-saving change.
    /// - Returns: the meetups, soonest first.
    /// - Throws: `DomainError` as `create(_:by:)`, and `invalid_input` (field `until`) for a
    ///   series of fewer than 2 or more than `maxSeriesLength` meetups.
    public func createSeries(_ new: NewMeetup, repeat: MeetupRepeat, until: Date, by actor: Actor) throws -> [Meetup] {
        guard actor.role != .member else { throw DomainError(.notPermitted, "Only hosts and admins create meetups") }
        guard actor.isAdmin || actor.userID == new.hostID else {
            throw DomainError(.notPermitted, "A host creates meetups they host themselves; ask an admin to create one for another host")
        }
        let first = try screened(try placedAtItsGym(new))
        let now = clock.now()
        guard first.endsAt > now else {
            throw DomainError.invalid("ends_at", "A recurring meetup starts with one still to come; its first occurrence would end in the past")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: first.timeZone) ?? .gmt
        var occurrences: [NewMeetup] = []
        var week = 0
        while occurrences.count <= Self.maxSeriesLength {
            guard let start = calendar.date(byAdding: .day, value: 7 * week, to: first.startsAt),
                  let end = calendar.date(byAdding: .day, value: 7 * week, to: first.endsAt), start <= until else { break }
            var occurrence = first
            occurrence.startsAt = start
            occurrence.endsAt = end
            guard Self.hasWritableYear(end, in: calendar.timeZone), Self.hasWritableYear(end, in: clubTimeZone) else {
                throw DomainError.invalid("until", "The series would go past the year 9999 (its meetup on \(RFC3339.string(from: start, fraction: .none)) ends after it); choose an earlier until")
            }
            occurrences.append(occurrence)
            week += 1
        }
        guard occurrences.count >= 2 else {
            throw DomainError.invalid("until", "A series repeats at least once; --until / until is before the second meetup (\(RFC3339.string(from: calendar.date(byAdding: .day, value: 7, to: first.startsAt) ?? first.startsAt, fraction: .none)))")
        }
        guard occurrences.count <= Self.maxSeriesLength else {
            throw DomainError.invalid("until", "A series has at most \(Self.maxSeriesLength) meetups; choose an earlier until")
        }
        return try domainCall {
            try pool.write { db in
                try Self.requireHost(first.hostID, membersMayHost: creators == .members, in: db)
                var ids: [Int64] = []
                for occurrence in occurrences {
                    ids.append(try MeetupRepository.insert(occurrence, secret: Crypto.randomBytes(32), at: now, in: db))
                }
                try MeetupSeriesRepository.setSeries(ids[0], ids: ids, in: db)
                try events.changed(.seriesCreated(meetupIDs: ids), now: now, in: db)
                return try ids.compactMap { try MeetupRepository.find(id: $0, in: db) }
            }
        }
    }

    /// Applies `changes` to a meetup of a series and every later scheduled one, in one
    /// transaction. A new start or end moves each of them by the same wall-clock shift in
    /// their zone (19:00 → 19:30 on every date, whatever the daylight-saving offset). On a
    /// meetup that is not part of a series this is `update(id:_:by:)`.
    /// - Returns: the updated meetups, soonest first.
    /// - Throws: `DomainError` as `update(id:_:by:)` for any of them (then none changes), and
    ///   `invalid_input` (field `time_zone`) for a zone change, which goes one meetup at a time.
    public func updateFollowing(id: Int64, _ changes: MeetupChanges, by actor: Actor) throws -> [Meetup] {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let current = try Self.require(id, in: db)
                guard let seriesID = current.seriesID else { return [try apply(changes, to: current, by: actor, now: now, in: db)] }
                if let zone = changes.timeZone, zone != current.timeZone {
                    throw DomainError.invalid("time_zone", "A series changes its time zone one meetup at a time; leave out --following")
                }
                let zone = TimeZone(identifier: current.timeZone) ?? .gmt
                let startShift = changes.startsAt.map { Self.wallClock($0, zone) - Self.wallClock(current.startsAt, zone) } ?? 0
                let endShift = changes.endsAt.map { Self.wallClock($0, zone) - Self.wallClock(current.endsAt, zone) } ?? 0
                var updated: [Meetup] = []
                for meetupID in try MeetupSeriesRepository.following(seriesID: seriesID, startingFrom: current.startsAt, in: db) {
                    let meetup = try Self.require(meetupID, in: db)
                    var own = changes
                    if changes.startsAt != nil { own.startsAt = Self.instant(wallClock: Self.wallClock(meetup.startsAt, zone) + startShift, zone) }
                    if changes.endsAt != nil { own.endsAt = Self.instant(wallClock: Self.wallClock(meetup.endsAt, zone) + endShift, zone) }
                    updated.append(try apply(own, to: meetup, by: actor, now: now, in: db))
                }
                return updated
            }
        }
    }

    /// Cancels a meetup of a series and every later scheduled one, in one transaction, each as
    /// `cancel(id:by:)` does (those going and waiting are told, `meetup.cancelled` goes out).
    /// Meetups already cancelled, completed or started before it are left as they are. On a
    /// meetup that is not part of a series this cancels that meetup alone.
    /// - Returns: the meetups cancelled now, soonest first.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (the caller must manage every
    ///   one of them; then none changes), `meetup_cancelled` / `meetup_completed` for a first
    ///   meetup that is no longer scheduled.
    public func cancelFollowing(id: Int64, by actor: Actor) throws -> [Meetup] {
        let now = clock.now()
        return try domainCall {
            try pool.write { [events] db in
                let current = try Self.require(id, in: db)
                try Self.requireManager(of: current, actor, in: db)
                try Self.requireOpen(current)
                let ids = try current.seriesID.map { try MeetupSeriesRepository.following(seriesID: $0, startingFrom: current.startsAt, in: db) }
                    ?? [current.id]
                var cancelled: [Meetup] = []
                for meetupID in ids {
                    let meetup = try Self.require(meetupID, in: db)
                    try Self.requireManager(of: meetup, actor, in: db)
                    try Self.cancelInTransaction(meetup, events: events, now: now, in: db)
                    cancelled.append(try Self.require(meetupID, in: db))
                }
                return cancelled
            }
        }
    }

    /// The series whose first meetup `managerID` hosts or co-hosts, or every series (nil: for
    /// admins), the latest first, at most `limit`.
    public func series(managerID: Int64?, limit: Int = 200) throws -> [MeetupSeriesSummary] {
        let limit = try validatedLimit(limit, maximum: 1_000)
        let now = clock.now()
        return try domainCall { try pool.read { try MeetupSeriesRepository.summaries(managerID: managerID, now: now, limit: limit, in: $0) } }
    }

    /// Every meetup of the series `seriesID` (the id of its first meetup), whatever its
    /// status, soonest first; empty for an id that names no series.
    public func seriesMeetups(seriesID: Int64) throws -> [Meetup] {
        try domainCall { try pool.read { try MeetupSeriesRepository.meetups(seriesID: seriesID, in: $0) } }
    }

    /// Seconds since 1970 on the zone's wall clock (the local time read as if it were UTC).
    static func wallClock(_ instant: Date, _ zone: TimeZone) -> TimeInterval {
        instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
    }

    /// The instant whose wall-clock time in `zone` is `wallClock` (the later reading in a
    /// repeated hour, the time after a skipped one).
    static func instant(wallClock: TimeInterval, _ zone: TimeZone) -> Date {
        let guess = Date(timeIntervalSince1970: wallClock - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock))))
        return Date(timeIntervalSince1970: wallClock - Double(zone.secondsFromGMT(for: guess)))
    }
}
