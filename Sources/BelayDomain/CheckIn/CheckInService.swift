import BelayCore
import BelayStorage
import Foundation

/// Checking members in (by rotating code, by a host, or offline), and undoing it.
///
/// A check-in, its reward and the reward's render job are written in one transaction.
/// Refusals carry a stable `RefusalReason`; they are checked in this order:
/// `meetup_not_found`, `idempotency_key_reused`, `not_permitted`, (already checked in →
/// the first result again), `meetup_cancelled`, `user_not_found` (no such user, or one the
/// caller may not see: `UserVisibility`), `not_attending`, `already_cancelled`,
/// `waitlisted`, `invalid_input` (offline time in the future), `window_not_open` /
/// `window_closed`, `too_many_attempts`, `bad_code`. See `CheckInPolicy` for the lock-out rule.
public final class CheckInService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: CheckInPolicy
    private let codes: CheckInCodeGenerator
    private let awarder: RewardAwarder
    private let events: ChangeFeed

    init(pool: any DatabaseStore, clock: any TimeSource, checkInPolicy: CheckInPolicy, awarder: RewardAwarder, events: ChangeFeed) {
        self.pool = pool
        self.clock = clock
        self.policy = checkInPolicy
        self.codes = CheckInCodeGenerator(stepSeconds: checkInPolicy.codeStepSeconds)
        self.awarder = awarder
        self.events = events
    }

    private enum Outcome {
        /// `attendance` as it reads now when the check-in has it in hand, and `awarded` (of
        /// `meetup`) when it created the reward (nil: read them again).
        case checkedIn(attendanceID: Int64, attendance: Attendance?, awarded: AwardedReward?, meetup: MeetupRepository.Essentials?,
                       isRepeat: Bool)
        /// Refused after writing something that must stay (a wrong attempt).
        case refused(DomainError)
    }

    /// A check-in as its write returns it: the new reward's id is answered by the commit.
    private struct Recorded {
        let attendance: Attendance
        let reward: Reward?
        let awarded: AwardedReward?
        let meetup: MeetupRepository.Essentials?
        let isRepeat: Bool

        /// The result, once committed.
        func result() throws -> CheckInResult {
            var reward = reward
            if reward == nil, let awarded, let meetup { reward = try awarded.reward(of: meetup) }
            return CheckInResult(attendance: attendance, reward: reward, isRepeat: isRepeat)
        }
    }

    /// Checks a member in. Idempotent: when the member is already checked in, or the
    /// idempotency key was used before for the same request, the first result comes back
    /// with `isRepeat` set.
    /// - Parameters:
    ///   - request: meetup, member, proof and optional idempotency key.
    ///   - actor: the member themselves for `.code`; the meetup's host or an admin for
    ///     `.host` and `.offline`.
    /// - Throws: `DomainError` with one of the reasons listed on the type.
    public func checkIn(_ request: CheckInRequest, by actor: Actor) throws -> CheckInResult {
        try Self.validate(request)
        let now = clock.now()
        return try domainCall { try pool.lockedWrite { db in try record(request, by: actor, now: now, in: db) }.get().result() }
    }

    /// Checks a member in like `checkIn(_:by:)` without holding the calling thread while the
    /// write waits for its commit: `completion` gets the result, or the same errors, on the
    /// database's writer thread (keep it short: hand the result on).
    public func checkIn(_ request: CheckInRequest, by actor: Actor,
                        then completion: @escaping @Sendable (Result<CheckInResult, any Error>) -> Void) {
        do {
            try Self.validate(request)
        } catch {
            return completion(.failure(error))
        }
        let now = clock.now()
        pool.lockedWrite({ [self] db in try record(request, by: actor, now: now, in: db) }, then: { outcome in
            completion(outcome.flatMap { recorded in Result { try recorded.get().result() } }.mapError(domainError))
        })
    }

    /// The refusal of a key already used for a different check-in.
    private static let keyReused = DomainError(.idempotencyKeyReused, "This Idempotency-Key was already used for a different check-in; use a new key for a new request",
                                               field: "idempotency_key")

    private static func validate(_ request: CheckInRequest) throws {
        if let key = request.idempotencyKey {
            guard (1...200).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E }) else {
                throw DomainError.invalid("idempotency_key", "An idempotency key is 1–200 visible ASCII characters")
            }
        }
    }

    /// The check-in's transaction. A refusal that wrote something that must stay (a wrong
    /// attempt) is returned rather than thrown, so that the write commits. The result is read
    /// in the same transaction: it is what this check-in wrote, and a second (read)
    /// transaction would cost as much again.
    private func record(_ request: CheckInRequest, by actor: Actor, now: Date, in db: Database) throws -> Result<Recorded, DomainError> {
        switch try checkIn(request, by: actor, now: now, in: db) {
        case let .refused(error):
            return .failure(error)
        case let .checkedIn(attendanceID, attendance, awarded, meetup, isRepeat):
            guard let attendance = try attendance ?? AttendanceRepository.find(id: attendanceID, in: db) else {
                throw DomainError(.storageFailure, "Attendance \(attendanceID) disappeared during its check-in")
            }
            let created = awarded?.created != nil && meetup != nil
            return .success(Recorded(attendance: attendance,
                                     reward: created ? nil : try RewardRepository.find(attendanceID: attendanceID, in: db),
                                     awarded: awarded, meetup: meetup, isRepeat: isRepeat))
        }
    }

    private func checkIn(_ request: CheckInRequest, by actor: Actor, now: Date, in db: Database) throws -> Outcome {
        // Sent together, the lock first (one round trip on PostgreSQL): a second check-in of the
        // same member waits at the lock for the first's commit and then sees it (its key, its
        // status, its reward): see lockedWrite.
        let locked = try AttendanceRepository.findLockingForCheckIn(meetupID: request.meetupID, memberID: request.memberID, in: db)
        let actorKey = actor.userID ?? 0
        let seenKey = try request.idempotencyKey.map { try CheckInRepository.idempotencyRecord(actorID: actorKey, key: $0, in: db) }
        let standing = try AttendanceRepository.checkInStanding(meetupID: request.meetupID, memberID: request.memberID, in: db)

        let found = try locked.get()
        guard let meetup = try found?.meetup ?? MeetupRepository.essentials(id: request.meetupID, in: db) else {
            throw MeetupService.notFound(request.meetupID)
        }
        let attendance = found?.attendance
        if let seen = try seenKey?.get() {
            guard request.isSameRequest(asFingerprint: seen.fingerprint) else {
                throw Self.keyReused
            }
            return .checkedIn(attendanceID: seen.attendanceID, attendance: nil, awarded: nil, meetup: nil, isRepeat: true)
        }
        switch request.proof {
        case .code:
            guard actor.userID == request.memberID else {
                throw DomainError(.notPermitted, "A member checks in with a code only for themselves; hosts check others in without a code")
            }
        case .host, .offline:
            guard try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db) else {
                throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, check members in on their behalf")
            }
        }
        if let attendance, attendance.status == .checkedIn {
            return .checkedIn(attendanceID: attendance.id, attendance: attendance, awarded: nil, meetup: nil, isRepeat: true)
        }
        guard meetup.status != .cancelled else {
            throw DomainError(.meetupCancelled, "Meetup \(meetup.id) is cancelled")
        }
        guard let attendance else {
            // Named only to those who may see them: anyone else hears what a missing id gets.
            let member = try UserVisibility.require(request.memberID, visibleTo: actor, field: "user_id", in: db)
            throw DomainError(.notAttending, "\(member.handle) has not joined meetup \(meetup.id); join first")
        }
        switch attendance.status {
        case .cancelled: throw try DomainError(.alreadyCancelled, "\(UserRepository.handle(id: request.memberID, in: db)) left meetup \(meetup.id); join again first")
        case .waitlisted: throw try DomainError(.waitlisted, "\(UserRepository.handle(id: request.memberID, in: db)) is on the waitlist of meetup \(meetup.id), not going")
        case .going, .checkedIn: break
        }

        var instant = now
        if case let .offline(at) = request.proof {
            guard at <= now else {
                throw DomainError.invalid("checked_in_at", "An offline check-in time cannot be in the future")
            }
            instant = at
        }
        let window = policy.window(start: meetup.startsAt, end: meetup.endsAt)
        if let refusal = window.refusal(at: instant) {
            throw refusal == .windowNotOpen
                ? DomainError(.windowNotOpen, "Check-in opens at \(RFC3339.string(from: window.opensAt, fraction: .none))")
                : DomainError(.windowClosed, "Check-in closed at \(RFC3339.string(from: window.closesAt, fraction: .none))")
        }

        if case let .code(code) = request.proof {
            var wrong = 0
            let attempts = try standing.get()?.wrongCodes
            if let attempts {
                let lockedUntil = attempts.lastWrongAt.addingTimeInterval(Double(policy.lockoutMinutes) * 60)
                if attempts.count >= policy.maxWrongAttempts {
                    if now < lockedUntil {
                        throw DomainError(.tooManyAttempts, "Too many wrong codes; try again after \(RFC3339.string(from: lockedUntil, fraction: .none)) or ask the host to check you in")
                    }
                } else {
                    wrong = attempts.count
                }
            }
            guard codes.accepts(code, secret: meetup.secret, at: now) else {
                wrong += 1
                try CheckInRepository.recordWrongAttempt(meetupID: meetup.id, memberID: request.memberID, count: wrong, at: now, in: db)
                if wrong >= policy.maxWrongAttempts {
                    return .refused(DomainError(.tooManyAttempts, "That code is wrong, and it was the last attempt allowed; try again in \(policy.lockoutMinutes) minutes or ask the host to check you in"))
                }
                return .refused(DomainError(.badCode, "That code is wrong or has expired; enter the code the host shows now (\(policy.maxWrongAttempts - wrong) attempts left)", field: "code"))
            }
            if attempts != nil {
                try CheckInRepository.clearAttempts(meetupID: meetup.id, memberID: request.memberID, in: db)
            }
        }

        guard let standing = try standing.get() else {
            throw DomainError(.storageFailure, "Attendance \(attendance.id) disappeared during its check-in")
        }
        let number = standing.checkedInElsewhere + 1
        let checkedInBy: Int64? = request.method == .code ? nil : actor.userID
        // Sent for later, with everything after it: the server gets them with the commit.
        let checkedIn = try AttendanceRepository.markCheckedIn(attendance, number: number, at: instant, method: request.method,
                                                               by: checkedInBy, now: now, in: db)
        let awarded = try awarder.award(attendanceID: attendance.id, memberID: request.memberID, meetupID: meetup.id,
                                        checkedInAt: instant, checkInNumber: number,
                                        context: standing.awardContext, reason: .award, now: now, in: db)
        if let key = request.idempotencyKey {
            // The same key, at the same moment, for another member's check-in fails the write.
            try CheckInRepository.rememberKey(actorID: actorKey, key: key, fingerprint: request.fingerprint,
                                              attendanceID: attendance.id, at: now, taken: Self.keyReused, in: db)
        }
        try events.changed(.checkedIn(checkedIn), now: now, in: db)
        return .checkedIn(attendanceID: attendance.id, attendance: checkedIn, awarded: awarded, meetup: meetup, isRepeat: false)
    }

    /// Undoes a check-in: the attendance is `going` again, its reward revoked (kept, not
    /// deleted) and queued renders of it cancelled. Checking in again reinstates the reward.
    /// - Throws: `DomainError`: `meetup_not_found`, `not_permitted` (only the meetup's host
    ///   or an admin), `user_not_found` (or one the caller may not see), `not_attending`, `not_checked_in`.
    public func undoCheckIn(meetupID: Int64, memberID: Int64, by actor: Actor) throws -> Attendance {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard let meetup = try MeetupRepository.essentials(id: meetupID, in: db) else { throw MeetupService.notFound(meetupID) }
                guard try HostRights.manages(actor, meetupID: meetup.id, hostID: meetup.hostID, in: db) else {
                    throw DomainError(.notPermitted, "Only the meetup's host or co-hosts, or an admin, undo a check-in")
                }
                guard let attendance = try AttendanceRepository.find(meetupID: meetupID, memberID: memberID, in: db) else {
                    let member = try UserVisibility.require(memberID, visibleTo: actor, field: "user_id", in: db)
                    throw DomainError(.notAttending, "\(member.handle) has not joined meetup \(meetupID)")
                }
                guard attendance.status == .checkedIn else {
                    throw try DomainError(.notCheckedIn, "\(UserRepository.handle(id: memberID, in: db)) is \(attendance.status.rawValue) at meetup \(meetupID), not checked in")
                }
                try AttendanceRepository.undoCheckIn(id: attendance.id, at: now, in: db)
                if let reward = try RewardRepository.standing(attendanceID: attendance.id, in: db) {
                    try RewardRepository.setRevoked(now, id: reward.id, in: db)
                    try RenderJobRepository.cancelQueued(rewardID: reward.id, now: now, in: db)
                }
                try CheckInRepository.forgetKeys(attendanceID: attendance.id, in: db)
                try events.changed(.checkInUndone(attendanceID: attendance.id), now: now, in: db)
                return try AttendanceRepository.find(id: attendance.id, in: db)!
            }
        }
    }
}
