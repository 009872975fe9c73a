import BelayCore
import Testing

@Suite("Metrics registry")
struct MetricsRegistryTests {
    @Test("counters, gauges and histograms render as Prometheus text")
    func prometheusText() {
        let registry = MetricsRegistry()
        let created = registry.counter("belay_check_ins_total", help: "Check-ins recorded.", labels: ["result": "created"])
        created.increment()
        created.increment(by: 2)
        #expect(registry.counter("belay_check_ins_total", help: "Check-ins recorded.", labels: ["result": "created"]) === created)
        registry.counter("belay_check_ins_total", help: "Check-ins recorded.", labels: ["result": "refused"]).increment()
        let depth = registry.gauge("belay_render_queue_depth", help: "Render jobs waiting.")
        depth.set(4)
        depth.add(-1.5)
        registry.gauge("belay_uptime_seconds", help: "Seconds since start.", collect: { 12 })
        let latency = registry.histogram("belay_render_seconds", help: "Render time.", labels: ["template": "hold-sticker"], buckets: [0.1, 1])
        latency.observe(0.05)
        latency.observe(0.5)
        latency.observe(3)
        registry.counter("escaped_total", help: "Line\nbreak", labels: ["value": "a\"b\\c\nd"]).increment()

        let text = registry.prometheusText()
        let expected = """
        # HELP belay_check_ins_total Check-ins recorded.
        # TYPE belay_check_ins_total counter
        belay_check_ins_total{result="created"} 3
        belay_check_ins_total{result="refused"} 1
        # HELP belay_render_queue_depth Render jobs waiting.
        # TYPE belay_render_queue_depth gauge
        belay_render_queue_depth 2.5
        # HELP belay_uptime_seconds Seconds since start.
        # TYPE belay_uptime_seconds gauge
        belay_uptime_seconds 12
        # HELP belay_render_seconds Render time.
        # TYPE belay_render_seconds histogram
        belay_render_seconds_bucket{template="hold-sticker",le="0.1"} 1
        belay_render_seconds_bucket{template="hold-sticker",le="1"} 2
        belay_render_seconds_bucket{template="hold-sticker",le="+Inf"} 3
        belay_render_seconds_sum{template="hold-sticker"} 3.55
        belay_render_seconds_count{template="hold-sticker"} 3
        # HELP escaped_total Line\\nbreak
        # TYPE escaped_total counter
        escaped_total{value="a\\"b\\\\c\\nd"} 1

        """
        #expect(text == expected)
    }

    @Test("a family keeps at most its limit of series; further label sets work but are not exported, and are counted")
    func boundedFamilies() {
        let registry = MetricsRegistry(maxSeriesPerFamily: 3)
        for index in 0..<5 {
            registry.counter("things_total", help: "Things.", labels: ["id": String(index)]).increment()
        }
        // An existing series is still found, and the refused ones still count for their holder.
        let first = registry.counter("things_total", help: "Things.", labels: ["id": "0"])
        #expect(first.value == 1)
        let refused = registry.counter("things_total", help: "Things.", labels: ["id": "4"])
        refused.increment()
        #expect(refused.value == 1)
        let text = registry.prometheusText()
        #expect(text.contains(#"things_total{id="2"} 1"#))
        #expect(!text.contains(#"things_total{id="3"}"#))
        #expect(!text.contains(#"things_total{id="4"}"#))
        #expect(text.contains("metrics_series_dropped_total 3"))
    }

    @Test("histogram counts add up across threads' copies and render through the one writer")
    func summedHistograms() {
        var first = HistogramCounts(bounds: [1, 0.1])
        first.observe(0.05)
        first.observe(20)
        var second = HistogramCounts(bounds: [0.1, 1])
        second.observe(0.5)
        let total = HistogramCounts(summing: [first, second], bounds: [0.1, 1])
        #expect(total.cumulativeCounts == [1, 2])
        #expect(total.count == 3)
        #expect(total.sum == 20.55)
        var writer = PrometheusTextWriter()
        writer.family("job_seconds", help: "Seconds per job.", type: .histogram)
        writer.histogram("job_seconds", labels: [("pool", "render")], total)
        #expect(writer.text == """
            # HELP job_seconds Seconds per job.
            # TYPE job_seconds histogram
            job_seconds_bucket{pool="render",le="0.1"} 1
            job_seconds_bucket{pool="render",le="1"} 2
            job_seconds_bucket{pool="render",le="+Inf"} 3
            job_seconds_sum{pool="render"} 20.55
            job_seconds_count{pool="render"} 3

            """)
    }
}
