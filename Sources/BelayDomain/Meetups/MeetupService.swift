import BelayCore
import BelayStorage
import Foundation

/// Creating, changing, cancelling, reading and listing meetups, and the host's check-in code.
///
/// Creating needs a host or admin, or any member when `creators` is `members` (a member then
/// hosts the meetups they create); changing, cancelling and reading the code need the
/// meetup's host or an admin (`not_permitted` otherwise).
public final class MeetupService: Sendable {
    /// How many places a meetup may have.
    public static let capacities = 1...10_000
    let pool: any DatabaseStore
    let clock: any TimeSource
    let policy: CheckInPolicy
    private let codes: CheckInCodeGenerator
    let events: ChangeFeed
    let waitlist: WaitlistRules
    /// Who may create meetups.
    let creators: MeetupCreators
    /// The club's zone, in which meetups are also shown (share cards, stickers, statistics).
    let clubTimeZone: TimeZone
    /// The club's blocked words, checked in titles, descriptions and place names.
    let screen: (any ContentScreen)?
    /// No links in the descriptions of members too new to the club.
    let links: LinkRule
    /// The meetups to come that strangers' searches look through, in memory.
    let searchIndex = MeetupSearchIndex()

    init(pool: any DatabaseStore, clock: any TimeSource, checkInPolicy: CheckInPolicy, events: ChangeFeed, waitlist: WaitlistRules,
         creators: MeetupCreators, clubTimeZone: TimeZone, screen: (any ContentScreen)? = nil, newMemberDays: Int = 0) {
        self.screen = screen
        self.links = LinkRule(newMemberDays: newMemberDays)
        self.creators = creators
        self.clubTimeZone = clubTimeZone
        self.pool = pool
        self.clock = clock
        self.policy = checkInPolicy
        self.codes = CheckInCodeGenerator(stepSeconds: checkInPolicy.codeStepSeconds)
        self.events = events
        self.waitlist = waitlist
    }

    /// Creates a scheduled meetup with a fresh check-in secret.
    ///
    /// A meetup that has already ended is refused unless `recordPast` is set, which only an
    /// admin may do: that records a meetup that happened (last season's paper attendance),
    /// `completed` at once when its check-in window has closed, so that admins can then add
    /// its attendees and check them in at the times they came.
    /// - Throws: `DomainError`: `not_permitted` (a member, a host creating for another host,
    ///   or recording a past meetup without being an admin), `invalid_input` naming the field
    ///   (`ends_at` in the past without `record_past`; `record_past` for a meetup still to
    ///   come), `user_not_found` for the host, or `not_permitted` when the named host is only
    ///   a member.
    public func create(_ new: NewMeetup, by actor: Actor) throws -> Meetup {
        try create(new, recordPast: false, by: actor)
    }

    /// Creates a meetup as `create(_:by:)` does, or records one that already happened
    /// (`recordPast`; admins only).
    /// - Throws: as `create(_:by:)`.
    public func create(_ new: NewMeetup, recordPast: Bool, by actor: Actor) throws -> Meetup {
        try createWrite(new, recordPast: recordPast, by: actor).perform()
    }

    /// Creates like `create(_:recordPast:by:)` without holding the calling thread while the
    /// write waits for its commit: `completion` gets the meetup, or the same errors, on the
    /// database's writer thread (or at once, on this one, for a refusal found before writing).
    public func create(_ new: NewMeetup, recordPast: Bool = false, by actor: Actor,
                       then completion: @escaping @Sendable (Result<Meetup, any Error>) -> Void) {
        do {
            try createWrite(new, recordPast: recordPast, by: actor).perform(then: completion)
        } catch {
            completion(.failure(error))
        }
    }

    private func createWrite(_ new: NewMeetup, recordPast: Bool, by actor: Actor) throws -> DomainWrite<Meetup> {
        guard actor.role != .member || creators == .members else {
            throw DomainError(.notPermitted, "Only hosts and admins create meetups in this club (meetups.created_by is hosts)")
        }
        guard actor.isAdmin || actor.userID == new.hostID else {
            throw DomainError(.notPermitted, "A host creates meetups they host themselves; ask an admin to create one for another host")
        }
        let meetup = try screened(try placedAtItsGym(new))
        let secret = Crypto.randomBytes(32)
        let now = clock.now()
        let ended = meetup.endsAt <= now
        if ended && !recordPast {
            throw DomainError.invalid("ends_at", "The meetup would end at \(RFC3339.string(from: meetup.endsAt, fraction: .none)), which is in the past. To record a meetup that already happened, an admin sets record_past: true (API) or --past (CLI)")
        }
        if recordPast {
            guard actor.isAdmin else { throw DomainError(.notPermitted, "Only admins record past meetups") }
            guard ended else {
                throw DomainError.invalid("record_past", "record_past is for meetups that already ended; this one ends at \(RFC3339.string(from: meetup.endsAt, fraction: .none)), so leave it out")
            }
        }
        let windowClosed = policy.window(start: meetup.startsAt, end: meetup.endsAt).closesAt <= now
        return DomainWrite(pool: pool,
            body: { [events, links, membersMayHost = creators == .members] db in
                try Self.requireHost(meetup.hostID, membersMayHost: membersMayHost, in: db)
                try links.check(description: meetup.description, hostID: meetup.hostID, by: actor, now: now, in: db)
                let id = try MeetupRepository.insert(meetup, secret: secret, at: now, in: db)
                if recordPast && windowClosed { try MeetupRepository.setStatus(.completed, id: id, at: now, in: db) }
                let created = try MeetupRepository.find(id: id, in: db)!
                try events.changed(.meetupCreated(created, ended: ended), now: now, in: db)
                return created
            })
    }

    /// Applies `changes`. Raising the capacity promotes waitlisted members in order in the
    /// same transaction; lowering it never removes anyone.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`, `invalid_input`,
    ///   `meetup_cancelled` / `meetup_completed` (those are final).
    public func update(id: Int64, _ changes: MeetupChanges, by actor: Actor) throws -> Meetup {
        try updateWrite(id: id, changes, by: actor).perform()
    }

    /// Applies `changes` like `update(id:_:by:)` without holding the calling thread while the
    /// write waits for its commit: `completion` gets the meetup, or the same errors, on the
    /// database's writer thread (keep it short: hand the result on).
    public func update(id: Int64, _ changes: MeetupChanges, by actor: Actor,
                       then completion: @escaping @Sendable (Result<Meetup, any Error>) -> Void) {
        updateWrite(id: id, changes, by: actor).perform(then: completion)
    }

    private func updateWrite(id: Int64, _ changes: MeetupChanges, by actor: Actor) -> DomainWrite<Meetup> {
        let now = clock.now()
        return DomainWrite(pool: pool,
            body: { [self] db in try apply(changes, to: try Self.require(id, in: db), by: actor, now: now, in: db) })
    }

    /// One meetup's update inside a write transaction (see `update(id:_:by:)`).
    func apply(_ changes: MeetupChanges, to current: Meetup, by actor: Actor, now: Date, in db: Database) throws -> Meetup {
        let id = current.id
                try Self.requireManager(of: current, actor, in: db)
                try Self.requireOpen(current)
                var merged = NewMeetup(title: changes.title ?? current.title,
                                       description: changes.description ?? current.description,
                                       placeName: changes.placeName ?? current.placeName,
                                       address: changes.address ?? current.address,
                                       startsAt: changes.startsAt ?? current.startsAt,
                                       endsAt: changes.endsAt ?? current.endsAt,
                                       timeZone: changes.timeZone ?? current.timeZone,
                                       capacity: changes.capacity ?? current.capacity,
                                       hostID: changes.hostID ?? current.hostID,
                                       gymID: changes.gymID ?? current.gymID)
                merged.location = changes.location ?? current.location
                merged.discipline = changes.discipline ?? current.discipline
                merged.level = changes.level ?? current.level
                merged.tags = changes.tags ?? current.tags
                merged.visibility = changes.visibility ?? current.visibility
                if let gymID = merged.gymID, changes.gymID != nil || changes.timeZone != nil {
                    // Moved to a gym, or its zone changed: the gym's address and zone hold.
                    if changes.placeName == nil, changes.gymID != nil { merged.placeName = "" }
                    if changes.address == nil { merged.address = nil }
                    if changes.timeZone == nil { merged.timeZone = "" }
                    if changes.location == nil { merged.location = nil }
                    merged = try Self.placed(merged, at: try GymService.require(gymID, in: db))
                }
                merged = try screened(merged)
                if merged.description != current.description {
                    try links.check(description: merged.description, hostID: merged.hostID, by: actor, now: now, in: db)
                }
                if merged.hostID != current.hostID {
                    guard actor.isAdmin else { throw DomainError(.notPermitted, "Only an admin hands a meetup to another host") }
                    try Self.requireHost(merged.hostID, membersMayHost: creators == .members, in: db)
                }
                try MeetupRepository.update(id: id, with: merged, at: now, in: db)
                if merged.visibility == .private, current.page?.isPublished == true {
                    try MeetupPageRepository.unpublish(meetupID: id, in: db)  // a private meetup has no public page
                }
                if merged.capacity > current.capacity {
                    try waitlist.fill(meetupID: id, capacity: merged.capacity, startsAt: merged.startsAt, now: now, in: db)
                }
                let updated = try MeetupRepository.find(id: id, in: db)!
                let moved = updated.startsAt != current.startsAt || updated.placeName != current.placeName || updated.address != current.address
                try events.changed(.meetupUpdated(updated, timeOrPlaceChanged: moved), now: now, in: db)
                return updated
    }

    /// Cancels a meetup and, in the same transaction, every `going` and `waitlisted`
    /// attendance. Check-ins already made (and their rewards) stand. Cancelling twice is harmless.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`, `meetup_completed`.
    public func cancel(id: Int64, by actor: Actor) throws -> Meetup {
        try cancelWrite(id: id, by: actor).perform()
    }

    /// Cancels like `cancel(id:by:)` without holding the calling thread while the write
    /// waits for its commit: `completion` gets the meetup, or the same errors, on the
    /// database's writer thread (keep it short: hand the result on).
    public func cancel(id: Int64, by actor: Actor, then completion: @escaping @Sendable (Result<Meetup, any Error>) -> Void) {
        cancelWrite(id: id, by: actor).perform(then: completion)
    }

    private func cancelWrite(id: Int64, by actor: Actor) -> DomainWrite<Meetup> {
        let now = clock.now()
        return DomainWrite(pool: pool,
            body: { [events] db in
                let current = try Self.require(id, in: db)
                try Self.requireManager(of: current, actor, in: db)
                if current.status == .cancelled { return current }
                guard current.status != .completed else {
                    throw DomainError(.meetupCompleted, "Meetup \(id) is completed and cannot be cancelled")
                }
                try Self.cancelInTransaction(current, events: events, now: now, in: db)
                return try MeetupRepository.find(id: id, in: db)!
            })
    }

    /// Cancels a scheduled meetup inside the caller's transaction: those going and waiting are
    /// told, their attendances end, and `meetup.cancelled` goes out. Also used when a
    /// moderator suspends the meetup's host.
    static func cancelInTransaction(_ current: Meetup, events: ChangeFeed, now: Date, in db: Database) throws {
        try MeetupRepository.setStatus(.cancelled, id: current.id, at: now, in: db)
        let sentHome = try AttendanceRepository.cancelOpen(meetupID: current.id, at: now, in: db)
        try events.changed(.meetupCancelled(current, sentHome: sentHome), now: now, in: db)
    }

    /// Completes every scheduled meetup whose check-in window has closed (up to `limit`, the
    /// earliest first), each with a `meetup.completed` event, in one transaction. Idempotent:
    /// run it until it returns fewer than `limit`; a meetup is completed once.
    /// - Returns: the meetups completed now.
    /// - Throws: `DomainError` for a limit outside 1…1000 or a storage failure.
    @discardableResult
    public func completeEnded(limit: Int = 100) throws -> [Meetup] {
        let limit = try validatedLimit(limit, maximum: 1_000)
        let now = clock.now()
        let cutoff = now.addingTimeInterval(-Double(policy.closesMinutesAfterEnd) * 60)
        return try domainCall {
            try pool.write { db in
                try MeetupLifecycleRepository.scheduledEnded(before: cutoff, limit: limit, in: db).compactMap { id in
                    try MeetupRepository.setStatus(.completed, id: id, at: now, in: db)
                    try events.changed(.meetupCompleted(meetupID: id), now: now, in: db)
                    return try MeetupRepository.find(id: id, in: db)
                }
            }
        }
    }

    // MARK: Co-hosts

    /// Makes `userID` a co-host: they get the host's rights on this meetup (changing it,
    /// its attendees and check-ins, its code, the rewards and statistics from it). Handing the
    /// meetup over and naming co-hosts stay with its host and admins. Adding twice is harmless.
    /// - Returns: the co-hosts' ids, in the order they were added.
    /// A host names only someone they may see (`UserVisibility`: a host or admin who joined one
    /// of their meetups); an admin names anyone.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the host or an admin;
    ///   a co-host must be a host or admin), `user_not_found` (no such user, or one the caller
    ///   may not see), `invalid_input` (the host themselves), `meetup_cancelled` / `meetup_completed`.
    @discardableResult
    public func addCohost(meetupID: Int64, userID: Int64, by actor: Actor) throws -> [Int64] {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let meetup = try Self.require(meetupID, in: db)
                try Self.requireHostOrAdmin(of: meetup, actor)
                try Self.requireOpen(meetup)
                // Named only to those who may see them: anyone else hears what a missing id gets.
                let cohost = try UserVisibility.require(userID, visibleTo: actor, field: "user_id", in: db)
                guard userID != meetup.hostID else {
                    throw DomainError.invalid("user_id", "\(cohost.handle) hosts meetup \(meetupID) already; a co-host is someone else")
                }
                guard cohost.role != .member else {
                    throw DomainError(.notPermitted, "\(cohost.handle) is a member; make them a host before they co-host a meetup")
                }
                _ = try MeetupHostRepository.add(meetupID: meetupID, userID: userID, now: now, in: db)
                return try MeetupHostRepository.cohosts(meetupID: meetupID, in: db)
            }
        }
    }

    /// Takes a co-host's rights on this meetup away. Removing someone who is not one is harmless.
    /// - Returns: the remaining co-hosts' ids.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the host or an admin).
    @discardableResult
    public func removeCohost(meetupID: Int64, userID: Int64, by actor: Actor) throws -> [Int64] {
        try domainCall {
            try pool.write { db in
                let meetup = try Self.require(meetupID, in: db)
                try Self.requireHostOrAdmin(of: meetup, actor)
                _ = try MeetupHostRepository.remove(meetupID: meetupID, userID: userID, in: db)
                return try MeetupHostRepository.cohosts(meetupID: meetupID, in: db)
            }
        }
    }

    /// The meetup's co-hosts' ids, in the order they were added.
    /// - Throws: `DomainError.meetupNotFound`.
    public func cohosts(meetupID: Int64) throws -> [Int64] {
        try domainCall {
            try pool.read { db in
                _ = try Self.require(meetupID, in: db)
                return try MeetupHostRepository.cohosts(meetupID: meetupID, in: db)
            }
        }
    }

    /// Whether `actor` has the host's rights on the meetup (its host or a co-host who is a
    /// host, or an admin); false for an unknown meetup.
    public func isManaged(meetupID: Int64, by actor: Actor) throws -> Bool {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db) else { return false }
                return try HostRights.manages(actor, meetupID: meetupID, hostID: meetup.hostID, in: db)
            }
        }
    }

    static func requireHostOrAdmin(of meetup: Meetup, _ actor: Actor) throws {
        guard actor.isAdmin || (actor.role == .host && actor.userID == meetup.hostID) else {
            throw DomainError(.notPermitted, "Only the meetup's host or an admin names its co-hosts")
        }
    }

    /// Marks a meetup completed (it no longer takes joins). Completing twice is harmless.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`, `meetup_cancelled`.
    public func complete(id: Int64, by actor: Actor) throws -> Meetup {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let current = try Self.require(id, in: db)
                try Self.requireManager(of: current, actor, in: db)
                if current.status == .completed { return current }
                guard current.status != .cancelled else {
                    throw DomainError(.meetupCancelled, "Meetup \(id) is cancelled and cannot be completed")
                }
                try MeetupRepository.setStatus(.completed, id: id, at: now, in: db)
                try events.changed(.meetupCompleted(meetupID: id), now: now, in: db)
                return try MeetupRepository.find(id: id, in: db)!
            }
        }
    }

    /// One meetup with its attendance counts. One indexed read on a reader connection.
    /// - Throws: `DomainError.meetupNotFound`.
    public func meetup(id: Int64) throws -> Meetup {
        try domainCall { try pool.read { try Self.require(id, in: $0) } }
    }

    /// `query` with its cursor in the one spelling this service gives out, so that every
    /// spelling of the same position (leading zeros, a sign, padding) is the same request:
    /// what a cache keys on.
    /// - Throws: `DomainError.invalidCursor` when the cursor is not one of this list's.
    public func canonical(_ query: MeetupQuery) throws -> MeetupQuery {
        var canonical = query
        canonical.cursor = try query.cursor.map { try Cursor.decode($0, list: Self.listName(query)).encoded }
        return canonical
    }

    static func listName(_ query: MeetupQuery) -> String {
        query.search.isEmpty ? "meetups-\(query.scope.rawValue)" : "search-\(query.scope.rawValue)-\(query.search.sort.rawValue)"
    }

    /// A start key holds the title rank above the milliseconds: rank × 10¹⁴ + milliseconds.
    static let rankStep: Int64 = 100_000_000_000_000

    /// A page of meetups (keyset pagination: stable while meetups are added), filtered and
    /// ordered by `query.search` when it has anything: near a point (the engine's spatial
    /// index), by words (its text index, title matches first), days in each meetup's own zone,
    /// level, discipline, tag, places left. Cancelled meetups are left out of a search, private
    /// ones out of every list but the command line's and a host's own.
    /// - Parameter preferences: the scales a searched-for grade is read in first.
    /// - Throws: `DomainError` for a bad limit, cursor or search value (naming the parameter).
    public func list(_ query: MeetupQuery, preferences: LogbookPreferences = LogbookPreferences()) throws -> Page<Meetup> {
        let limit = try validatedLimit(query.limit)
        let listName = Self.listName(query)
        let cursor = try query.cursor.map { try Cursor.decode($0, list: listName) }
        let resolved = try ResolvedMeetupSearch(query.search, preferences: preferences)
        let now = clock.now()
        let byDistance = query.search.sort == .distance
        var position = cursor.map { cursor in
            byDistance ? MeetupRepository.ListPosition(titleRank: 0, key: cursor.key, id: cursor.id)
                : MeetupRepository.ListPosition(titleRank: cursor.key / Self.rankStep, key: cursor.key % Self.rankStep, id: cursor.id)
        }
        let checksDays = query.search.from != nil || query.search.to != nil
        var kept: [MeetupRepository.Listed] = []
        // Days are matched roughly by the index and exactly here, in each meetup's own zone:
        // read on until the page is full or the list ends.
        while true {
            let rows = try domainCall {
                try pool.read { try MeetupRepository.list(query, resolved: resolved, now: now, after: position, limit: limit + 1, in: $0) }
            }
            for row in rows where kept.count <= limit {
                if checksDays {
                    let day = CalendarDay(row.meetup.startsAt, in: TimeZone(identifier: row.meetup.timeZone) ?? .gmt)
                    if let from = query.search.from, day < from { continue }
                    if let to = query.search.to, day > to { continue }
                }
                kept.append(row)
            }
            guard checksDays, kept.count <= limit, rows.count == limit + 1, let last = rows.last else { break }
            position = MeetupRepository.ListPosition(titleRank: last.titleRank, key: byDistance ? last.distanceKey ?? 0 : last.meetup.startsAt.millisecondsSince1970,
                                                     id: last.meetup.id)
        }
        let page = Array(kept.prefix(limit))
        let next = kept.count > limit ? page.last.map { row in
            Cursor(list: listName, key: byDistance ? row.distanceKey ?? 0 : row.titleRank * Self.rankStep + row.meetup.startsAt.millisecondsSince1970,
                   id: row.meetup.id).encoded
        } : nil
        return Page(items: page.map(\.meetup), nextCursor: next)
    }

    /// The check-in window of a meetup under this service's policy.
    public func checkInWindow(of meetup: Meetup) -> CheckInWindow {
        policy.window(start: meetup.startsAt, end: meetup.endsAt)
    }

    /// The code to show on the host's screen now, and when it expires. With `showingAhead`,
    /// a code with less than `CheckInCode.showAheadSeconds` left gives way to the next one
    /// (which check-in accepts from then on), so nobody reads a code that expires as they type it.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the meetup's host
    ///   or an admin may see it), `meetup_cancelled`.
    public func currentCheckInCode(meetupID: Int64, by actor: Actor, showingAhead: Bool = false) throws -> CheckInCode {
        let now = clock.now()
        let (meetup, manages) = try domainCall {
            try pool.read { db -> (MeetupRepository.Essentials?, Bool) in
                guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db) else { return (nil, false) }
                return (meetup, try HostRights.manages(actor, meetupID: meetupID, hostID: meetup.hostID, in: db))
            }
        }
        guard let meetup else { throw Self.notFound(meetupID) }
        guard manages else {
            throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, see its check-in code")
        }
        guard meetup.status != .cancelled else {
            throw DomainError(.meetupCancelled, "Meetup \(meetupID) is cancelled; there is nothing to check in to")
        }
        return showingAhead ? codes.shown(secret: meetup.secret, at: now, timeZone: meetup.timeZone)
                            : codes.current(secret: meetup.secret, at: now, timeZone: meetup.timeZone)
    }

    // MARK: Rules

    static func notFound(_ id: Int64) -> DomainError {
        DomainError(.meetupNotFound, "No meetup has id \(id); list meetups to find the right one")
    }

    static func require(_ id: Int64, in db: Database) throws -> Meetup {
        guard let meetup = try MeetupRepository.find(id: id, in: db) else { throw notFound(id) }
        return meetup
    }

    static func requireManager(of meetup: Meetup, _ actor: Actor, in db: Database) throws {
        guard try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db) else {
            throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, may do this")
        }
    }

    static func requireOpen(_ meetup: Meetup) throws {
        switch meetup.status {
        case .scheduled: return
        case .cancelled: throw DomainError(.meetupCancelled, "Meetup \(meetup.id) is cancelled; create a new one instead")
        case .completed: throw DomainError(.meetupCompleted, "Meetup \(meetup.id) is completed and can no longer change")
        }
    }

    /// Refuses a host who does not exist, or who is a member unless `membersMayHost`
    /// (`meetups.created_by` is `members`; co-hosts are always hosts or admins).
    static func requireHost(_ userID: Int64, membersMayHost: Bool = false, in db: Database) throws {
        guard let host = try UserRepository.find(id: userID, in: db) else {
            throw DomainError(.userNotFound, "No user has id \(userID) to host the meetup", field: "host_id")
        }
        guard host.role != .member || membersMayHost else {
            throw DomainError(.notPermitted, "\(host.handle) is a member; make them a host first (`belay users role \(host.handle) host`)")
        }
    }

    /// Refuses an instant whose year on the wall clock of one of `zones` is not in `writableYears`
    /// (`9999-12-31T23:00:00Z` is already the year 10000 in Asia/Seoul).
    /// - Throws: `DomainError` (`invalid_input`) naming `field`.
    static func requireWritableYear(_ instant: Date, field: String, zones: [TimeZone]) throws {
        guard let zone = zones.first(where: { !hasWritableYear(instant, in: $0) }) else { return }
        let offset = zone.secondsFromGMT(for: instant)
        // An instant too far out to count in milliseconds is not written at all.
        let local = RFC3339.year(of: instant, utcOffsetSeconds: offset) == nil ? ""
            : " (\(RFC3339.string(from: instant, utcOffsetSeconds: offset, fraction: .none)) in \(zone.identifier))"
        let utc = RFC3339.year(of: instant) == nil ? "this time" : RFC3339.string(from: instant, fraction: .none)
        throw DomainError.invalid(field, "\(field) must fall in the years 0001 to 9999 in the meetup's time zone and the club's; \(utc)\(local) does not. Choose a time in that range")
    }

    /// Whether `instant`'s year on `zone`'s wall clock is in `writableYears`.
    static func hasWritableYear(_ instant: Date, in zone: TimeZone) -> Bool {
        RFC3339.year(of: instant, utcOffsetSeconds: zone.secondsFromGMT(for: instant)).map(writableYears.contains) ?? false
    }

    static let canonicalTimeZones = Set(TimeZone.knownTimeZoneIdentifiers)

    /// Whether `name` is a zone of the tz database: a canonical name, or one of its links and
    /// aliases (`UTC`, `Etc/UTC`, `Etc/GMT+12`, `US/Eastern`, `Asia/Kolkata`). Foundation's own
    /// offset spellings (`GMT+0900`, `GMT+9`) are not tz names and are refused.
    public static func isTimeZoneName(_ name: String) -> Bool {
        if canonicalTimeZones.contains(name) { return true }
        guard !name.isEmpty, name.utf8.count <= 64, TimeZone(identifier: name) != nil else { return false }
        for prefix in ["GMT+", "GMT-", "UTC+", "UTC-"] where name.hasPrefix(prefix) { return false }
        return true
    }

    /// The years a meetup's start and end may have on the wall clock of its own zone and of the
    /// club's: RFC 3339 and iCalendar write a year in four digits.
    public static let writableYears = 1...9999

    /// `new` at the gym it names (see `placed(_:at:)`), or as it is when it names none.
    /// - Throws: `DomainError`: `gym_not_found`, `invalid_input` (`time_zone`).
    func placedAtItsGym(_ new: NewMeetup) throws -> NewMeetup {
        guard let gymID = new.gymID else { return new }
        return try Self.placed(new, at: try domainCall { try pool.read { db in try GymService.require(gymID, in: db) } })
    }

    /// `meetup` at `gym`: the gym's zone, its address unless one is given, and its name unless
    /// a place name is given.
    /// - Throws: `DomainError.invalidInput` (`time_zone`) for a zone other than the gym's.
    static func placed(_ meetup: NewMeetup, at gym: Gym) throws -> NewMeetup {
        var placed = meetup
        if !meetup.timeZone.isEmpty, meetup.timeZone != gym.timeZone {
            throw DomainError.invalid("time_zone", "A meetup at \(gym.name) is in the gym's zone, \(gym.timeZone); leave time_zone out")
        }
        placed.timeZone = gym.timeZone
        if meetup.placeName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { placed.placeName = gym.name }
        if meetup.address == nil { placed.address = gym.address }
        if meetup.location == nil { placed.location = gym.location }
        return placed
    }

    /// `input` trimmed and checked.
    /// - Throws: `DomainError` (`invalid_input`) naming the first field that is wrong.
    /// `input` validated, and its title, description and place screened against the club's
    /// blocked words.
    /// - Throws: `DomainError` `invalid_input` or `content_refused`, naming the field.
    func screened(_ input: NewMeetup) throws -> NewMeetup {
        let meetup = try Self.validated(input, clubTimeZone: clubTimeZone)
        try screen?.check(meetup.title, field: "title", noun: "The title")
        try screen?.check(meetup.description, field: "description", noun: "The description")
        try screen?.check(meetup.placeName, field: "place_name", noun: "The place name")
        return meetup
    }

    static func validated(_ input: NewMeetup, clubTimeZone: TimeZone) throws -> NewMeetup {
        var meetup = input
        meetup.title = input.title.trimmingCharacters(in: .whitespacesAndNewlines)
        meetup.placeName = input.placeName.trimmingCharacters(in: .whitespacesAndNewlines)
        meetup.description = input.description.trimmingCharacters(in: .whitespacesAndNewlines)
        meetup.address = input.address?.trimmingCharacters(in: .whitespacesAndNewlines)
        if meetup.address?.isEmpty == true { meetup.address = nil }
        try TextRule.meetupTitle.check(meetup.title)
        try TextRule.meetupPlaceName.check(meetup.placeName)
        try TextRule.meetupDescription.check(meetup.description)
        try TextRule.meetupAddress.check(meetup.address)
        guard meetup.endsAt > meetup.startsAt else {
            throw DomainError.invalid("ends_at", "The meetup must end after it starts")
        }
        guard Set(meetup.tags).count == meetup.tags.count, meetup.tags.count <= MeetupTag.maximumPerMeetup else {
            throw DomainError.invalid("tags", "A meetup has at most \(MeetupTag.maximumPerMeetup) tags, each once (got \(meetup.tags.map(\.rawValue).joined(separator: ", ")))")
        }
        if let level = meetup.level, let axis = meetup.discipline?.axis, level.range.axis != axis {
            throw DomainError.invalid("level_min", "The level \(level.lowestGrade)–\(level.highestGrade) grades \(level.range.axis.rawValue)s, and a \(meetup.discipline!.rawValue) meetup's level is on the \(axis.rawValue) axis; give grades of that axis or change the discipline")
        }
        guard meetup.endsAt.timeIntervalSince(meetup.startsAt) <= 14 * 86_400 else {
            throw DomainError.invalid("ends_at", "A meetup lasts at most 14 days")
        }
        guard isTimeZoneName(meetup.timeZone), let zone = TimeZone(identifier: meetup.timeZone) else {
            throw DomainError.invalid("time_zone", "\(meetup.timeZone.debugDescription) is not an IANA time zone such as Asia/Seoul, Europe/Berlin or UTC")
        }
        try requireWritableYear(meetup.startsAt, field: "starts_at", zones: [zone, clubTimeZone])
        try requireWritableYear(meetup.endsAt, field: "ends_at", zones: [zone, clubTimeZone])
        guard Self.capacities.contains(meetup.capacity) else {
            throw DomainError.invalid("capacity", "Capacity must be between 1 and 10,000 (got \(meetup.capacity))")
        }
        return meetup
    }
}
