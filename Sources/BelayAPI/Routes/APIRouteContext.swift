import BelayHTTP

/// What a handler of an `OperationRoutes` group receives: made from the router's `APIContext`
/// once per request, after the group's middleware ran (Hummingbird's child contexts).
/// `APIContext` itself for public routes, `AuthenticatedContext` behind authentication.
public protocol APIRouteContext: Sendable {
    /// The handler's context for a request whose middleware left `context`.
    /// - Throws: an `HTTPError` when the request cannot have this context (no caller).
    init(context: APIContext) throws
    /// Whether routes with this context are behind authentication: their operations are not
    /// public, and only they are.
    static var isAuthenticated: Bool { get }
}

extension APIContext: APIRouteContext {
    public init(context: APIContext) { self = context }
    public static var isAuthenticated: Bool { false }
}

extension AuthenticatedContext {
    public static var isAuthenticated: Bool { true }
}
