import BelayCore

/// What the router knows about a request before any handler runs: its id, the matched route and
/// its path parameters, and a logger. Every `RequestContext` carries one.
public struct CoreRequestContext: Sendable {
    /// The request's id: the client's `X-Request-Id` when it was sane, otherwise generated.
    /// Echoed in the response's `X-Request-Id` and quoted in problem responses and logs.
    public internal(set) var requestID: String
    /// The matched route's pattern (`/v1/meetups/{id}`), stable for logs and metrics; nil when
    /// no route matched the path.
    public internal(set) var route: String?
    /// The path parameters the route captured.
    public internal(set) var parameters: Parameters
    /// The router's logger; `RequestContext.logger` adds the request id to it.
    public var baseLogger: Logger
    /// Why routing failed (404, 405, OPTIONS), answered by the fallback endpoint.
    var routingOutcome: RoutingOutcome

    public init(requestID: String, route: String? = nil, parameters: Parameters = Parameters(), logger: Logger) {
        self.requestID = requestID
        self.route = route
        self.parameters = parameters
        baseLogger = logger
        routingOutcome = .matched
    }
}

/// How routing ended for a request that reached the fallback endpoint.
enum RoutingOutcome: Sendable {
    case matched
    case notFound
    case methodNotAllowed(allowed: [HTTPMethod])
    case options(allowed: [HTTPMethod])
    /// The server refused the request's framing before routing (`Request.rejection`).
    case rejected(HTTPError)
}

/// The typed per-request context handed to middleware and handlers.
///
/// An application declares its own context to carry what its middleware establishes, e.g. the
/// authenticated principal:
///
/// ```swift
/// struct APIContext: RequestContext {
///     var core: CoreRequestContext
///     var principal: Principal?
///     init(core: CoreRequestContext) { self.core = core }
/// }
/// ```
public protocol RequestContext: Sendable {
    /// Called by the router once per request, before the middleware chain runs.
    init(core: CoreRequestContext)
    var core: CoreRequestContext { get set }
}

extension RequestContext {
    public var requestID: String { core.requestID }
    public var parameters: Parameters { core.parameters }
    public var route: String? { core.route }

    /// The router's logger with this request's id attached to every entry.
    public var logger: Logger {
        var logger = core.baseLogger
        logger.metadata.append((key: "request_id", value: core.requestID))
        return logger
    }
}

/// A context with nothing beyond the core: for routers that need no authentication or extras.
public struct BasicRequestContext: RequestContext {
    public var core: CoreRequestContext

    public init(core: CoreRequestContext) { self.core = core }
}
