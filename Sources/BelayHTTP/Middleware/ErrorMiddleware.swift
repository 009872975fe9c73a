import BelayCore

/// Catches every error thrown further down the chain (when a deferred answer's work fails too) and answers it as a problem response.
/// Unexpected errors (anything but `HTTPError`) are logged with the request id and answered 500.
public struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let renderer: ProblemRenderer

    public init(logger: Logger, renderer: ProblemRenderer = ProblemRenderer()) {
        self.logger = logger
        self.renderer = renderer
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        next(request, context).map(Mapping(middleware: self, request: request, requestID: context.requestID))
    }

    /// Answers a failure as its problem response; passes a response through.
    struct Mapping: ResponseTransform {
        let middleware: ErrorMiddleware
        let request: Request
        let requestID: String

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            guard case .failure(let error) = outcome else { return outcome }
            return .success(middleware.renderer.response(for: error, request: request, requestID: requestID, logger: middleware.logger))
        }
    }
}
