import BelayCore
import Synchronization

/// Counts requests by method, route and status (`http_requests_total`) and records their latency
/// by route (`http_request_duration_seconds`). Every label comes from a closed set: methods
/// outside the standard ones count as `other`, routes are route patterns (unmatched requests
/// count under `unmatched`), statuses are three-digit codes; so no request text, however
/// random, creates a series.
public struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let registry: MetricsRegistry
    private let cache: SeriesCache

    /// Looks series up by route without building label dictionaries on every request.
    final class SeriesCache: Sendable {
        struct CounterKey: Hashable {
            let method: String
            let route: String
            let status: Int
        }

        let counters = Mutex<[CounterKey: Counter]>([:])
        let histograms = Mutex<[String: Histogram]>([:])
    }

    public init(registry: MetricsRegistry) {
        self.registry = registry
        cache = SeriesCache()
        // Register the families up front so /metrics shows them before the first request.
        _ = registry.counter("http_requests_total", help: "HTTP requests answered, by method, route and status.",
                             labels: ["method": "GET", "route": "unmatched", "status": "404"])
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        let start = SystemTimeSource.monotonicNanoseconds()
        return next(request, context).map(Observation(middleware: self, method: request.method, route: context.route, start: start))
    }

    /// Records one request once its outcome is known (deferred ones when their work completes).
    struct Observation: ResponseTransform {
        let middleware: MetricsMiddleware
        let method: HTTPMethod
        let route: String?
        let start: UInt64

        func apply(to outcome: Result<Response, any Error>) -> Result<Response, any Error> {
            middleware.record(status: outcome.statusCode, method: method, route: route ?? "unmatched", start: start)
            return outcome
        }
    }

    private func record(status: Int, method: HTTPMethod, route: String, start: UInt64) {
        let seconds = Double(SystemTimeSource.monotonicNanoseconds() &- start) / 1e9
        let key = SeriesCache.CounterKey(method: method.metricLabel, route: route, status: status)
        let counter = cache.counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = registry.counter("http_requests_total", help: "HTTP requests answered, by method, route and status.",
                                           labels: ["method": key.method, "route": route, "status": String(status)])
            counters[key] = counter
            return counter
        }
        counter.increment()
        let histogram = cache.histograms.withLock { histograms in
            if let histogram = histograms[route] { return histogram }
            let histogram = registry.histogram("http_request_duration_seconds", help: "Time to answer HTTP requests, by route.",
                                               labels: ["route": route])
            histograms[route] = histogram
            return histogram
        }
        histogram.observe(seconds)
    }
}

extension Response {
    /// The registry's metrics in the Prometheus text format.
    public static func metrics(_ registry: MetricsRegistry) -> Response {
        Response(status: .ok, headers: ["Content-Type": MetricsRegistry.contentType], body: ResponseBody(string: registry.prometheusText()))
    }
}
