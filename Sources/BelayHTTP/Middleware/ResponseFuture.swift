/// The answer to a request as middleware sees it: an outcome that is ready now, or one that a
/// `DeferredResponse` supplies later, after the handler's work finished on another thread (a
/// check-in waiting for its group commit).
///
/// Middleware cannot tell the two apart and need not: whatever it does with the response, or
/// with the error the handler threw, it does through `map`, which runs at once for a ready
/// outcome and when the work completes for a deferred one. So a middleware that logs, counts
/// or maps errors sees every request's final status, deferred ones included.
///
/// ```swift
/// func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
///     next(request, context).map { outcome in
///         if case .success(let response) = outcome { print(response.status.code) }
///         return outcome
///     }
/// }
/// ```
public struct ResponseFuture: Sendable {
    /// What a middleware does to the outcome: the response, or the error the handler threw.
    public typealias Transform = @Sendable (Result<Response, any Error>) -> Result<Response, any Error>

    enum State: Sendable {
        case ready(Result<Response, any Error>)
        case deferred(DeferredResponse)
    }

    let state: State

    private init(state: State) { self.state = state }

    /// The future of `response`: ready, unless it is a `Response.deferred(_:)` placeholder,
    /// whose real response comes later.
    public init(_ response: Response) {
        if let deferred = response.deferred {
            state = .deferred(deferred)
        } else {
            state = .ready(.success(response))
        }
    }

    /// An answer that is the error `error` (mapped to a response by `ErrorMiddleware`).
    public init(failure error: any Error) {
        state = .ready(.failure(error))
    }

    /// The response `body` returns, or the error it throws.
    public init(catching body: () throws -> Response) {
        do {
            self = ResponseFuture(try body())
        } catch {
            self = ResponseFuture(failure: error)
        }
    }

    /// The future of what `body` returns, or of the error it throws.
    public init(catching body: () throws -> ResponseFuture) {
        do {
            self = try body()
        } catch {
            self = ResponseFuture(failure: error)
        }
    }

    /// Passes the final outcome through `transform`: now when it is ready, once the work
    /// completes when it is deferred. Transforms registered on the way out of the middleware
    /// chain run innermost first, exactly as for a ready outcome.
    ///
    /// For middleware on every request's path, prefer `map(_:)` with a `ResponseTransform`
    /// value: it costs no closure for a ready outcome.
    public func map(_ transform: @escaping Transform) -> ResponseFuture {
        switch state {
        case .ready(let outcome):
            return ResponseFuture(state: .ready(transform(outcome)))
        case .deferred(let deferred):
            deferred.append(transform)
            return self
        }
    }

    /// Passes the final outcome through `transform` (see `map(_:)` with a closure); a ready
    /// outcome is transformed in place, without allocating.
    public func map<Transformer: ResponseTransform>(_ transform: Transformer) -> ResponseFuture {
        switch state {
        case .ready(let outcome):
            return ResponseFuture(state: .ready(transform.apply(to: outcome)))
        case .deferred(let deferred):
            deferred.append { transform.apply(to: $0) }
            return self
        }
    }

    /// The response to hand to the server: the ready response, or the deferred placeholder.
    /// A ready error that no middleware mapped is answered with `recovery`'s response.
    func response(recovering recovery: (any Error) -> Response) -> Response {
        switch state {
        case .ready(let outcome): outcome.recovered(recovery)
        case .deferred(let deferred): .deferred(deferred)
        }
    }
}
