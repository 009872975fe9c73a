import BelayCore
import BelayDomain
import BelayHTTP
import BelayPipeline

/// Turns the domain's refusals into problem responses: the one place the API decides which
/// status a `RefusalReason` gets.
///
/// | reason | status |
/// |---|---|
/// | `*_not_found` | 404 |
/// | `invalid_input`, `bad_code`, `idempotency_key_reused`, `invalid_catalog`, `invalid_problem_set`, `invalid_import`, `content_refused` | 422 (with `field` when one is named) |
/// | `invalid_cursor` | 400 (with `parameter`) |
/// | `not_permitted`, `sign_up_closed`, `invite_required`, `invalid_invite`, `recent_sign_in_required` | 403 |
/// | `token_already_used`, `invalid_email_code`, `invalid_refresh_token`, `refresh_token_reused`, `invalid_second_factor_code` | 401 |
/// | `not_a_session`, `account_suspended` | 403 |
/// | `report_limit` | 429 |
/// | `storage_failure` when the database is busy | 503 `busy` with `Retry-After` |
/// | `storage_failure` when the disk is full | 503 `storage_full` with `Retry-After` |
/// | `storage_failure` otherwise, `lease_lost` | 500, logged, nothing internal shown |
/// | every other refusal (`waitlisted`, `window_closed`, `meetup_cancelled`, …) | 409 |
///
/// Every mapped problem has `reason` set to the reason's raw value, and so has its `code`,
/// except `busy` and `storage_full`, whose `code` says what the client can do about it.
///
/// The render pipeline's refusal of an image because too many wait to be drawn (a
/// `PipelineError` with `retryAfterSeconds`) is 503 `busy` with that `Retry-After`.
public enum DomainProblems {
    /// The `Retry-After` of a `storage_full` answer: freeing space takes an operator.
    public static let storageFullRetryAfterSeconds = 60

    /// The problem for a pipeline error the client can do something about (a full render
    /// queue), or nil when it must be answered as an unexpected 500.
    public static func httpError(for error: PipelineError) -> HTTPError? {
        guard let seconds = error.retryAfterSeconds else { return nil }
        return HTTPError(.serviceUnavailable, code: "busy", detail: "\(error).", headers: ["Retry-After": String(seconds)])
    }

    /// The problem for `error`, or nil when it must be answered as an unexpected 500.
    public static func httpError(for error: DomainError) -> HTTPError? {
        let reason = error.reason
        let status: HTTPStatus
        switch reason {
        case .userNotFound, .tokenNotFound, .meetupNotFound, .rewardNotFound, .holdNotFound, .renderJobNotFound, .webhookNotFound,
             .sessionNotFound, .inviteNotFound, .deviceNotFound, .gymNotFound, .problemNotFound, .tickNotFound,
             .sharePageNotFound:
            status = .notFound
        case .tokenAlreadyUsed, .invalidEmailCode, .invalidRefreshToken, .refreshTokenReused, .invalidSecondFactorCode:
            status = .unauthorized
        case .signUpClosed, .inviteRequired, .invalidInvite, .recentSignInRequired:
            status = .forbidden
        case .notASession, .accountSuspended, .secondFactorEnrolmentRequired:
            status = .forbidden
        case .reportLimit:
            status = .tooManyRequests
        case .invalidInput, .badCode, .idempotencyKeyReused, .invalidCatalog, .invalidProblemSet, .invalidImport, .contentRefused:
            status = .unprocessableContent
        case .invalidCursor:
            status = .badRequest
        case .notPermitted:
            status = .forbidden
        case .handleTaken, .emailTaken, .meetupCancelled, .meetupCompleted, .meetupOver, .notAttending, .waitlisted,
             .alreadyCancelled, .alreadyCheckedIn, .notCheckedIn, .noOffer, .meetupNotCompleted, .windowNotOpen, .windowClosed, .tooManyAttempts,
             .shareEventLimit, .rewardRevoked:
            status = .conflict
        case .storageFailure where error.underlying?.isStorageFull == true:
            return HTTPError(.serviceUnavailable, code: "storage_full",
                             detail: "The server's disk is full, so nothing could be saved; nothing was changed. Try again later.",
                             headers: ["Retry-After": String(storageFullRetryAfterSeconds)],
                             extensions: ["reason": .string(reason.rawValue)])
        case .storageFailure:
            guard error.isStorageBusy else { return nil }
            return HTTPError(.serviceUnavailable, code: "busy",
                             detail: "The database is busy; try again in a moment.", headers: ["Retry-After": "1"],
                             extensions: ["reason": .string(reason.rawValue)])
        case .leaseLost:
            return nil
        }
        var extensions: [String: JSONValue] = ["reason": .string(reason.rawValue)]
        if let field = error.field {
            extensions[reason == .invalidCursor ? "parameter" : "field"] = .string(field)
        }
        var detail = error.message
        if !detail.hasSuffix(".") { detail += "." }
        return HTTPError(status, code: reason.rawValue, detail: detail, extensions: extensions)
    }
}

/// Maps `DomainError` thrown by handlers (or by their deferred work) to problem
/// responses; install it inside `ErrorMiddleware` so the mapped problems are logged and
/// counted with their real status. Unmappable errors pass through to become a logged 500.
public struct DomainErrorMiddleware: RouterMiddleware {
    private let storageFull: StorageFullAlarm?

    /// - Parameter storageFull: told of every write refused because the disk is full (it
    ///   logs the cause once).
    public init(storageFull: StorageFullAlarm? = nil) {
        self.storageFull = storageFull
    }

    fileprivate func problem(for error: DomainError) -> HTTPError? {
        if let storageFull, error.underlying?.isStorageFull == true { storageFull.record(error) }
        return DomainProblems.httpError(for: error)
    }

    public func handle(_ request: Request, context: APIContext, next: (Request, APIContext) -> ResponseFuture) throws -> ResponseFuture {
        next(request, context).map(Mapping(middleware: self))
    }

    /// Replaces a mappable `DomainError` (or a full render queue's `PipelineError`) with its
    /// problem; passes everything else through.
    struct Mapping: ResponseTransform {
        let middleware: DomainErrorMiddleware

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            if case .failure(let error as PipelineError) = outcome, let problem = DomainProblems.httpError(for: error) {
                return .failure(problem)
            }
            guard case .failure(let error as DomainError) = outcome, let problem = middleware.problem(for: error) else { return outcome }
            return .failure(problem)
        }
    }
}
