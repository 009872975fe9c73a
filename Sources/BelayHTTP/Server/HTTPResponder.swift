import Dispatch
/// Turns a request into a response. The server calls it on its worker threads, concurrently.
public protocol HTTPResponder: Sendable {
    /// Answers one request. Never throws: errors are mapped to responses before they get here.
    func respond(to request: Request) -> Response
}

/// A responder made from a closure; handy for tests and tiny servers.
public struct ClosureResponder: HTTPResponder {
    let body: @Sendable (Request) -> Response

    public init(_ body: @escaping @Sendable (Request) -> Response) { self.body = body }

    public func respond(to request: Request) -> Response { body(request) }
}

extension HTTPResponder {
    /// Answers `request` as the server would, waiting on the calling thread when the answer
    /// is deferred (see `DeferredResponse`): for callers that use a responder in-process.
    public func respondWaiting(to request: Request) -> Response {
        let response = respond(to: request)
        guard let deferred = response.deferred else { return response }
        let completed = DispatchSemaphore(value: 0)
        deferred.whenComplete { completed.signal() }
        completed.wait()
        return deferred.resolve().recovered { _ in Response(status: .internalServerError) }
    }
}
