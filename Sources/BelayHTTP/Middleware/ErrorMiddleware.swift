/// Catches every error thrown further down the chain and answers it as a problem response.
/// Unexpected errors (anything but `HTTPError`) are logged with the request id and answered 500.
public struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let renderer: ProblemRenderer

    public init(logger: Logger, renderer: ProblemRenderer = ProblemRenderer()) {
        self.logger = logger
        self.renderer = renderer
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) throws -> Response) throws -> Response {
        do {
            let response = try next(request, context)
            guard response.isDeferred else { return response }
            return try response.transformed { outcome in
                .success(outcome.recovered { renderer.response(for: $0, request: request, requestID: context.requestID, logger: logger) })
            }
        } catch {
            return renderer.response(for: error, request: request, requestID: context.requestID, logger: logger)
        }
    }
}
