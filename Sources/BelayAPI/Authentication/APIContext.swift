import BelayDomain
import BelayHTTP

/// The per-request context of the Belay API: the router's core plus the user the
/// authentication middleware found behind the request's bearer token.
public struct APIContext: RequestContext {
    public var core: CoreRequestContext
    /// The caller; nil only on the public routes (`/healthz`, `/readyz`, `/openapi.json`).
    public var user: AuthenticatedUser?

    public init(core: CoreRequestContext) {
        self.core = core
    }

    /// The authenticated caller.
    /// - Throws: `HTTPError` 401 when the route was registered without authentication (a bug
    ///   that must not turn into an anonymous request).
    public func caller() throws -> AuthenticatedUser {
        guard let user else { throw AuthenticationProblems.missingToken() }
        return user
    }

    /// The caller as the actor of domain operations.
    public func actor() throws -> Actor { try caller().actor }

    /// The caller, when their role is one of `roles`.
    /// - Throws: `HTTPError` 403 `forbidden` (reason `not_permitted`) saying who may `action`.
    @discardableResult
    public func requireRole(_ roles: Set<Role>, to action: String) throws -> AuthenticatedUser {
        let user = try caller()
        guard roles.contains(user.role) else {
            let allowed = Role.allCases.filter(roles.contains).map { $0.rawValue + "s" }.joined(separator: " and ")
            throw HTTPError(.forbidden, code: "forbidden",
                            detail: "Only \(allowed) may \(action); you are signed in as \(user.handle), a \(user.role.rawValue).",
                            extensions: ["reason": .string(RefusalReason.notPermitted.rawValue)])
        }
        return user
    }
}
