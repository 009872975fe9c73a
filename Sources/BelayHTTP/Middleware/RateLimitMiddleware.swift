/// Limits how often each caller reaches the routes behind it, under one `RateLimitPolicy`.
///
/// `keys` names the buckets a request pays from: `["token:\(id)", "ip:\(request.remoteAddress)"]`
/// limits per token and per address at once (all must allow); nil or an empty list lets the
/// request through unlimited. A refused request is answered 429 `rate_limited` (see
/// `HTTPError.rateLimited(policy:decision:)`) without running the handler; an allowed one
/// carries `RateLimit-Policy` and `RateLimit` in its response, errors answered further in
/// included.
///
/// ```swift
/// let auth = try RateLimitPolicy(name: "auth", requests: 10, perSeconds: 60)
/// let group = router.group("/v1/auth").add(middleware: RateLimitMiddleware<APIContext>(
///     policy: auth, limiter: limiter) { request, _ in ["ip:\(request.remoteAddress)"] })
/// ```
///
/// Behind a reverse proxy, add it after `ForwardedClientMiddleware` (which
/// `Router.addStandardMiddleware(logger:trustedProxies:)` installs first), so that
/// `Request.remoteAddress` is the client and not the proxy; and after `ErrorMiddleware`, so
/// that its refusals are answered as problems.
public struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The buckets a request pays from; nil or empty: not limited.
    public typealias Keys = @Sendable (Request, Context) -> [String]?

    let policy: RateLimitPolicy?
    let limiter: RateLimiter
    let cost: Int
    let keys: Keys

    /// - Parameters:
    ///   - policy: the limit applied; nil when it is switched off (every request passes, and
    ///     no response carries the fields).
    ///   - limiter: where the buckets are kept (one limiter can serve every policy).
    ///   - cost: what one request takes from each bucket.
    ///   - keys: the bucket keys of a request.
    public init(policy: RateLimitPolicy?, limiter: RateLimiter, cost: Int = 1, keys: @escaping Keys) {
        self.policy = policy
        self.limiter = limiter
        self.cost = cost
        self.keys = keys
    }

    /// - Throws: `HTTPError` 429 `rate_limited` when a bucket of the request cannot pay.
    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        guard let policy, let keys = keys(request, context), !keys.isEmpty else { return next(request, context) }
        let decision = limiter.take(policy, keys: keys, cost: cost)
        guard decision.allowed else { throw HTTPError.rateLimited(policy: policy, decision: decision) }
        return next(request, context).map(Fields(policy: policy, decision: decision))
    }

    /// Adds the policy's fields to the response, or to the problem an `HTTPError` will answer with.
    struct Fields: ResponseTransform {
        let policy: RateLimitPolicy
        let decision: RateLimitDecision

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            switch outcome {
            case .success(var response):
                for (name, value) in decision.headers(policy: policy) { response.headers.add(name: name, value: value) }
                return .success(response)
            case .failure(var error as HTTPError):
                for (name, value) in decision.headers(policy: policy) { error.headers.add(name: name, value: value) }
                return .failure(error)
            case .failure:
                return outcome
            }
        }
    }
}

extension RateLimiter {
    /// Takes one request of `policy` from every bucket in `keys`, for limits a handler can only
    /// key once it has read the body (per email address, say). No keys: nothing is limited.
    /// - Returns: the decision, whose `headers(policy:)` the handler may add to its response.
    /// - Throws: `HTTPError` 429 `rate_limited`, as `RateLimitMiddleware` answers, when a
    ///   bucket cannot pay (nothing is then taken from the others).
    @discardableResult
    public func check(_ policy: RateLimitPolicy, keys: [String], cost: Int = 1) throws -> RateLimitDecision {
        let decision = take(policy, keys: keys, cost: cost)
        guard decision.allowed else { throw HTTPError.rateLimited(policy: policy, decision: decision) }
        return decision
    }
}

extension HTTPError {
    /// 429 `rate_limited` for a request `policy` refused: the detail names the limit, its rate
    /// and when to retry; `Retry-After`, `RateLimit-Policy` and `RateLimit` go with it, and the
    /// members `policy`, `limit`, `window_seconds` and `retry_after_seconds` say the same to programs.
    public static func rateLimited(policy: RateLimitPolicy, decision: RateLimitDecision) -> HTTPError {
        let retryAfter = max(1, decision.retryAfterSeconds)
        var headers: HTTPHeaders = ["Retry-After": String(retryAfter)]
        for (name, value) in decision.headers(policy: policy) { headers.add(name: name, value: value) }
        let requests = policy.quota == 1 ? "1 request" : "\(policy.quota) requests"
        let window = policy.window == 1 ? "second" : "\(policy.window) seconds"
        let wait = retryAfter == 1 ? "1 second" : "\(retryAfter) seconds"
        return HTTPError(.tooManyRequests, code: "rate_limited",
                         detail: "Too many requests under the `\(policy.name)` limit, which allows \(requests) per \(window); retry in \(wait).",
                         headers: headers,
                         extensions: [
                             "policy": .string(policy.name),
                             "limit": .int(Int64(policy.quota)),
                             "window_seconds": .int(Int64(policy.window)),
                             "retry_after_seconds": .int(Int64(retryAfter)),
                         ])
    }
}
