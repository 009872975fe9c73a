import BelayCore
import BelayStorage
import Foundation

/// Joining and leaving meetups, the waitlist, and attendee lists.
///
/// Every change runs in one `BEGIN IMMEDIATE` transaction, which SQLite serialises across
/// threads and processes, so the capacity is never exceeded however many join at once.
/// A member acts for themselves; the meetup's host or an admin may act for anyone.
public final class AttendanceService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let events: ChangeFeed
    private let waitlist: WaitlistRules

    init(pool: any DatabaseStore, clock: any TimeSource, events: ChangeFeed, waitlist: WaitlistRules) {
        self.pool = pool
        self.clock = clock
        self.events = events
        self.waitlist = waitlist
    }

    /// Joins a meetup: `going` while there is a place and nobody is waiting, otherwise
    /// `waitlisted` at the back of the line. Joining again while attending changes nothing;
    /// joining after leaving puts the member at the back of the line. An admin may add
    /// members to a meetup that has ended, completed or not (to record who came, then check
    /// them in at the time they did); before its end a completed meetup takes no one. A host
    /// adds only members they may see (`UserVisibility`); any other id is `user_not_found`,
    /// as an id no user has.
    /// - Throws: `DomainError`: `meetup_not_found`, `user_not_found`, `not_permitted`,
    ///   `meetup_cancelled`, `meetup_completed`, `meetup_over`.
    public func join(meetupID: Int64, memberID: Int64, by actor: Actor) throws -> JoinResult {
        try joinWrite(meetupID: meetupID, memberID: memberID, by: actor).perform()
    }

    /// Joins like `join(meetupID:memberID:by:)` without holding the calling thread while the
    /// write waits for its commit: `completion` gets the result, or the same errors, on the
    /// database's writer thread (keep it short: hand the result on).
    public func join(meetupID: Int64, memberID: Int64, by actor: Actor,
                     then completion: @escaping @Sendable (Result<JoinResult, any Error>) -> Void) {
        joinWrite(meetupID: meetupID, memberID: memberID, by: actor).perform(then: completion)
    }

    private func joinWrite(meetupID: Int64, memberID: Int64, by actor: Actor) -> DomainWrite<JoinResult> {
        let now = clock.now()
        return DomainWrite(pool: pool,
            body: { [events, waitlist] db in
                guard let meetup = try MeetupRepository.lockedEssentials(id: meetupID, in: db) else { throw MeetupService.notFound(meetupID) }
                try Self.requireActing(for: memberID, at: meetup, actor, in: db)
                switch meetup.status {
                case .scheduled: break
                case .cancelled: throw DomainError(.meetupCancelled, "Meetup \(meetupID) is cancelled; it takes no more members")
                case .completed:
                    guard actor.isAdmin && now >= meetup.endsAt else {
                        throw DomainError(.meetupCompleted, "Meetup \(meetupID) is completed; it takes no more members (an admin can still record who came)")
                    }
                }
                guard now < meetup.endsAt || actor.isAdmin else {
                    throw DomainError(.meetupOver, "Meetup \(meetupID) has already ended (an admin can still record who came)")
                }
                if actor.userID == memberID || actor.isAdmin {
                    guard try UserRepository.find(id: memberID, in: db) != nil else {
                        throw DomainError(.userNotFound, "No user has id \(memberID); create the user first")
                    }
                } else {
                    // A host adding a member: named only to those who may see them, anyone
                    // else hears what a missing id gets.
                    _ = try UserVisibility.require(memberID, visibleTo: actor, field: "user_id", in: db)
                }
                if waitlist.policy.makesOffers { try waitlist.expireDue(meetupID: meetupID, now: now, in: db) }
                let existing = try AttendanceRepository.find(meetupID: meetupID, memberID: memberID, in: db)
                if let existing, existing.status != .cancelled {
                    return JoinResult(attendance: existing, changed: false)
                }
                // A block either way with the host or a co-host, or a ban by one of them, keeps
                // the member out; the words say nothing of it. An admin recording who came is not held back.
                if !actor.isAdmin, try SafetyRepository.keptApart(memberID: memberID, meetupID: meetupID, hostID: meetup.hostID, bans: true, in: db) {
                    throw DomainError(.notPermitted, "You cannot join meetup \(meetupID); look for another meetup")
                }
                // A hidden meetup takes nobody new while the moderators look at it.
                if !actor.isAdmin, try ModerationRepository.meetupIsHidden(id: meetupID, in: db) {
                    throw DomainError(.notPermitted, "Meetup \(meetupID) takes no new members while the club's moderators look at it; look for another meetup")
                }
                let (taken, waiting) = try AttendanceRepository.counts(meetupID: meetupID, in: db)
                let status: AttendanceStatus = taken < meetup.capacity && waiting == 0 ? .going : .waitlisted
                let position = try AttendanceRepository.nextQueuePosition(meetupID: meetupID, in: db)
                let id: Int64
                if let existing {
                    try AttendanceRepository.rejoin(id: existing.id, status: status, queuePosition: position, at: now, in: db)
                    id = existing.id
                } else {
                    id = try AttendanceRepository.insert(meetupID: meetupID, memberID: memberID, status: status,
                                                         queuePosition: position, at: now, in: db)
                }
                try events.changed(.attendanceJoined(attendanceID: id, memberID: memberID, meetupID: meetupID, startsAt: meetup.startsAt,
                                                     going: status == .going), now: now, in: db)
                // With places free, the line ahead holds only members passed over (blocked
                // either way with the host, or banned): the line moves on to this one.
                if status == .waitlisted && (waitlist.policy.makesOffers || taken < meetup.capacity) && meetup.status == .scheduled {
                    try waitlist.fill(meetupID: meetupID, capacity: meetup.capacity, startsAt: meetup.startsAt, now: now, in: db)
                }
                return JoinResult(attendance: try AttendanceRepository.find(id: id, in: db)!, changed: true)
            })
    }

    /// Leaves a meetup. When a `going` member leaves, the first waitlisted members are
    /// promoted to `going` in the same transaction, as far as places are free.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`, `not_attending`,
    ///   `already_cancelled`, `already_checked_in` (undo the check-in first).
    public func leave(meetupID: Int64, memberID: Int64, by actor: Actor) throws -> LeaveResult {
        try leaveWrite(meetupID: meetupID, memberID: memberID, by: actor).perform()
    }

    /// Leaves like `leave(meetupID:memberID:by:)` without holding the calling thread while
    /// the write waits for its commit: `completion` gets the result, or the same errors, on
    /// the database's writer thread (keep it short: hand the result on).
    public func leave(meetupID: Int64, memberID: Int64, by actor: Actor,
                      then completion: @escaping @Sendable (Result<LeaveResult, any Error>) -> Void) {
        leaveWrite(meetupID: meetupID, memberID: memberID, by: actor).perform(then: completion)
    }

    private func leaveWrite(meetupID: Int64, memberID: Int64, by actor: Actor) -> DomainWrite<LeaveResult> {
        let now = clock.now()
        return DomainWrite(pool: pool,
            body: { [events, waitlist] db in
                let meetup = try Self.requireMeetup(meetupID, in: db)
                try Self.requireActing(for: memberID, at: meetup, actor, in: db)
                guard let attendance = try AttendanceRepository.find(meetupID: meetupID, memberID: memberID, in: db) else {
                    // Named only to those who may see them: anyone else hears what a missing id gets.
                    let member = try UserVisibility.require(memberID, visibleTo: actor, in: db)
                    throw DomainError(.notAttending, "\(member.handle) is not attending meetup \(meetupID)")
                }
                switch attendance.status {
                case .cancelled:
                    throw try DomainError(.alreadyCancelled, "\(UserRepository.handle(id: memberID, in: db)) already left meetup \(meetupID)")
                case .checkedIn:
                    throw try DomainError(.alreadyCheckedIn, "\(UserRepository.handle(id: memberID, in: db)) has checked in to meetup \(meetupID); a host must undo the check-in first")
                case .going, .waitlisted:
                    break
                }
                try AttendanceRepository.setStatus(.cancelled, id: attendance.id, at: now, in: db)
                try events.changed(.attendanceLeft(attendanceID: attendance.id), now: now, in: db)
                var promoted: [Attendance] = []
                // A leaving member who held a place, or an offer of one (declining it), frees it.
                if (attendance.status == .going || attendance.offerExpiresAt != nil) && meetup.status == .scheduled {
                    promoted = try waitlist.fill(meetupID: meetupID, capacity: meetup.capacity, startsAt: meetup.startsAt, now: now, in: db)
                }
                return LeaveResult(attendance: try AttendanceRepository.find(id: attendance.id, in: db)!, promoted: promoted)
            })
    }

    /// Claims the place the member was offered: they are `going`. Offers that ran out are
    /// passed on first, so a claim after the window fails even before the scheduler runs.
    ///
    /// Blocks are checked again at the claim, against the meetup's host and co-hosts as they
    /// are now: an offer made before a block (either way), a ban, a new host or a new co-host
    /// is withdrawn, the place is offered to (or, without offers, given to) the next in line,
    /// and the claim is refused with the neutral `not_permitted` a join across a block gets.
    /// The member stays in line, passed over, as a blocked member on the waitlist is.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted`, `not_attending`,
    ///   `no_offer` (never offered, or the offer ran out), `meetup_cancelled`.
    public func claim(meetupID: Int64, memberID: Int64, by actor: Actor) throws -> Attendance {
        let now = clock.now()
        // nil: the offer was withdrawn across a block, committed before the refusal is thrown.
        let claimed: Attendance? = try domainCall {
            try pool.write { db -> Attendance? in
                let meetup = try Self.requireMeetup(meetupID, in: db)
                try Self.requireActing(for: memberID, at: meetup, actor, in: db)
                guard meetup.status != .cancelled else { throw DomainError(.meetupCancelled, "Meetup \(meetupID) is cancelled") }
                try waitlist.expireDue(meetupID: meetupID, now: now, in: db)
                guard let attendance = try AttendanceRepository.find(meetupID: meetupID, memberID: memberID, in: db) else {
                    throw try DomainError(.notAttending, "\(UserRepository.handle(id: memberID, in: db)) is not attending meetup \(meetupID)")
                }
                if attendance.status == .going || attendance.status == .checkedIn { return attendance }
                guard attendance.status == .waitlisted, attendance.offerExpiresAt != nil else {
                    throw try DomainError(.noOffer, attendance.status == .cancelled
                        ? "\(UserRepository.handle(id: memberID, in: db)) is no longer on the waitlist of meetup \(meetupID) (an offer not claimed in time ends the place in line); join again to queue up"
                        : "\(UserRepository.handle(id: memberID, in: db)) has no offer of a place at meetup \(meetupID) yet; an offer comes when a place frees up")
                }
                if !actor.isAdmin, try SafetyRepository.keptApart(memberID: memberID, meetupID: meetupID, hostID: meetup.hostID, bans: true, in: db) {
                    try WaitlistRepository.withdrawOffer(id: attendance.id, now: now, in: db)
                    if meetup.status == .scheduled {
                        try waitlist.fill(meetupID: meetupID, capacity: meetup.capacity, startsAt: meetup.startsAt, now: now, in: db)
                    }
                    return nil
                }
                try AttendanceRepository.setStatus(.going, id: attendance.id, at: now, in: db)
                let going = try AttendanceRepository.find(id: attendance.id, in: db) ?? attendance
                try events.changed(.attendancePromoted(going, startsAt: meetup.startsAt, claimedOffer: true), now: now, in: db)
                try waitlist.fill(meetupID: meetupID, capacity: meetup.capacity, startsAt: meetup.startsAt, now: now, in: db)
                return going
            }
        }
        guard let claimed else {
            throw DomainError(.notPermitted, "You cannot join meetup \(meetupID); look for another meetup")
        }
        return claimed
    }

    /// Passes on every offer that ran out (the server's scheduler runs this): each member
    /// leaves the waitlist with an `attendance.offer_expired` event and the place is offered
    /// to the next. Idempotent.
    /// - Returns: how many offers ran out.
    @discardableResult
    public func expireOffers(limit: Int = 500) throws -> Int {
        let now = clock.now()
        return try domainCall { try pool.write { try waitlist.expireDue(meetupID: nil, now: now, limit: limit, in: $0) } }
    }

    /// The member's attendance of a meetup, or nil when they never joined it.
    /// - Throws: `DomainError.meetupNotFound`.
    public func attendance(meetupID: Int64, memberID: Int64) throws -> Attendance? {
        try domainCall {
            try pool.read { db in
                guard let attendance = try AttendanceRepository.find(meetupID: meetupID, memberID: memberID, in: db) else {
                    guard try MeetupRepository.essentials(id: meetupID, in: db) != nil else {
                        throw MeetupService.notFound(meetupID)
                    }
                    return nil
                }
                return attendance
            }
        }
    }

    /// A meetup's attendees in join order, optionally only those with one status.
    /// - Throws: `DomainError`: `meetup_not_found`, bad limit or cursor.
    public func attendees(meetupID: Int64, status: AttendanceStatus? = nil, limit: Int = 50,
                          cursor: String? = nil) throws -> Page<Attendee> {
        let limit = try validatedLimit(limit, maximum: 500)
        let listName = "attendees-\(meetupID)-\(status?.rawValue ?? "all")"
        let after = try cursor.map { try Cursor.decode($0, list: listName).key } ?? 0
        let rows = try domainCall {
            try pool.read { db in
                guard try MeetupRepository.essentials(id: meetupID, in: db) != nil else { throw MeetupService.notFound(meetupID) }
                return try AttendanceRepository.attendees(meetupID: meetupID, status: status, afterPosition: after,
                                                          limit: limit + 1, in: db)
            }
        }
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { Cursor(list: listName, key: $0.position, id: 0).encoded } : nil
        return Page(items: page.map(\.attendee), nextCursor: next)
    }

    /// A member's attendances, most recent first.
    /// - Throws: `DomainError` for a bad limit or cursor.
    public func attendances(memberID: Int64, limit: Int = 50, cursor: String? = nil) throws -> Page<Attendance> {
        let limit = try validatedLimit(limit)
        let listName = "attendances-\(memberID)"
        let before = try cursor.map { try Cursor.decode($0, list: listName).id } ?? Int64.max
        let rows = try domainCall {
            try pool.read { try AttendanceRepository.attendances(memberID: memberID, beforeID: before, limit: limit + 1, in: $0) }
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: listName, key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// The no-shows of a completed meetup: the members who held a place (`going`) and never
    /// checked in, in join order.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the meetup's host,
    ///   co-hosts and admins), `meetup_not_completed` (until then they may still come), bad
    ///   limit or cursor.
    public func noShows(meetupID: Int64, by actor: Actor, limit: Int = 50, cursor: String? = nil) throws -> Page<Attendee> {
        try domainCall {
            try pool.read { db in
                let meetup = try Self.requireMeetup(meetupID, in: db)
                guard try HostRights.manages(actor, meetupID: meetupID, hostID: meetup.hostID, in: db) else {
                    throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, see who did not come")
                }
                guard meetup.status == .completed else {
                    throw DomainError(.meetupNotCompleted, meetup.status == .cancelled
                        ? "Meetup \(meetupID) was cancelled; nobody could come"
                        : "Meetup \(meetupID) is not completed yet; members may still check in until its check-in window closes")
                }
            }
        }
        return try attendees(meetupID: meetupID, status: .going, limit: limit, cursor: cursor)
    }

    /// A member's attendance record across the club: meetups joined, check-ins, no-shows.
    /// Seen by the member, the hosts who may see them (`UserVisibility`) and admins; to
    /// anyone else the member is answered exactly like a missing one.
    /// - Throws: `DomainError.userNotFound`.
    public func record(memberID: Int64, by actor: Actor) throws -> AttendanceRecord {
        try domainCall {
            try pool.read { db in
                let member = try UserVisibility.require(memberID, visibleTo: actor, in: db)
                let counts = try AttendanceRepository.record(memberID: memberID, in: db)
                return AttendanceRecord(member: member, joined: counts.joined, checkedIn: counts.checkedIn, noShows: counts.noShows)
            }
        }
    }

    // MARK: Rules

    static func requireMeetup(_ id: Int64, in db: Database) throws -> MeetupRepository.Essentials {
        guard let meetup = try MeetupRepository.essentials(id: id, in: db) else { throw MeetupService.notFound(id) }
        return meetup
    }

    /// A member acts for themselves; the meetup's hosts (host and co-hosts) or an admin for anyone.
    static func requireActing(for memberID: Int64, at meetup: MeetupRepository.Essentials, _ actor: Actor, in db: Database) throws {
        let manages = actor.userID == memberID ? true : try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db)
        guard manages else {
            throw DomainError(.notPermitted, "Only the member themselves, the meetup's host or co-hosts, or an admin may do this")
        }
    }
}
