import BelayCore
import BelayStorage
import Foundation

/// The moderators' work: the queue of reported subjects, the actions on them, and the
/// append-only log of every action.
///
/// Moderators are admins and members an admin made moderators (`belay moderation grant`).
/// Every action closes the subject's open reports (dismissed, or actioned with the action as
/// their outcome, which their reporters see in `GET /v1/me/reports`) and is written to the log
/// with who, what, why and the report ids, in the same transaction, and push notices tell the
/// reporters the outcome and the member what was done, the rule, and where to appeal.
public final class ModerationService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let events: ChangeFeed
    private let policy: ModerationPolicy

    init(pool: any DatabaseStore, clock: any TimeSource, policy: ModerationPolicy, events: ChangeFeed) {
        self.policy = policy
        self.pool = pool
        self.clock = clock
        self.events = events
    }

    /// Whether `actor` may moderate: the command line, admins, and moderators.
    /// - Throws: `DomainError.storageFailure`.
    public func isModerator(_ actor: Actor) throws -> Bool {
        if actor.isAdmin { return true }
        guard let userID = actor.userID else { return false }
        return try domainCall { try pool.read { try ModerationRepository.isModerator(userID: userID, in: $0) } }
    }

    /// Makes the member a moderator, or no longer one.
    /// - Throws: `DomainError` `user_not_found`.
    public func setModerator(userID: Int64, _ moderator: Bool) throws {
        try domainCall {
            try pool.write { db in
                guard try ModerationRepository.setModerator(userID: userID, moderator, in: db) else {
                    throw DomainError(.userNotFound, "No member has id \(userID); list users to find the right one")
                }
            }
        }
    }

    /// The subjects with open reports, the longest waiting first, each with its snapshot and reports.
    /// - Throws: `DomainError`: `not_permitted`, bad limit.
    public func queue(limit: Int = 50, by actor: Actor) throws -> [ReportedSubject] {
        let limit = try validatedLimit(limit)
        try requireModerator(actor)
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                try ReportRepository.openSubjects(limit: limit, in: db).map { subject in
                    ReportedSubject(subjectType: subject.type, subjectID: subject.id, subjectUserID: subject.userID, snapshot: subject.snapshot,
                                    reports: try ReportRepository.openReports(subjectType: subject.type, subjectID: subject.id, in: db),
                                    hidden: try ReportedContent.isHidden(subject.type, subject.id, now: now, in: db))
                }
            }
        }
    }

    /// One subject as the queue shows it, with its open reports (none when they were all closed);
    /// a subject gone since it was reported (a deleted account) shows its snapshot.
    /// - Throws: `DomainError`: `not_permitted`, `invalid_input`, the subject's `*_not_found`
    ///   when it has neither a row nor an open report.
    public func subject(_ type: ReportSubjectType, _ id: String, by actor: Actor) throws -> ReportedSubject {
        try requireModerator(actor)
        let id = try ReportService.canonicalSubjectID(type, id, in: pool)
        let now = clock.now()
        return try domainCall {
            try pool.read { db in
                let first = try ReportRepository.firstSnapshot(subjectType: type, subjectID: id, in: db)
                let content: ReportedContent
                do {
                    content = try ReportedContent.read(type, id, in: db)
                } catch let error as DomainError where [.meetupNotFound, .userNotFound, .sharePageNotFound].contains(error.reason) {
                    guard let first else { throw error }
                    content = ReportedContent(snapshot: first, userID: nil)
                }
                return ReportedSubject(subjectType: type, subjectID: id, subjectUserID: content.userID,
                                       snapshot: first ?? content.snapshot,
                                       reports: try ReportRepository.openReports(subjectType: type, subjectID: id, in: db),
                                       hidden: try ReportedContent.isHidden(type, id, now: now, in: db))
            }
        }
    }

    /// Acts on a subject and logs it. `suspend` also ends the member's sessions and tokens,
    /// turns off their calendar feed and cancels the meetups they host that have not started
    /// (those going are told, as with any cancellation); callers holding authentications in
    /// memory must forget them.
    /// - Throws: `DomainError`: `not_permitted` (not a moderator; suspending oneself or an
    ///   admin), `invalid_input` (`reason`, `until`, `subject_id`, an action that does not fit
    ///   the subject), the subject's `*_not_found` (except when dismissing the open reports of
    ///   something gone since: a deleted account, a page taken down).
    public func act(_ request: ModerationRequest, by actor: Actor) throws -> ModerationAction {
        try requireModerator(actor)
        var request = request
        request.reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        try TextRule.moderationReason.check(request.reason)
        request.subjectID = try ReportService.canonicalSubjectID(request.subjectType, request.subjectID, in: pool)
        let now = clock.now()
        if let until = request.until, request.action == .suspend, until <= now {
            throw DomainError.invalid("until", "A suspension ends in the future; give a later time, or none to suspend for good")
        }
        guard request.action != .autoHide else {
            throw DomainError.invalid("action", "auto_hide is Belay's own; a moderator hides with hide")
        }
        guard request.action != .resetSecondFactor else {
            throw DomainError.invalid("action", "reset_second_factor is not a moderation action; an admin resets a member's second factor from the members page or with belay users reset-second-factor")
        }
        return try domainCall {
            try pool.write { [events, policy] db in
                // Reports of what is gone since (a deleted account, a page taken down) can still be dismissed.
                let content: ReportedContent
                do {
                    content = try ReportedContent.read(request.subjectType, request.subjectID, in: db)
                } catch let error as DomainError where request.action == .dismiss
                            && [.meetupNotFound, .userNotFound, .sharePageNotFound].contains(error.reason) {
                    guard try !ReportRepository.openReports(subjectType: request.subjectType, subjectID: request.subjectID, in: db).isEmpty else {
                        throw error
                    }
                    content = ReportedContent(snapshot: "{}", userID: nil)
                }
                let closed: [Int64]
                switch request.action {
                case .dismiss:
                    closed = try ReportRepository.close(subjectType: request.subjectType, subjectID: request.subjectID, status: .dismissed,
                                                        outcome: .dismiss, now: now, in: db)
                case .hide:
                    if try ReportedContent.hide(request.subjectType, request.subjectID, now: now, in: db) {
                        try events.changed(.contentHidden(subjectType: request.subjectType, subjectID: request.subjectID, automatically: false), now: now, in: db)
                    }
                    closed = try ReportRepository.close(subjectType: request.subjectType, subjectID: request.subjectID, status: .actioned,
                                                        outcome: .hide, now: now, in: db)
                case .warn:
                    closed = try ReportRepository.close(subjectType: request.subjectType, subjectID: request.subjectID, status: .actioned,
                                                        outcome: .warn, now: now, in: db)
                case .suspend:
                    guard let memberID = content.userID else {
                        throw DomainError.invalid("subject_id", "This subject has no member to suspend")
                    }
                    try Self.requireSuspendable(memberID, by: actor, in: db)
                    try ModerationRepository.suspend(userID: memberID, until: request.until, now: now, in: db)
                    for meetup in try ModerationRepository.upcomingHosted(userID: memberID, now: now, in: db) {
                        try MeetupService.cancelInTransaction(meetup, events: events, now: now, in: db)
                    }
                    try events.changed(.memberSuspended(memberID: memberID, until: request.until), now: now, in: db)
                    closed = try ReportRepository.close(subjectType: request.subjectType, subjectID: request.subjectID, status: .actioned,
                                                        outcome: .suspend, now: now, in: db)
                case .lift:
                    let lifted: Bool
                    if request.subjectType == .member, let memberID = content.userID {
                        lifted = try ModerationRepository.lift(userID: memberID, in: db)
                    } else {
                        lifted = try ReportedContent.show(request.subjectType, request.subjectID, now: now, in: db)
                    }
                    guard lifted else {
                        throw DomainError.invalid("action", "\(request.subjectType.rawValue) \(request.subjectID) is neither suspended nor hidden; there is nothing to lift")
                    }
                    closed = []
                case .autoHide, .resetSecondFactor:
                    closed = []
                }
                let logged = try ModerationRepository.insertAction(
                    moderatorID: actor.userID, action: request.action, subjectType: request.subjectType, subjectID: request.subjectID,
                    reason: request.reason, reportIDs: closed, until: request.action == .suspend ? request.until : nil, now: now, in: db)
                try events.changed(.moderated(actionID: logged.id, action: request.action, memberID: content.userID, closedReports: closed,
                                              rule: request.reason, appealAddress: policy.appealAddress), now: now, in: db)
                return logged
            }
        }
    }

    /// The moderation log, newest first; only one subject's entries when given.
    /// - Throws: `DomainError`: `not_permitted`, bad limit or cursor.
    public func audit(limit: Int = 50, cursor: String? = nil, subject: (ReportSubjectType, String)? = nil,
                      by actor: Actor) throws -> Page<ModerationAction> {
        let limit = try validatedLimit(limit)
        try requireModerator(actor)
        let before = try cursor.map { try Cursor.decode($0, list: "moderation").id } ?? Int64.max
        let rows = try domainCall {
            try pool.read { try ModerationRepository.actions(beforeID: before, limit: limit + 1, subject: subject, in: $0) }
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: "moderation", key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    /// How many reports are open and how long the oldest has waited, for `/metrics`.
    /// - Throws: `DomainError.storageFailure`.
    public func openReports() throws -> (count: Int, oldestAge: TimeInterval) {
        let now = clock.now()
        let summary = try domainCall { try pool.read { try ReportRepository.openSummary(in: $0) } }
        return (summary.count, summary.oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    }

    private func requireModerator(_ actor: Actor) throws {
        guard try isModerator(actor) else {
            throw DomainError(.notPermitted, "Only moderators and admins work the report queue")
        }
    }

    private static func requireSuspendable(_ memberID: Int64, by actor: Actor, in db: Database) throws {
        guard memberID != actor.userID else {
            throw DomainError(.notPermitted, "You cannot suspend yourself; ask another moderator")
        }
        if let user = try UserRepository.find(id: memberID, in: db), user.role == .admin {
            throw DomainError(.notPermitted, "\(user.handle) is an admin; make them a member first (`belay users role \(user.handle) member`)")
        }
    }
}
