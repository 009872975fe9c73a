import BelayCore
import BelayHTTP
import Foundation
import Testing

@Suite("Metrics middleware")
struct MetricsTests {
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
}
