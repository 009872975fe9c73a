import BelayCore
import BelayStorage
import Foundation

/// What each member climbed: ticks logged one at a time or as an offline batch, edited and
/// deleted by their climber, listed as a logbook and summed as a summary, each seen only by
/// those its visibility allows.
public final class LogbookService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let checkIn: CheckInPolicy
    private let clubTimeZone: TimeZone
    private let policy: LogbookPolicy
    private let events: ChangeFeed?

    /// Ticks one batch may carry.
    public static let maximumBatch = 200
    /// Ticks one imported file may carry.
    public static let maximumImport = 10_000

    public convenience init(pool: any DatabaseStore, clock: any TimeSource, checkInPolicy: CheckInPolicy, clubTimeZone: TimeZone,
                            policy: LogbookPolicy = LogbookPolicy()) {
        self.init(pool: pool, clock: clock, checkInPolicy: checkInPolicy, clubTimeZone: clubTimeZone, policy: policy, events: nil)
    }

    init(pool: any DatabaseStore, clock: any TimeSource, checkInPolicy: CheckInPolicy, clubTimeZone: TimeZone,
         policy: LogbookPolicy, events: ChangeFeed?) {
        self.events = events
        self.pool = pool
        self.clock = clock
        self.checkIn = checkInPolicy
        self.clubTimeZone = clubTimeZone
        self.policy = policy
    }

    /// Queues a redraw of the member's reward for each meetup, `storyRefreshSeconds` from now,
    /// so that its story shows the day's climbing: a redraw already waiting takes these ticks
    /// too (one per reward is queued at a time), and the sticker, whose content does not
    /// change, is reused as it is.
    private func refreshStories(memberID: Int64, meetupIDs: Set<Int64>, now: Date, in db: Database) throws {
        for meetupID in meetupIDs.sorted() {
            let rewards: [Int64] = try db.query("SELECT id FROM rewards WHERE member_id = ? AND meetup_id = ? AND revoked_at IS NULL",
                                                [memberID, meetupID]) { try $0.get("id") }
            for rewardID in rewards {
                _ = try RenderJobRepository.enqueue(rewardID: rewardID, reason: .rerender,
                                                    availableAt: now.addingTimeInterval(TimeInterval(policy.storyRefreshSeconds)), now: now, in: db)
            }
        }
    }

    /// Logs one tick; a tick with a `client_tick_id` the member used before is not logged
    /// again, and the first one is answered.
    /// - Throws: `DomainError`: `invalid_input` naming the field, `problem_not_found`, `gym_not_found`.
    public func log(_ tick: NewTick, memberID: Int64) throws -> TickBatchOutcome {
        let outcome = try logBatch([tick], memberID: memberID)[0]
        if case let .refused(error) = outcome { throw error }
        return outcome
    }

    /// Logs up to `maximumBatch` ticks in one transaction and answers each: created, a
    /// duplicate of one logged before (by `client_tick_id`; a retried batch records nothing
    /// twice), or refused with its reason (the others are logged all the same).
    /// - Throws: `DomainError.invalidInput` (`ticks`) for an empty or too large batch, or
    ///   one naming a `client_tick_id` twice; `storage_failure`.
    public func logBatch(_ ticks: [NewTick], memberID: Int64) throws -> [TickBatchOutcome] {
        try batchWrite(ticks, memberID: memberID).perform()
    }

    /// Logs like `logBatch(_:memberID:)` without holding the calling thread while the write
    /// waits for its commit: `completion` gets the outcomes, or the same errors, on the
    /// database's writer thread (or at once, on this one, for a refusal of the whole batch).
    public func logBatch(_ ticks: [NewTick], memberID: Int64,
                         then completion: @escaping @Sendable (Result<[TickBatchOutcome], any Error>) -> Void) {
        do {
            try batchWrite(ticks, memberID: memberID).perform(then: completion)
        } catch {
            completion(.failure(error))
        }
    }

    private func batchWrite(_ ticks: [NewTick], memberID: Int64) throws -> DomainWrite<[TickBatchOutcome]> {
        guard (1...Self.maximumBatch).contains(ticks.count) else {
            throw DomainError.invalid("ticks", "A batch has 1 to \(Self.maximumBatch) ticks (got \(ticks.count)); send the rest in another")
        }
        var seen = Set<String>()
        for tick in ticks where !seen.insert(tick.clientTickID).inserted {
            throw DomainError.invalid("ticks", "The batch names client_tick_id `\(tick.clientTickID.prefix(64))` twice; give every tick its own")
        }
        let now = clock.now()
        let checkIn = checkIn, zone = clubTimeZone
        let times = ticks.map { $0.climbedAt ?? now }
        let earliest = times.min() ?? now, latest = times.max() ?? now
        return DomainWrite(pool: pool, body: { [self] db in
            let preferences = try TickRepository.preferences(userID: memberID, in: db) ?? LogbookPreferences()
            let checkedIn = try TickRepository.meetupsCheckedIn(memberID: memberID, from: earliest, to: latest,
                                                              opensBefore: TimeInterval(checkIn.opensMinutesBeforeStart * 60),
                                                              closesAfter: TimeInterval(checkIn.closesMinutesAfterEnd * 60), in: db)
            let outcomes = try ticks.map { tick -> TickBatchOutcome in
                let resolved: ResolvedTick
                do {
                    resolved = try ResolvedTick(tick, memberID: memberID, preferences: preferences, checkIn: checkIn,
                                                clubTimeZone: zone, now: now, meetups: checkedIn, in: db)
                } catch let error as DomainError where error.reason != .storageFailure {
                    // A tick logged before answers as it was, even when it would be refused now.
                    if let earlier = try TickRepository.find(userID: memberID, clientTickID: tick.clientTickID, in: db) {
                        return .duplicate(earlier)
                    }
                    return .refused(error)
                }
                // The insert itself tells a new tick from one logged before: no read first.
                if let id = try TickRepository.insertIfNew(resolved, userID: memberID, now: now, in: db) {
                    return .created(resolved.tick(id: id, userID: memberID, now: now))
                }
                guard let earlier = try TickRepository.find(userID: memberID, clientTickID: tick.clientTickID, in: db) else {
                    throw DatabaseError.misuse("A tick neither written nor found for client_tick_id \(tick.clientTickID)")
                }
                return .duplicate(earlier)
            }
            let meetups = Set(outcomes.compactMap { outcome -> Int64? in
                if case let .created(tick) = outcome { return tick.meetupID }
                return nil
            })
            try refreshStories(memberID: memberID, meetupIDs: meetups, now: now, in: db)
            if let events {
                let created = outcomes.compactMap { outcome -> Tick? in
                    if case let .created(tick) = outcome { return tick }
                    return nil
                }
                try events.changed(.ticksLogged(memberID: memberID, created: created, preferences: preferences), now: now, in: db)
            }
            return outcomes
        })
    }

    /// Imports another logbook's export (theCrag's logbook CSV or Mountain Project's tick
    /// export, told by the header) as the member's ticks, outdoors in their own scales. The
    /// whole file is read and every tick checked first; on any error nothing is written and
    /// every row's problem is reported with its line. Ticks imported before are left alone,
    /// so the same file twice adds nothing. `dryRun` checks and counts without writing.
    /// - Throws: `TickImportError` (the rows), `DomainError.storageFailure`.
    public func importTicks(csv text: String, memberID: Int64, dryRun: Bool) throws -> TickImportOutcome {
        let (format, rows) = try TickImportFile.read(text)
        let now = clock.now()
        let checkIn = checkIn, zone = clubTimeZone
        let body: @Sendable (Database) throws -> TickImportOutcome = { db in
            let preferences = try TickRepository.preferences(userID: memberID, in: db) ?? LogbookPreferences()
            var fresh: [ResolvedTick] = [], errors: [TickImportError.RowError] = []
            var unchanged = 0
            for row in rows {
                if try TickRepository.find(userID: memberID, clientTickID: row.tick.clientTickID, in: db) != nil {
                    unchanged += 1
                    continue
                }
                do {
                    fresh.append(try ResolvedTick(row.tick, memberID: memberID, preferences: preferences, checkIn: checkIn,
                                                  clubTimeZone: zone, now: now, in: db))
                } catch let error as DomainError where error.reason != .storageFailure {
                    errors.append(.init(line: row.line, field: error.field, message: "Line \(row.line): \(error.message)"))
                }
            }
            if !errors.isEmpty { throw TickImportError(format: format, rows: errors) }
            if !dryRun {
                for tick in fresh { _ = try TickRepository.insertIfNew(tick, userID: memberID, now: now, in: db) }
            }
            return TickImportOutcome(format: format.rawValue, rows: rows.count, added: fresh.count, unchanged: unchanged, dryRun: dryRun)
        }
        return try domainCall { dryRun ? try pool.read(body) : try pool.write(body) }
    }

    /// Changes what a member may change of their own tick: style, attempts, note, stars,
    /// felt grade and visibility (members left nil stay; `note: .some(nil)` removes it).
    /// - Throws: `DomainError`: `tick_not_found` (also for another member's), `invalid_input`.
    public func update(tickID: Int64, memberID: Int64, style: TickStyle?, attempts: Int?, note: String??, stars: Int??,
                       feltGrade: String??, visibility: TickVisibility?) throws -> Tick {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let current = try Self.requireOwn(tickID, memberID: memberID, in: db)
                // What may change is checked by the rules a new tick's are.
                let newStyle = style ?? current.style
                let newAttempts = try ResolvedTick.attempts(attempts ?? (style == nil ? current.attempts : nil), style: newStyle)
                let newNote = (note ?? current.note).flatMap { $0.isEmpty ? nil : $0 }
                try TextRule.tickNote.check(newNote)
                let newStars = stars ?? current.stars
                try ResolvedTick.checkStars(newStars)
                let newFelt = feltGrade ?? current.feltGrade
                let preferences = try TickRepository.preferences(userID: memberID, in: db) ?? LogbookPreferences()
                let feltScore = try ResolvedTick.feltScore(newFelt, axis: current.range.axis, scale: current.gradeScale, preferences: preferences)
                try TickRepository.update(id: tickID, style: newStyle, attempts: newAttempts, note: newNote, stars: newStars, feltGrade: newFelt,
                                          feltScore: feltScore, visibility: visibility ?? current.visibility, now: now, in: db)
                guard let updated = try TickRepository.find(id: tickID, in: db) else {
                    throw DomainError(.tickNotFound, "Tick \(tickID) is gone")
                }
                if let meetupID = updated.meetupID { try refreshStories(memberID: memberID, meetupIDs: [meetupID], now: now, in: db) }
                return updated
            }
        }
    }

    /// Deletes a member's own tick.
    /// - Throws: `DomainError.tickNotFound` (also for another member's).
    public func delete(tickID: Int64, memberID: Int64) throws {
        let now = clock.now()
        try domainCall {
            try pool.write { db in
                let tick = try Self.requireOwn(tickID, memberID: memberID, in: db)
                try TickRepository.delete(id: tickID, in: db)
                if let meetupID = tick.meetupID { try refreshStories(memberID: memberID, meetupIDs: [meetupID], now: now, in: db) }
            }
        }
    }

    /// A member's ticks that `viewerID` may see (all of them for the member themself, else
    /// the public and members-only ones), newest day first.
    /// - Throws: `DomainError`: `user_not_found`, `invalid_cursor`, `invalid_input` (`limit`).
    public func logbook(memberID: Int64, viewerID: Int64, filter: TickFilter, limit: Int, cursor: String?) throws -> Page<Tick> {
        let limit = try validatedLimit(limit, maximum: 200)
        let after = try cursor.map { text -> (day: String, id: Int64) in
            let position = try Cursor.decode(text, list: "logbook")
            return (CalendarDay(Date(timeIntervalSince1970: TimeInterval(position.key) * 86_400), in: .gmt).description, position.id)
        }
        let ticks = try domainCall {
            try pool.read { db -> [Tick] in
                try Self.requireUser(memberID, viewerID: viewerID, in: db)
                return try TickRepository.list(userID: memberID, visibilities: Self.visibilities(of: memberID, to: viewerID), filter: filter,
                                               after: after, limit: limit + 1, in: db)
            }
        }
        var next: String?
        if ticks.count > limit, let last = ticks.prefix(limit).last, let day = CalendarDay(last.climbedOn) {
            next = Cursor(list: "logbook", key: Int64(day.daysSinceEpoch), id: last.id).encoded
        }
        return Page(items: Array(ticks.prefix(limit)), nextCursor: next)
    }

    /// A member's climbing from `from` (nil: from the start) to `to` (nil: today in the
    /// club's zone), as `viewerID` may see it, in the viewer's scales.
    /// - Throws: `DomainError`: `user_not_found`, `invalid_input` (`from`, `to`).
    public func summary(memberID: Int64, viewerID: Int64, from: String?, to: String?) throws -> LogbookSummary {
        for (field, day) in [("from", from), ("to", to)] {
            if let day, CalendarDay(day) == nil { throw DomainError.invalid(field, "A day is YYYY-MM-DD, such as 2026-11-29 (got `\(day.prefix(20))`)") }
        }
        let today = CalendarDay(clock.now(), in: clubTimeZone).description
        let end = to ?? today
        if let from, from > end { throw DomainError.invalid("from", "The period starts (\(from)) after it ends (\(end))") }
        return try domainCall {
            try pool.read { db in
                try Self.requireUser(memberID, viewerID: viewerID, in: db)
                let preferences = try TickRepository.preferences(userID: viewerID, in: db) ?? LogbookPreferences()
                let facts = try TickRepository.facts(userID: memberID, visibilities: Self.visibilities(of: memberID, to: viewerID), to: end, in: db)
                var summary = LogbookSummary.make(ticks: facts, from: from, to: end, preferences: preferences)
                // Only the hardest climbs are shown whole: read just those.
                for index in summary.axes.indices {
                    summary.axes[index].hardestSend = try summary.axes[index].hardestSendID.flatMap { try TickRepository.find(id: $0, in: db) }
                    summary.axes[index].hardestFlash = try summary.axes[index].hardestFlashID.flatMap { try TickRepository.find(id: $0, in: db) }
                }
                return summary
            }
        }
    }

    /// What the member climbed at the meetup, for their story; nil when they logged nothing
    /// there (private ticks count for nothing: a story is shared in public).
    /// - Throws: `DomainError.storageFailure`.
    public func climbingDay(memberID: Int64, meetupID: Int64) throws -> ClimbingDay? {
        try domainCall {
            try pool.read { db -> ClimbingDay? in
                let shared: [TickVisibility] = [.public, .members]
                let atMeetup = try TickRepository.list(meetupID: meetupID, visibilities: shared, in: db).filter { $0.userID == memberID }
                guard let first = atMeetup.map(\.climbedOn).min(), let last = atMeetup.map(\.climbedOn).max() else { return nil }
                let preferences = try TickRepository.preferences(userID: memberID, in: db) ?? LogbookPreferences()
                // Every render of the reward reads this: the history as the few columns a summary sums.
                let all = try TickRepository.facts(userID: memberID, visibilities: shared, to: last, in: db)
                let ids = Set(atMeetup.map(\.id))
                let topped = atMeetup.filter { $0.style.topped }
                let order: (Tick, Tick) -> Bool = { ($0.range.lowest, $0.range.highest) < ($1.range.lowest, $1.range.highest) }
                let hardest = topped.max(by: order)
                let bests = LogbookSummary.make(ticks: all, from: first, to: last, preferences: preferences).personalBests
                    .filter { $0.kind == .send && ids.contains($0.tickID) }
                let best = bests.max { ($0.range.lowest, $0.range.highest) < ($1.range.lowest, $1.range.highest) }
                func shown(_ range: GradeRange, _ scale: GradeScale?) -> String {
                    GradeTable.display(range, from: scale, in: preferences.scale(range.axis))
                }
                let bestTick = best.flatMap { best in atMeetup.first { $0.id == best.tickID } }
                return ClimbingDay(sends: topped.count, flashes: topped.filter { $0.style == .flash }.count,
                                   hardest: hardest.map { shown($0.range, $0.gradeScale) },
                                   personalBest: bestTick.map { shown($0.range, $0.gradeScale) })
            }
        }
    }

    /// The gym's ranking over the last `logbook.ranking_days` days (in the gym's zone), as
    /// `viewerID` sees it: members they blocked or were blocked by are left out.
    /// - Throws: `DomainError.gymNotFound`.
    public func ranking(gymID: Int64, viewerID: Int64? = nil) throws -> GymRanking {
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                let gym = try GymService.require(gymID, in: db)
                let today = CalendarDay(now, in: TimeZone(identifier: gym.timeZone) ?? clubTimeZone)
                let from = today.adding(days: -(policy.rankingDays - 1)).description
                let blocked = try viewerID.map { try SafetyRepository.blockedEitherWay(userID: $0, in: db) } ?? []
                let sends = try TickRepository.rankedSends(gymID: gymID, from: from, in: db).filter { !blocked.contains($0.userID) }
                return GymRanking.make(gymID: gymID, sends: sends, best: policy.rankingBest, from: from)
            }
        }
    }

    /// The ticks climbed at a meetup that `actor` may see: none of a meetup they may not see
    /// (private, hidden, or run by someone blocked either way; see `MeetupService.maySee`),
    /// which answers as an unknown id; of the others, their own and those not private, leaving
    /// out members blocked either way.
    /// - Throws: `DomainError.meetupNotFound`.
    public func meetupTicks(meetupID: Int64, seenBy actor: Actor) throws -> [Tick] {
        try domainCall {
            try pool.read { db in
                guard let meetup = try MeetupRepository.find(id: meetupID, in: db), try MeetupService.maySee(meetup, actor, in: db) else {
                    throw MeetupService.notFound(meetupID)
                }
                let all = try TickRepository.list(meetupID: meetupID, visibilities: TickVisibility.allCases, in: db)
                let viewerID = actor.userID
                let blocked = try viewerID.map { try SafetyRepository.blockedEitherWay(userID: $0, in: db) } ?? []
                return all.filter { ($0.userID == viewerID || $0.visibility != .private) && !blocked.contains($0.userID) }
            }
        }
    }

    /// The member's scales and default visibility (the defaults until they choose).
    public func preferences(memberID: Int64) throws -> LogbookPreferences {
        try domainCall { try pool.read { db in try TickRepository.preferences(userID: memberID, in: db) ?? LogbookPreferences() } }
    }

    /// Saves the member's choice; a scale of the wrong axis is refused.
    /// - Throws: `DomainError.invalidInput` (`boulder_scale`, `route_scale`).
    public func setPreferences(_ preferences: LogbookPreferences, memberID: Int64) throws -> LogbookPreferences {
        guard GradeScale.displayScales(for: .boulder).contains(preferences.boulderScale) else {
            throw DomainError.invalid("boulder_scale", "Boulders are shown in v or font (got \(preferences.boulderScale.rawValue))")
        }
        guard GradeScale.displayScales(for: .route).contains(preferences.routeScale) else {
            throw DomainError.invalid("route_scale", "Routes are shown in yds or french (got \(preferences.routeScale.rawValue))")
        }
        let now = clock.now()
        try domainCall { try pool.write { db in try TickRepository.savePreferences(preferences, userID: memberID, now: now, in: db) } }
        return preferences
    }

    static func visibilities(of memberID: Int64, to viewerID: Int64) -> [TickVisibility] {
        memberID == viewerID ? TickVisibility.allCases : [.public, .members]
    }

    /// - Throws: `DomainError.userNotFound` for a member who is not there, or who blocked the
    ///   viewer or was blocked by them (answered as one who is not there).
    private static func requireUser(_ id: Int64, viewerID: Int64, in db: Database) throws {
        guard try UserRepository.find(id: id, in: db) != nil, try !SafetyRepository.blocked(between: id, and: viewerID, in: db) else {
            throw DomainError(.userNotFound, "No member has id \(id)")
        }
    }

    private static func requireOwn(_ tickID: Int64, memberID: Int64, in db: Database) throws -> Tick {
        guard let tick = try TickRepository.find(id: tickID, in: db), tick.userID == memberID else {
            throw DomainError(.tickNotFound, "You have no tick with id \(tickID); GET /v1/me/logbook lists yours")
        }
        return tick
    }
}
