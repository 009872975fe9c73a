/// Writes metrics in the Prometheus text exposition format (0.0.4): Belay's one writer of it,
/// for the registry's metrics and for the values computed at scrape time.
///
/// ```swift
/// var writer = PrometheusTextWriter()
/// writer.family("belay_render_queue_jobs", help: "Render jobs by state, now.", type: .gauge)
/// writer.sample("belay_render_queue_jobs", labels: [("state", "queued")], 3)
/// ```
public struct PrometheusTextWriter: Sendable {
    /// A metric family's type, as `# TYPE` names it.
    public enum MetricType: String, Sendable {
        case counter, gauge, histogram
    }

    /// Content type of the text.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The text so far.
    public private(set) var text = ""

    /// An empty text.
    public init() {}

    /// Starts a family: its `# HELP` and `# TYPE` lines.
    public mutating func family(_ name: String, help: String, type: MetricType) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    /// One sample line.
    public mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Double) {
        text += "\(name)\(Self.rendered(labels)) \(Self.format(value))\n"
    }

    /// One sample line with an integer value.
    public mutating func sample(_ name: String, labels: [(String, String)] = [], _ value: Int) {
        text += "\(name)\(Self.rendered(labels)) \(value)\n"
    }

    /// A histogram's lines: one cumulative `_bucket` per bound and `+Inf`, then `_sum` and `_count`.
    public mutating func histogram(_ name: String, labels: [(String, String)] = [], _ counts: HistogramCounts) {
        for (bound, count) in zip(counts.bounds, counts.cumulativeCounts) {
            sample(name + "_bucket", labels: labels + [("le", Self.format(bound))], count)
        }
        sample(name + "_bucket", labels: labels + [("le", "+Inf")], counts.count)
        sample(name + "_sum", labels: labels, counts.sum)
        sample(name + "_count", labels: labels, counts.count)
    }

    /// `{a="1",b="2"}`, label values escaped; empty for no labels.
    static func rendered(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// A value as Prometheus reads it: integers without a fraction, `NaN`, `+Inf`, `-Inf`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value with backslashes, double quotes and newlines escaped.
    static func escapeLabelValue(_ value: String) -> String { escape(value, quotes: true) }

    /// Help text with backslashes and newlines escaped.
    static func escapeHelp(_ help: String) -> String { escape(help, quotes: false) }

    private static func escape(_ text: String, quotes: Bool) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where quotes: escaped += "\\\""
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
