import BelayCore

/// Registers routes and middleware, then builds an immutable `RouterResponder` for the server.
///
/// ```swift
/// let router = Router(context: APIContext.self)
/// router.addStandardMiddleware(logger: logger, metrics: metrics)
/// router.get("/v1/meetups/{id}") { request, context in
///     let id = try context.parameters.require("id", as: Int64.self)
///     return .json(bytes: try meetups.find(id).jsonBytes)
/// }
/// let server = HTTPServer(settings: settings, responder: router.buildResponder())
/// ```
///
/// Registration is not thread-safe: set the router up on one thread, then build.
public final class Router<Context: RequestContext> {
    /// Answers one request with the context its middleware built.
    public typealias Handler = @Sendable (Request, Context) throws -> Response

    struct Registration {
        let method: HTTPMethod
        let pattern: RoutePattern
        let query: AcceptedQuery
        let groupMiddleware: [any RouterMiddleware<Context>]
        let handler: Handler
    }

    private var registrations: [Registration] = []
    private var middleware: [any RouterMiddleware<Context>] = []
    /// Where the request id comes from and is echoed to.
    public var requestIDHeader = "X-Request-Id"
    /// The logger handlers reach through `context.logger`, and the router's last-resort error log.
    public var logger: Logger
    /// Maps errors no `ErrorMiddleware` caught; the same mapping the middleware uses.
    public var problemRenderer = ProblemRenderer()

    public init(context: Context.Type = Context.self, logger: Logger = Logger(label: "http")) {
        self.logger = logger
    }

    /// Adds middleware that runs for every request, in the order added (first added runs first),
    /// including requests that match no route.
    public func add(middleware: some RouterMiddleware<Context>) {
        self.middleware.append(middleware)
    }

    /// Adds, in this order: the access log, metrics (when given), and error mapping to
    /// `application/problem+json`. Add authentication after this so its refusals are logged,
    /// counted and mapped.
    public func addStandardMiddleware(logger: Logger, metrics: MetricsRegistry? = nil, problemRenderer: ProblemRenderer = ProblemRenderer(),
                                      trustedProxies: Set<String> = [], secretPathPrefixes: [String] = []) {
        if !trustedProxies.isEmpty { add(middleware: ForwardedClientMiddleware<Context>(trustedProxies: trustedProxies)) }
        add(middleware: AccessLogMiddleware<Context>(logger: logger, secretPathPrefixes: secretPathPrefixes))
        if let metrics { add(middleware: MetricsMiddleware<Context>(registry: metrics)) }
        add(middleware: ErrorMiddleware<Context>(logger: logger, renderer: problemRenderer))
        self.problemRenderer = problemRenderer
    }

    /// Registers `handler` for `method` on `pattern` (e.g. `/v1/meetups/{id}`), taking the
    /// query parameters `query` (none unless given; any other is answered 400).
    /// A malformed or duplicate pattern is a programming error and stops the process.
    public func on(_ method: HTTPMethod, _ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) {
        register(method, RoutePattern(pattern), query: query, groupMiddleware: [], handler: handler)
    }

    public func get(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) { on(.get, pattern, query: query, use: handler) }
    public func post(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) { on(.post, pattern, query: query, use: handler) }
    public func put(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) { on(.put, pattern, query: query, use: handler) }
    public func patch(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) { on(.patch, pattern, query: query, use: handler) }
    public func delete(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Handler) { on(.delete, pattern, query: query, use: handler) }

    /// A group of routes under `prefix` that can add middleware of its own (e.g. authentication).
    public func group(_ prefix: String = "") -> RouteGroup<Context> {
        RouteGroup(router: self, prefix: RoutePattern(prefix), middleware: [])
    }

    /// Every registered route, in registration order.
    public var routes: [RouteDescription] {
        registrations.map {
            RouteDescription(method: $0.method, pattern: $0.pattern.description, parameterNames: $0.pattern.parameterNames,
                             queryNames: $0.query.names)
        }
    }

    func register(_ method: HTTPMethod, _ pattern: RoutePattern, query: AcceptedQuery, groupMiddleware: [any RouterMiddleware<Context>],
                  handler: @escaping Handler) {
        precondition(!registrations.contains { $0.method == method && $0.pattern.description == pattern.description },
                     "Route \(method) \(pattern) is registered twice")
        registrations.append(Registration(method: method, pattern: pattern, query: query, groupMiddleware: groupMiddleware, handler: handler))
    }

    /// Freezes the routes and middleware into a thread-safe responder. Later registrations do not
    /// affect responders already built.
    public func buildResponder() -> RouterResponder<Context> {
        let trie = RouteTrieBuilder<RouterResponder<Context>.Endpoint>()
        for registration in registrations {
            let handler = registration.handler
            let query = registration.query
            let terminal: RouterResponder<Context>.Chain = { request, context in
                ResponseFuture {
                    try query.check(request)
                    if request.bodyExceedsLimit { throw HTTPError.contentTooLarge(limit: request.bodyLimit) }
                    return try handler(request, context)
                }
            }
            let chain = Self.compose(middleware + registration.groupMiddleware, around: terminal)
            trie.insert(registration.pattern, method: registration.method, endpoint: RouterResponder<Context>.Endpoint(
                pattern: registration.pattern.description,
                parameterNames: registration.pattern.parameterNames,
                chain: chain))
        }
        let fallback = Self.compose(middleware) { request, context in
            ResponseFuture { try RouterResponder<Context>.answerRoutingFailure(request, context) }
        }
        return RouterResponder(
            trie: trie.build(), fallback: fallback, routes: routes,
            requestIDHeader: requestIDHeader, logger: logger, problemRenderer: problemRenderer)
    }

    /// Wraps `terminal` in `middleware`, first added outermost. Every link turns what it throws
    /// into its future's failure, so each middleware receives one kind of answer from `next`.
    private static func compose(_ middleware: [any RouterMiddleware<Context>], around terminal: @escaping RouterResponder<Context>.Chain) -> RouterResponder<Context>.Chain {
        middleware.reversed().reduce(terminal) { next, middleware in
            { request, context in ResponseFuture { try middleware.handle(request, context: context, next: next) } }
        }
    }
}

/// Routes sharing a path prefix and extra middleware.
public struct RouteGroup<Context: RequestContext> {
    let router: Router<Context>
    let prefix: RoutePattern
    let middleware: [any RouterMiddleware<Context>]

    /// The same group with `middleware` added after the group's existing middleware; routes
    /// registered through the returned group run it.
    public func add(middleware: some RouterMiddleware<Context>) -> RouteGroup {
        RouteGroup(router: router, prefix: prefix, middleware: self.middleware + [middleware])
    }

    /// A nested group under `prefix`, keeping this group's middleware.
    public func group(_ prefix: String) -> RouteGroup {
        RouteGroup(router: router, prefix: self.prefix.appending(RoutePattern(prefix)), middleware: middleware)
    }

    /// Registers `handler` under the group's prefix and middleware; as `Router.on`.
    public func on(_ method: HTTPMethod, _ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) {
        router.register(method, prefix.appending(RoutePattern(pattern)), query: query, groupMiddleware: middleware, handler: handler)
    }

    public func get(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) { on(.get, pattern, query: query, use: handler) }
    public func post(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) { on(.post, pattern, query: query, use: handler) }
    public func put(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) { on(.put, pattern, query: query, use: handler) }
    public func patch(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) { on(.patch, pattern, query: query, use: handler) }
    public func delete(_ pattern: String, query: AcceptedQuery = [], use handler: @escaping Router<Context>.Handler) { on(.delete, pattern, query: query, use: handler) }
}
