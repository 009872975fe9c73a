/// What a middleware does to a request's outcome on the way out, as a value: the hot-path
/// form of `ResponseFuture.map(_:)`, which applies it in place to a ready outcome (no closure
/// is allocated) and keeps it until the work completes for a deferred one.
public protocol ResponseTransform: Sendable {
    /// The outcome to pass outwards: `outcome` itself, a changed response, or another error.
    func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error>
}
