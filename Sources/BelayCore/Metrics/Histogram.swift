import Synchronization

/// A histogram many threads observe into: `HistogramCounts` behind a lock. Made by
/// `MetricsRegistry.histogram`.
public final class Histogram: Sendable {
    /// 0.5 ms to 10 s: suits HTTP latencies from a cached GET to a slow render.
    public static let defaultLatencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private let state: Mutex<HistogramCounts>

    init(buckets: [Double]) {
        state = Mutex(HistogramCounts(bounds: buckets))
    }

    /// Records one observation, e.g. a duration in seconds.
    public func observe(_ value: Double) {
        state.withLock { $0.observe(value) }
    }

    /// Observations so far.
    public var count: Int { state.withLock { $0.count } }

    /// The counts now.
    public func snapshot() -> HistogramCounts { state.withLock { $0 } }
}
