import BelayCore

/// The frozen router: finds the route, builds the request's context, runs the middleware chain
/// and the handler. Immutable and safe to call from every server thread at once.
public struct RouterResponder<Context: RequestContext>: HTTPResponder {
    typealias Chain = @Sendable (Request, Context) -> ResponseFuture

    struct Endpoint: Sendable {
        let pattern: String
        let parameterNames: [String]
        let chain: Chain
    }

    let trie: RouteTrie<Endpoint>
    /// Global middleware around the answer for unmatched paths and methods.
    let fallback: Chain
    /// Every route, for documentation checks.
    public let routes: [RouteDescription]
    let requestIDHeader: String
    let requestIDs = RequestIDGenerator()
    let logger: Logger
    let problemRenderer: ProblemRenderer

    init(trie: RouteTrie<Endpoint>, fallback: @escaping Chain, routes: [RouteDescription], requestIDHeader: String,
         logger: Logger, problemRenderer: ProblemRenderer) {
        self.trie = trie
        self.fallback = fallback
        self.routes = routes
        self.requestIDHeader = requestIDHeader
        self.logger = logger
        self.problemRenderer = problemRenderer
    }

    public func respond(to request: Request) -> Response {
        var core = CoreRequestContext(requestID: requestIDs.id(accepting: request.headers[requestIDHeader]), logger: logger)
        let chain: Chain
        var captures: [Substring] = []
        if let rejection = request.rejection {
            // A request the server could not frame safely is answered the same on every path.
            core.routingOutcome = .rejected(rejection)
            chain = fallback
        } else if let node = trie.node(for: request.path, captures: &captures) {
            core.route = node.pattern
            if let endpoint = node.endpoints[request.method] ?? (request.method == .head ? node.endpoints[.get] : nil) {
                core.route = endpoint.pattern
                var entries: [Parameters.Entry] = []
                entries.reserveCapacity(captures.count)
                for (name, value) in zip(endpoint.parameterNames, captures) {
                    entries.append(Parameters.Entry(name: name, value: value))
                }
                core.parameters = Parameters(entries: entries)
                chain = endpoint.chain
            } else {
                var allowed = Array(node.endpoints.keys)
                if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
                if !allowed.contains(.options) { allowed.append(.options) }
                allowed.sort { $0.rawValue < $1.rawValue }
                core.routingOutcome = request.method == .options ? .options(allowed: allowed) : .methodNotAllowed(allowed: allowed)
                chain = fallback
            }
        } else {
            core.routingOutcome = .notFound
            chain = fallback
        }

        let finishing = Finishing(request: request, requestID: core.requestID, requestIDHeader: requestIDHeader,
                                  logger: logger, problemRenderer: problemRenderer)
        // `finishing` answers every error, so the recovery below is never needed.
        return chain(request, Context(core: core)).map(finishing).response { _ in Response(status: .internalServerError) }
    }

    /// The last step on the way out: maps errors no `ErrorMiddleware` caught (only there when
    /// none is installed, or middleware outside it threw) and echoes the request id.
    struct Finishing: ResponseTransform {
        let request: Request
        let requestID: String
        let requestIDHeader: String
        let logger: Logger
        let problemRenderer: ProblemRenderer

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            var response = outcome.recovered { problemRenderer.response(for: $0, request: request, requestID: requestID, logger: logger) }
            response.headers.replaceOrAdd(name: requestIDHeader, value: requestID)
            return .success(response)
        }
    }

    /// The end of the chain for requests no route answers.
    static func answerRoutingFailure(_ request: Request, _ context: Context) throws -> Response {
        switch context.core.routingOutcome {
        case .matched, .notFound:
            throw HTTPError.routeNotFound(path: request.path)
        case .methodNotAllowed(let allowed):
            throw HTTPError.methodNotAllowed(request.method, allowed: allowed)
        case .options(let allowed):
            return Response(status: .noContent, headers: ["Allow": allowed.map(\.rawValue).joined(separator: ", ")])
        case .rejected(let problem):
            throw problem
        }
    }
}
