/// Code that runs around handlers: it may change the request or context before calling `next`,
/// answer without calling it (returning a response, or throwing the error to answer with), or
/// change what `next` answers.
///
/// `next` answers with a `ResponseFuture`, never a bare response: middleware that looks at or
/// changes the response (or the error) does so through `ResponseFuture.map`, which sees the
/// final outcome whether the handler answered at once or its work finishes on another thread
/// (see `DeferredResponse`). Errors arrive the same way: `next` does not throw, an error thrown
/// further in is the failure its future holds.
public protocol RouterMiddleware<Context>: Sendable {
    associatedtype Context: RequestContext

    /// Handles one request; call `next` to continue to the following middleware and the handler.
    /// - Throws: the error to answer with instead (the router turns it into the future's
    ///   failure, so outer middleware sees it like a handler's).
    func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture
}

/// Middleware written as a closure.
public struct ClosureMiddleware<Context: RequestContext>: RouterMiddleware {
    public typealias Body = @Sendable (Request, Context, (Request, Context) -> ResponseFuture) throws -> ResponseFuture
    let body: Body

    public init(_ body: @escaping Body) { self.body = body }

    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        try body(request, context, next)
    }
}
