import Synchronization

/// A response that is not ready when its handler returns, because the handler handed its
/// work to another thread (a database write waiting for its group commit).
///
/// The handler returns `Response.deferred(_:)`; the server then suspends the connection, so
/// no HTTP thread waits, and resumes it once `complete` is called. The response is built and
/// sent on an HTTP thread: the closure given to `complete` runs there, then the transforms
/// that middleware registered on the way out (`ResponseFuture.map`), innermost first, exactly
/// as they would have handled a response returned at once. Middleware never sees the
/// placeholder itself: the router hands it a `ResponseFuture`.
public final class DeferredResponse: Sendable {
    typealias Transform = ResponseFuture.Transform

    private struct State {
        var finish: (@Sendable () throws -> Response)?
        var resume: (@Sendable () -> Void)?
        var transforms: [Transform] = []
        /// The server stopped waiting and answered without the work (it was shutting down).
        var abandoned = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Marks the work done; call it exactly once, from any thread. `finish` builds the
    /// response (or throws the error to answer with) on an HTTP thread. When the server has
    /// already given up on the request (see `isAbandoned`), this does nothing.
    public func complete(_ finish: @escaping @Sendable () throws -> Response) {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            if state.abandoned { return nil }
            precondition(state.finish == nil, "a deferred response was completed twice")
            state.finish = finish
            return state.resume
        }
        resume?()
    }

    /// True when the server answered without waiting for the work (it was shutting down and the
    /// grace period ended); the work itself may still finish, and its `complete` is ignored.
    public var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Answers with `error` instead of waiting any longer, unless the work is already complete.
    /// Returns whether it was abandoned (and its connection resumed).
    @discardableResult
    func abandon(with error: HTTPError) -> Bool {
        let (abandoned, resume) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.finish == nil else { return (false, nil) }
            state.abandoned = true
            state.finish = { throw error }
            return (true, state.resume)
        }
        resume?()
        return abandoned
    }

    /// Registers `transform` to run on the outcome; `ResponseFuture.map` calls it as the
    /// deferred response passes back through each middleware, so inner middleware's transforms
    /// run first.
    func append(_ transform: @escaping Transform) {
        state.withLock { $0.transforms.append(transform) }
    }

    /// Registers what resumes the connection; runs it at once when already complete.
    func whenComplete(_ resume: @escaping @Sendable () -> Void) {
        let isComplete = state.withLock { state -> Bool in
            state.resume = resume
            return state.finish != nil
        }
        if isComplete { resume() }
    }

    /// The outcome after every transform; call it only after completion.
    func resolve() -> Result<Response, any Error> {
        let (finish, transforms) = state.withLock { ($0.finish, $0.transforms) }
        guard let finish else { return .failure(DeferredResponseError.notComplete) }
        var outcome = Result { try finish() }
        for transform in transforms { outcome = transform(outcome) }
        return outcome
    }
}

/// A deferred response was sent before its work completed (a defect of the server).
enum DeferredResponseError: Error {
    case notComplete
}

extension Response {
    /// A response that `deferred` will supply later (see `DeferredResponse`).
    public static func deferred(_ deferred: DeferredResponse) -> Response {
        var response = Response(status: .accepted)
        response.deferred = deferred
        return response
    }

    /// True when a `DeferredResponse` supplies the real response later.
    public var isDeferred: Bool { deferred != nil }
}

extension Result where Success == Response {
    /// The response, or the one `recovery` makes of the error.
    public func recovered(_ recovery: (Failure) -> Response) -> Response {
        switch self {
        case .success(let response): response
        case .failure(let error): recovery(error)
        }
    }

    /// The status the client gets: the response's, or an error's (500 unless it is an
    /// `HTTPError`, which the error middleware answers with its own status).
    var statusCode: Int {
        switch self {
        case .success(let response): response.status.code
        case .failure(let error): (error as? HTTPError)?.status.code ?? 500
        }
    }

    /// The body's size in bytes; 0 for an error.
    var bodyCount: Int {
        (try? get())?.body.count ?? 0
    }
}
