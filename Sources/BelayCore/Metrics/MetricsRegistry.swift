import Synchronization

/// Counters, gauges and histograms with labels, rendered in the Prometheus text format (0.0.4)
/// by `PrometheusTextWriter`.
///
/// Metrics are created once and then updated without touching the registry:
/// ```swift
/// let checkIns = registry.counter("belay_check_ins_total", help: "Check-ins recorded.", labels: ["result": "created"])
/// checkIns.increment()
/// ```
/// Asking again for the same name and labels returns the same metric. Values computed at scrape
/// time (a queue depth) are registered with `gauge(_:help:labels:collect:)`.
///
/// Label values must come from closed sets (never raw request text). As a backstop each family
/// keeps at most `maxSeriesPerFamily` series: a label set past that gets a working metric that
/// is not exported, and `metrics_series_dropped_total` counts such label sets.
public final class MetricsRegistry: Sendable {
    private struct Family {
        let type: MetricType
        let help: String
        var series: [Labels: Series]
        var order: [Labels]
    }

    private enum Series {
        case counter(Counter)
        case gauge(Gauge)
        case computedGauge(@Sendable () -> Double)
        case histogram(Histogram)
    }

    typealias MetricType = PrometheusTextWriter.MetricType

    /// Label pairs sorted by name, so `["a": 1, "b": 2]` and `["b": 2, "a": 1]` are one series.
    struct Labels: Hashable {
        let pairs: [LabelPair]

        init(_ dictionary: [String: String]) {
            pairs = dictionary.map { LabelPair(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
        }

        var list: [(String, String)] { pairs.map { ($0.name, $0.value) } }
    }

    struct LabelPair: Hashable {
        let name: String
        let value: String
    }

    private let families = Mutex<[String: Family]>([:])
    private let familyOrder = Mutex<[String]>([])
    /// Label sets refused because their family was full.
    private let droppedSeries = Counter()
    /// The most series one family exports.
    public let maxSeriesPerFamily: Int

    /// - Parameter maxSeriesPerFamily: the most label sets one metric name keeps (at least 1).
    public init(maxSeriesPerFamily: Int = 5_000) {
        precondition(maxSeriesPerFamily >= 1, "a metric family must be able to hold a series")
        self.maxSeriesPerFamily = maxSeriesPerFamily
    }

    /// The counter `name` with `labels`, created on first use.
    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let series = series(name, type: .counter, help: help, labels: labels) { .counter(Counter()) }
        guard case .counter(let counter) = series else { preconditionFailure("metric \(name) is not a counter") }
        return counter
    }

    /// The gauge `name` with `labels`, created on first use.
    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let series = series(name, type: .gauge, help: help, labels: labels) { .gauge(Gauge()) }
        guard case .gauge(let gauge) = series else { preconditionFailure("metric \(name) with these labels is computed, not set") }
        return gauge
    }

    /// A gauge whose value `collect` computes at every scrape (e.g. a queue's depth). Registering
    /// the same name and labels again replaces the closure.
    public func gauge(_ name: String, help: String, labels: [String: String] = [:], collect: @escaping @Sendable () -> Double) {
        _ = series(name, type: .gauge, help: help, labels: labels, replace: true) { .computedGauge(collect) }
    }

    /// The histogram `name` with `labels` and upper bucket bounds `buckets` (an implicit `+Inf`
    /// bucket is added), created on first use.
    public func histogram(_ name: String, help: String, labels: [String: String] = [:],
                          buckets: [Double] = Histogram.defaultLatencyBuckets) -> Histogram {
        let series = series(name, type: .histogram, help: help, labels: labels) { .histogram(Histogram(buckets: buckets)) }
        guard case .histogram(let histogram) = series else { preconditionFailure("metric \(name) is not a histogram") }
        return histogram
    }

    private func series(_ name: String, type: MetricType, help: String, labels: [String: String], replace: Bool = false,
                        make: () -> Series) -> Series {
        precondition(Self.isValidName(name), "metric name \(name) must match [a-zA-Z_:][a-zA-Z0-9_:]*")
        let key = Labels(labels)
        let found = families.withLock { families -> Series? in
            if families[name] == nil { familyOrder.withLock { $0.append(name) } }
            // Updated in place through the subscript: a new series costs no copy of the family.
            return Self.series(in: &families[name, default: Family(type: type, help: help, series: [:], order: [])],
                               name: name, type: type, key: key, replace: replace, limit: maxSeriesPerFamily, make: make)
        }
        if let found { return found }
        droppedSeries.increment()
        return make()
    }

    /// The series `key` of `family`, created when missing; nil when the family is full.
    private static func series(in family: inout Family, name: String, type: MetricType, key: Labels, replace: Bool,
                               limit: Int, make: () -> Series) -> Series? {
        precondition(family.type == type, "metric \(name) is a \(family.type.rawValue), not a \(type.rawValue)")
        if let existing = family.series[key], !replace { return existing }
        if family.series[key] == nil {
            guard family.order.count < limit else { return nil }
            family.order.append(key)
        }
        let created = make()
        family.series[key] = created
        return created
    }

    /// Every metric in the Prometheus text exposition format, families in registration order.
    public func prometheusText() -> String {
        let snapshot = families.withLock { $0 }
        let order = familyOrder.withLock { $0 }
        var writer = PrometheusTextWriter()
        for name in order {
            guard let family = snapshot[name] else { continue }
            writer.family(name, help: family.help, type: family.type)
            for labels in family.order {
                guard let series = family.series[labels] else { continue }
                switch series {
                case .counter(let counter): writer.sample(name, labels: labels.list, counter.value)
                case .gauge(let gauge): writer.sample(name, labels: labels.list, gauge.value)
                case .computedGauge(let collect): writer.sample(name, labels: labels.list, collect())
                case .histogram(let histogram): writer.histogram(name, labels: labels.list, histogram.snapshot())
                }
            }
        }
        let dropped = droppedSeries.value
        if dropped > 0 {
            writer.family("metrics_series_dropped_total",
                          help: "Label sets not exported because their metric had \(maxSeriesPerFamily) series already.", type: .counter)
            writer.sample("metrics_series_dropped_total", dropped)
        }
        return writer.text
    }

    /// Content type of `prometheusText()`.
    public static let contentType = PrometheusTextWriter.contentType

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
              first.properties.isAlphabetic || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ":") }
    }
}
