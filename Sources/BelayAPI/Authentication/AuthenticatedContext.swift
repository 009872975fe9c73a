import BelayDomain
import BelayHTTP

/// The context of a route behind `AuthenticationMiddleware`: the request's core and the caller,
/// who is there by type. Made once per request, from the `APIContext` the middleware filled,
/// just before the handler runs (`OperationRoutes<AuthenticatedContext>`).
public struct AuthenticatedContext: APIRouteContext {
    public var core: CoreRequestContext
    /// The user behind the request's bearer token.
    public let caller: AuthenticatedUser

    /// The context of `context`'s caller.
    /// - Throws: `HTTPError` 401 `missing_token` when no caller was authenticated (a route
    ///   registered without the middleware: a bug that must not turn into an anonymous request).
    public init(context: APIContext) throws {
        guard let user = context.user else { throw AuthenticationProblems.missingToken() }
        core = context.core
        caller = user
    }

    /// The caller as the actor of domain operations.
    public var actor: Actor { caller.actor }
    public var parameters: Parameters { core.parameters }
    public var route: String? { core.route }

    /// The path parameter `name` as a positive 64-bit id, as `APIContext.id(_:)`.
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter.
    public func id(_ name: String = "id") throws -> Int64 { try core.parameters.positiveID(name) }

    /// The caller, when their role is one of `roles`. A route whose every caller must have one
    /// declares it at registration instead (`OperationRoutes.on(_:allowing:to:use:)`).
    /// - Throws: `HTTPError` 403 `not_permitted` (the code and reason every 403 has) saying who
    ///   may `action`.
    @discardableResult
    public func requireRole(_ roles: Set<Role>, to action: String) throws -> AuthenticatedUser {
        guard roles.contains(caller.role) else {
            let allowed = Role.allCases.filter(roles.contains).map { $0.rawValue + "s" }.joined(separator: " and ")
            throw HTTPError(.forbidden, code: RefusalReason.notPermitted.rawValue,
                            detail: "Only \(allowed) may \(action); you are signed in as \(caller.handle), a \(caller.role.rawValue).",
                            extensions: ["reason": .string(RefusalReason.notPermitted.rawValue)])
        }
        return caller
    }
}
