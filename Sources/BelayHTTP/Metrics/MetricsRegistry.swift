import BelayCore
import Synchronization

/// Counters, gauges and histograms with labels, rendered in the Prometheus text format (0.0.4).
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

    enum MetricType: String {
        case counter, gauge, histogram
    }

    /// Label pairs sorted by name, so `["a": 1, "b": 2]` and `["b": 2, "a": 1]` are one series.
    struct Labels: Hashable {
        let pairs: [LabelPair]

        init(_ dictionary: [String: String]) {
            pairs = dictionary.map { LabelPair(name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
        }

        func rendered(adding extra: LabelPair? = nil) -> String {
            var all = pairs
            if let extra { all.append(extra) }
            guard !all.isEmpty else { return "" }
            return "{" + all.map { "\($0.name)=\"\(MetricsRegistry.escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
        }
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
        var text = ""
        for name in order {
            guard let family = snapshot[name] else { continue }
            text += "# HELP \(name) \(Self.escapeHelp(family.help))\n# TYPE \(name) \(family.type.rawValue)\n"
            for labels in family.order {
                switch family.series[labels]! {
                case .counter(let counter):
                    text += "\(name)\(labels.rendered()) \(counter.value)\n"
                case .gauge(let gauge):
                    text += "\(name)\(labels.rendered()) \(Self.format(gauge.value))\n"
                case .computedGauge(let collect):
                    text += "\(name)\(labels.rendered()) \(Self.format(collect()))\n"
                case .histogram(let histogram):
                    let snapshot = histogram.snapshot()
                    var cumulative = 0
                    for (bound, count) in zip(histogram.bounds, snapshot.bucketCounts) {
                        cumulative += count
                        text += "\(name)_bucket\(labels.rendered(adding: LabelPair(name: "le", value: Self.format(bound)))) \(cumulative)\n"
                    }
                    text += "\(name)_bucket\(labels.rendered(adding: LabelPair(name: "le", value: "+Inf"))) \(snapshot.count)\n"
                    text += "\(name)_sum\(labels.rendered()) \(Self.format(snapshot.sum))\n"
                    text += "\(name)_count\(labels.rendered()) \(snapshot.count)\n"
                }
            }
        }
        let dropped = droppedSeries.value
        if dropped > 0 {
            text += "# HELP metrics_series_dropped_total Label sets not exported because their metric had \(maxSeriesPerFamily) series already.\n"
            text += "# TYPE metrics_series_dropped_total counter\nmetrics_series_dropped_total \(dropped)\n"
        }
        return text
    }

    /// Content type of `prometheusText()`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
              first.properties.isAlphabetic || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ":") }
    }

    static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    static func escapeHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A value that only goes up.
public final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    init() {}

    public func increment(by amount: Int = 1) {
        precondition(amount >= 0, "a counter only goes up")
        storage.add(amount, ordering: .relaxed)
    }

    public var value: Int { storage.load(ordering: .relaxed) }
}

/// A value that goes up and down.
public final class Gauge: Sendable {
    private let bits = Atomic<UInt64>(0.0.bitPattern)

    init() {}

    public func set(_ value: Double) { bits.store(value.bitPattern, ordering: .relaxed) }

    public func add(_ amount: Double) {
        var current = bits.load(ordering: .relaxed)
        while true {
            let updated = (Double(bitPattern: current) + amount).bitPattern
            let (exchanged, original) = bits.compareExchange(expected: current, desired: updated, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    public var value: Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}

/// Counts observations into buckets by upper bound, plus their sum and count.
public final class Histogram: Sendable {
    /// 0.5 ms to 10 s: suits HTTP latencies from a cached GET to a slow render.
    public static let defaultLatencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Snapshot {
        var bucketCounts: [Int]
        var sum: Double
        var count: Int
    }

    let bounds: [Double]
    private let state: Mutex<Snapshot>

    init(buckets: [Double]) {
        bounds = buckets.sorted()
        state = Mutex(Snapshot(bucketCounts: Array(repeating: 0, count: buckets.count), sum: 0, count: 0))
    }

    /// Records one observation, e.g. a duration in seconds.
    public func observe(_ value: Double) {
        // Binary search outside the lock: bounds never change.
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if value <= bounds[middle] { high = middle } else { low = middle + 1 }
        }
        state.withLock { state in
            if low < state.bucketCounts.count { state.bucketCounts[low] += 1 }
            state.sum += value
            state.count += 1
        }
    }

    /// Observations so far.
    public var count: Int { state.withLock { $0.count } }

    func snapshot() -> Snapshot { state.withLock { $0 } }
}
