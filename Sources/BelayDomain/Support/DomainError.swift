import BelayStorage
import Foundation

/// A stable, machine-readable reason why the domain refused a request. The raw values are
/// part of the API (clients switch on them) and never change.
public enum RefusalReason: String, Sendable, CaseIterable {
    // Looking things up.
    case userNotFound = "user_not_found"
    case tokenNotFound = "token_not_found"
    case meetupNotFound = "meetup_not_found"
    case rewardNotFound = "reward_not_found"
    case holdNotFound = "hold_not_found"
    case renderJobNotFound = "render_job_not_found"
    case webhookNotFound = "webhook_not_found"
    case sessionNotFound = "session_not_found"
    case inviteNotFound = "invite_not_found"
    case deviceNotFound = "device_not_found"
    case gymNotFound = "gym_not_found"
    case problemNotFound = "problem_not_found"
    case tickNotFound = "tick_not_found"
    /// No published share page has this slug (a report of one).
    case sharePageNotFound = "share_page_not_found"

    // Input.
    case invalidInput = "invalid_input"
    case invalidCursor = "invalid_cursor"
    case handleTaken = "handle_taken"
    case emailTaken = "email_taken"
    case invalidCatalog = "invalid_catalog"
    /// A title, description, name or handle holds a word the club does not allow (`field` names it).
    case contentRefused = "content_refused"

    // Permissions.
    case notPermitted = "not_permitted"

    // Signing in.
    /// `accounts.sign_up` is `closed` and this identity has no account.
    case signUpClosed = "sign_up_closed"
    /// `accounts.sign_up` is `invite`, this identity has no account, and no invite code came.
    case inviteRequired = "invite_required"
    /// The invite code is unknown, used up, expired or revoked.
    case invalidInvite = "invalid_invite"
    /// The ID token was already exchanged for a session once.
    case tokenAlreadyUsed = "token_already_used"
    /// The emailed code or link is wrong, expired, already used or voided.
    case invalidEmailCode = "invalid_email_code"
    /// The refresh token is unknown or its session has ended.
    case invalidRefreshToken = "invalid_refresh_token"
    /// A refresh token was presented a second time: the session is ended (it may have been stolen).
    case refreshTokenReused = "refresh_token_reused"
    /// The operation needs a sign-in at most a few minutes old.
    case recentSignInRequired = "recent_sign_in_required"
    /// The caller's token was made by an admin, not by signing in, so it has no session.
    case notASession = "not_a_session"
    /// A moderator suspended the account: signing in is refused until the suspension ends.
    case accountSuspended = "account_suspended"
    /// The authenticator's code or recovery code given for a held sign-in (or to
    /// confirm an enrolment) is wrong or already used, or the held sign-in is over (`field`
    /// `sign_in`: start again).
    case invalidSecondFactorCode = "invalid_second_factor_code"
    /// `console.admin_second_factor` is `required` and this admin has no authenticator yet:
    /// they set one up in the console before signing in anywhere else.
    case secondFactorEnrolmentRequired = "second_factor_enrolment_required"

    // Safety.
    /// The member filed as many reports today as `moderation.reports_per_member_per_day` allows.
    case reportLimit = "report_limit"

    // Meetups and attendance.
    case meetupCancelled = "meetup_cancelled"
    case meetupCompleted = "meetup_completed"
    case meetupOver = "meetup_over"
    case notAttending = "not_attending"
    case waitlisted = "waitlisted"
    case alreadyCancelled = "already_cancelled"
    case alreadyCheckedIn = "already_checked_in"
    case notCheckedIn = "not_checked_in"
    /// Claiming a place without an offer of one (none was made, or it ran out).
    case noOffer = "no_offer"
    /// Asking for what only a completed meetup has (its no-shows) before it is completed.
    case meetupNotCompleted = "meetup_not_completed"

    // Sharing.
    /// The member has recorded as many share events for the reward as one reward keeps.
    case shareEventLimit = "share_event_limit"
    /// The reward was revoked (its check-in undone): it cannot be shared.
    case rewardRevoked = "reward_revoked"

    // Check-in.
    case windowNotOpen = "window_not_open"
    case windowClosed = "window_closed"
    case badCode = "bad_code"
    case tooManyAttempts = "too_many_attempts"
    case idempotencyKeyReused = "idempotency_key_reused"

    // The logbook.
    /// A problem set file has rows that cannot be read: nothing of it was written.
    case invalidProblemSet = "invalid_problem_set"
    /// An import file has rows that cannot be read: nothing of it was written.
    case invalidImport = "invalid_import"

    // Render jobs.
    case leaseLost = "lease_lost"

    // The store itself failed (busy beyond the timeout, disk full, corrupt file, …).
    case storageFailure = "storage_failure"
}

/// The error every BelayDomain operation throws.
///
/// `reason` is the stable code to switch on (and to send to clients); `message` says in
/// words what was wrong and what to do; `field` names the offending input for
/// `invalid_input`. A failure of the store underneath is `storage_failure`, with the
/// `DatabaseError` kept in `underlying` for logs.
public struct DomainError: Error, CustomStringConvertible, Sendable {
    enum Kind: Sendable {
        case refused(RefusalReason, message: String, field: String?)
        case storage(DatabaseError)
    }

    let kind: Kind

    init(_ reason: RefusalReason, _ message: String, field: String? = nil) {
        kind = .refused(reason, message: message, field: field)
    }

    init(storage error: DatabaseError) {
        kind = .storage(error)
    }

    /// An `invalid_input` error naming the field.
    public static func invalid(_ field: String, _ message: String) -> DomainError {
        DomainError(.invalidInput, message, field: field)
    }

    /// The stable reason code.
    public var reason: RefusalReason {
        switch kind {
        case let .refused(reason, _, _): return reason
        case .storage: return .storageFailure
        }
    }

    /// What was wrong and what to do next.
    public var message: String {
        switch kind {
        case let .refused(_, message, _): return message
        case let .storage(error):
            return error.isBusy
                ? "The database is busy; try again in a moment"
                : "The database failed: \(error.description)"
        }
    }

    /// The input field at fault, for `invalid_input`.
    public var field: String? {
        if case let .refused(_, _, field) = kind { return field }
        return nil
    }

    /// True when the store was busy or could not be reached (a lock held too long, a
    /// database server restarting): the same call may succeed in a moment.
    public var isStorageBusy: Bool { underlying?.isBusy == true }

    /// The storage error behind a `storage_failure`.
    public var underlying: DatabaseError? {
        if case let .storage(error) = kind { return error }
        return nil
    }

    public var description: String { "\(reason.rawValue): \(message)" }
}

/// Runs `body`, turning storage errors into `DomainError.storageFailure`.
func domainCall<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw domainError(error)
    }
}

/// `error` as the domain reports it: a storage error becomes `DomainError.storageFailure`.
func domainError(_ error: any Error) -> any Error {
    (error as? DatabaseError).map { DomainError(storage: $0) } ?? error
}
