import BelayCore
import BelayDomain
import BelayHTTP
import Synchronization

/// Refuses changes by members who have not accepted the current version of the club's terms
/// (`accounts.terms_version`) with 403 `terms_required`, naming the version and where to read
/// it, until they accept it with `POST /v1/me/terms`. Reading stays open, and so do accepting,
/// signing out, ending sessions and deleting the account. Admins, who run the club and whose
/// tokens drive its integrations, are not asked. Members known to have accepted are
/// remembered, so that a change costs a lookup once per member and process.
final class TermsGate: Sendable {
    private let safety: SafetyService
    private let accepted = Mutex<Set<Int64>>([])

    init(safety: SafetyService) {
        self.safety = safety
    }

    /// Notes that the member accepted the current terms.
    func remember(_ userID: Int64) {
        accepted.withLock { _ = $0.insert(userID) }
    }

    /// Routes a member may change through without having accepted the terms (besides signing
    /// in and out under `/v1/auth/`, and `DELETE /v1/me`).
    static let open: Set<String> = ["/v1/me/terms", "/v1/me/sessions/{id}"]

    /// - Throws: `HTTPError` 403 `terms_required` when `user` must accept the terms first.
    func check(_ request: Request, route: String?, user: AuthenticatedUser?) throws {
        guard safety.policy.termsVersion != nil, let user, user.role != .admin, request.method != .get, request.method != .head,
              !Self.open.contains(route ?? ""), !(route ?? "").hasPrefix("/v1/auth/"), !(route == "/v1/me" && request.method == .delete),
              !accepted.withLock({ $0.contains(user.userID) }) else { return }
        guard let terms = try safety.termsToAccept(userID: user.userID) else {
            remember(user.userID)
            return
        }
        var extensions: [String: JSONValue] = ["reason": "terms_required", "version": .string(terms.version)]
        if let url = terms.url { extensions["url"] = .string(url) }
        throw HTTPError(.forbidden, code: "terms_required",
                        detail: "Accept the club's terms (version \(terms.version)\(terms.url.map { ", at \($0)" } ?? "")) with POST /v1/me/terms before changing anything.",
                        extensions: extensions)
    }

    /// The middleware that runs `check` before every authenticated route.
    func middleware() -> TermsMiddleware { TermsMiddleware(gate: self) }
}

/// Runs `TermsGate.check` before the route.
struct TermsMiddleware: RouterMiddleware {
    let gate: TermsGate

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) -> ResponseFuture) throws -> ResponseFuture {
        try gate.check(request, route: context.route, user: context.user)
        return next(request, context)
    }
}
