import BelayCore

/// Writes one line per request at `info` level once the response is known:
///
/// `info http: GET /v1/meetups/{id} 200 bytes=231 duration_ms=0.412 request_id=5f1c9a0e-2b client=192.0.2.4`
///
/// The route pattern, not the path, is logged (unmatched requests log their path quoted), so
/// lines group by endpoint and ids stay out of the pattern. Put it before `ErrorMiddleware` so
/// it sees mapped errors; errors passed out past it are logged with the status they will map to.
/// Deferred answers (check-ins) are logged when their work completes, with their real status.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    /// Paths whose rest is a credential (a calendar feed's token): an unmatched path under one
    /// is logged as the prefix and `…`, never with the rest.
    let secretPathPrefixes: [String]

    public init(logger: Logger, secretPathPrefixes: [String] = []) {
        self.logger = logger
        self.secretPathPrefixes = secretPathPrefixes
    }

    /// How an unmatched path is logged: quoted when needed, and cut after a secret prefix.
    func loggedPath(_ path: String) -> String {
        if let prefix = secretPathPrefixes.first(where: { path.hasPrefix($0) && path.count > $0.count }) {
            return LogEntry.quotedIfNeeded(prefix + "…")
        }
        return LogEntry.quotedIfNeeded(path)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        guard logger.isEnabled(.info) else { return next(request, context) }
        let start = SystemTimeSource.monotonicNanoseconds()
        return next(request, context).map(Entry(logger: logger, request: request, context: context, start: start,
                                                route: context.route ?? loggedPath(request.path)))
    }

    /// Writes the line once the outcome is known.
    struct Entry: ResponseTransform {
        let logger: Logger
        let request: Request
        let context: Context
        let start: UInt64
        /// The route pattern, or the (masked, quoted) path when none matched.
        let route: String

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            let (status, bytes) = (outcome.statusCode, outcome.bodyCount)
            let elapsed = SystemTimeSource.monotonicNanoseconds() &- start
            logger.sink.write(LogEntry(
                level: .info, label: logger.label,
                message: "\(request.method.rawValue) \(route) \(status)",
                metadata: [
                    ("bytes", String(bytes)),
                    ("duration_ms", AccessLogMiddleware.milliseconds(elapsed)),
                    ("request_id", context.requestID),
                    ("client", request.remoteAddress.isEmpty ? "-" : request.remoteAddress),
                ] + logger.metadata))
            return outcome
        }
    }

    /// `0.412` for 412 µs: three decimals without Foundation formatting.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let microseconds = nanoseconds / 1000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
