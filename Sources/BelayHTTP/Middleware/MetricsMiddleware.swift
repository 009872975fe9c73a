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

    public func handle(_ request: Request, context: Context, next: (Request, Context) throws -> Response) throws -> Response {
        let start = SystemTimeSource.monotonicNanoseconds()
        do {
            let response = try next(request, context)
            guard response.isDeferred else {
                record(.success(response), request, context, start: start)
                return response
            }
            return try response.transformed { outcome in
                record(outcome, request, context, start: start)
                return outcome
            }
        } catch {
            record(.failure(error), request, context, start: start)
            throw error
        }
    }

    private func record(_ outcome: Result<Response, any Error>, _ request: Request, _ context: Context, start: UInt64) {
        let status = outcome.statusCode
        let seconds = Double(SystemTimeSource.monotonicNanoseconds() &- start) / 1e9
        let route = context.route ?? "unmatched"
        let key = SeriesCache.CounterKey(method: request.method.metricLabel, route: route, status: status)
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
