import BelayCore

/// Writes one line per request at `info` level once the response is known:
///
/// `info http: GET /v1/meetups/{id} 200 bytes=231 duration_ms=0.412 request_id=5f1c9a0e-2b client=192.0.2.4`
///
/// The route pattern, not the path, is logged (unmatched requests log their path quoted), so
/// lines group by endpoint and ids stay out of the pattern. Put it before `ErrorMiddleware` so
/// it sees mapped errors; errors thrown past it are logged with the status they will map to.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ request: Request, context: Context, next: (Request, Context) throws -> Response) throws -> Response {
        guard logger.isEnabled(.info) else { return try next(request, context) }
        let start = SystemTimeSource.monotonicNanoseconds()
        do {
            let response = try next(request, context)
            guard response.isDeferred else {
                write(.success(response), request, context, start: start)
                return response
            }
            return try response.transformed { outcome in
                write(outcome, request, context, start: start)
                return outcome
            }
        } catch {
            write(.failure(error), request, context, start: start)
            throw error
        }
    }

    private func write(_ outcome: Result<Response, any Error>, _ request: Request, _ context: Context, start: UInt64) {
        let (status, bytes) = (outcome.statusCode, outcome.bodyCount)
        let elapsed = SystemTimeSource.monotonicNanoseconds() &- start
        let route = context.route ?? LogEntry.quotedIfNeeded(request.path)
        logger.sink.write(LogEntry(
            level: .info, label: logger.label,
            message: "\(request.method.rawValue) \(route) \(status)",
            metadata: [
                ("bytes", String(bytes)),
                ("duration_ms", Self.milliseconds(elapsed)),
                ("request_id", context.requestID),
                ("client", request.remoteAddress.isEmpty ? "-" : request.remoteAddress),
            ] + logger.metadata))
    }

    /// `0.412` for 412 µs: three decimals without Foundation formatting.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let microseconds = nanoseconds / 1000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
