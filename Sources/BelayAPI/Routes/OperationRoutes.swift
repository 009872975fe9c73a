import BelayDomain
import BelayHTTP

/// A group of routes registered with their OpenAPI operations: the operation gives the route
/// its method, path and the query parameters it takes, and is recorded for the document
/// `/openapi.json` serves, so a route cannot exist without its operation nor an operation
/// in the document without its route.
///
/// ```swift
/// routes.on(Operations.listCohosts, allowing: [.host, .admin], to: "see a meetup's co-hosts") { _, context in
///     let meetup = try domain.meetups.meetup(id: try context.id())
///     …
/// }
/// ```
///
/// `Context` is what the handlers receive: `APIContext` on public routes, `AuthenticatedContext`
/// (whose caller is not optional) behind authentication. Registration is not thread-safe: set
/// the router up on one thread.
struct OperationRoutes<Context: APIRouteContext> {
    /// Answers one request with its route's context.
    typealias Handler = @Sendable (Request, Context) throws -> Response

    let group: RouteGroup<APIContext>
    let registered: RegisteredOperations

    /// Routes registered on `group` (with its prefix-less paths and its middleware), recorded in
    /// `registered`.
    init(_ group: RouteGroup<APIContext>, recordingIn registered: RegisteredOperations) {
        self.group = group
        self.registered = registered
    }

    /// The same routes with `middleware` added after the group's own.
    func add(middleware: some RouterMiddleware<APIContext>) -> OperationRoutes {
        OperationRoutes(group.add(middleware: middleware), recordingIn: registered)
    }

    /// The same middleware and operations, with handlers given `Other` contexts (e.g.
    /// `AuthenticatedContext` once an authentication middleware was added).
    func with<Other: APIRouteContext>(_ context: Other.Type) -> OperationRoutes<Other> {
        OperationRoutes<Other>(group, recordingIn: registered)
    }

    /// Registers `handler` for `operation`'s method and path, taking the query parameters it
    /// declares (any other is answered 400 `unknown_query_parameter`), and records the operation
    /// for the document. An operation whose `isPublic` does not match the group (a public
    /// operation behind authentication, or the reverse), or a route registered twice, is a
    /// programming error and stops the process.
    func on(_ operation: OpenAPIOperation, use handler: @escaping Handler) {
        record(operation)
        group.on(operation.method, operation.path, query: operation.acceptedQuery) { request, context in
            try handler(request, try Context(context: context))
        }
    }

    fileprivate func record(_ operation: OpenAPIOperation) {
        precondition(operation.isPublic != Context.isAuthenticated,
                     "Operation \(operation.operationID) is \(operation.isPublic ? "public" : "not public") but registered \(Context.isAuthenticated ? "behind" : "without") authentication")
        registered.append(operation)
    }
}

extension OperationRoutes where Context == AuthenticatedContext {
    /// Registers `handler` for `operation` as `on(_:use:)`, for callers whose role is one of
    /// `roles`; anyone else is answered 403 `not_permitted` saying who may `action`, before the
    /// handler runs.
    func on(_ operation: OpenAPIOperation, allowing roles: Set<Role>, to action: String, use handler: @escaping Handler) {
        record(operation)
        group.on(operation.method, operation.path, query: operation.acceptedQuery) { request, context in
            let context = try AuthenticatedContext(context: context)
            try context.requireRole(roles, to: action)
            return try handler(request, context)
        }
    }
}
