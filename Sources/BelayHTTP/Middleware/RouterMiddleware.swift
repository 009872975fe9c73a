/// Code that runs around handlers: it may change the request or context before calling `next`,
/// answer without calling it, or change the response `next` returns.
///
/// Middleware that looks at or changes the response (or the error) `next` produced does so
/// through `Response.transformed`, so that it also sees the final outcome of a deferred
/// response (one whose handler's work finishes on another thread, see `DeferredResponse`).
public protocol RouterMiddleware<Context>: Sendable {
    associatedtype Context: RequestContext

    /// Handles one request; call `next` to continue to the following middleware and the handler.
    func handle(_ request: Request, context: Context, next: (Request, Context) throws -> Response) throws -> Response
}

/// Middleware written as a closure.
public struct ClosureMiddleware<Context: RequestContext>: RouterMiddleware {
    public typealias Body = @Sendable (Request, Context, (Request, Context) throws -> Response) throws -> Response
    let body: Body

    public init(_ body: @escaping Body) { self.body = body }

    public func handle(_ request: Request, context: Context, next: (Request, Context) throws -> Response) throws -> Response {
        try body(request, context, next)
    }
}
