import BelayCore
import BelayHTTP
import Foundation
import Testing

@Suite("Metrics")
struct MetricsTests {
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

    @Test("the middleware counts requests by method, route and status and times them by route")
    func middleware() throws {
        let registry = MetricsRegistry()
        let test = try TestServer { router, logger in standardRoutes(router, logger, metrics: registry) }
        let client = try test.client()
        for id in 1...3 { _ = try client.request("GET", "/v1/meetups/\(id)") }
        _ = try client.request("GET", "/v1/meetups/x")
        _ = try client.request("GET", "/random/\(UUID())")
        _ = try client.request("GET", "/random/\(UUID())")

        let text = registry.prometheusText()
        #expect(text.contains(#"http_requests_total{method="GET",route="/v1/meetups/{id}",status="200"} 3"#))
        #expect(text.contains(#"http_requests_total{method="GET",route="/v1/meetups/{id}",status="400"} 1"#))
        #expect(text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 2"#))
        #expect(text.contains(#"http_request_duration_seconds_count{route="/v1/meetups/{id}"} 4"#))
        #expect(!text.contains("/random/"))

        let scrape = Response.metrics(registry)
        #expect(scrape.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
    }

    @Test("unknown methods count as one label value, `other`, however many distinct ones arrive")
    func unknownMethods() throws {
        let registry = MetricsRegistry()
        let test = try TestServer { router, logger in standardRoutes(router, logger, metrics: registry) }
        let client = try test.client()
        for index in 0..<40 {
            let response = try client.request("M\(index)\(String(repeating: "X", count: 200))", "/hello")
            #expect(response.status == 405)
        }
        _ = try client.request("DELETE", "/hello")
        let text = registry.prometheusText()
        #expect(text.contains(#"http_requests_total{method="other",route="/hello",status="405"} 40"#))
        #expect(text.contains(#"http_requests_total{method="DELETE",route="/hello",status="405"} 1"#))
        #expect(!text.contains("XXXX"))
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
}
