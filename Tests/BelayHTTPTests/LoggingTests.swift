import BelayCore
import BelayHTTP
import BelayTestSupport
import Dispatch
import Foundation
import Testing

@Suite("Access log")
struct LoggingTests {
    @Test("one access line per request: method, route pattern, status, bytes, duration, request id")
    func accessLog() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        _ = try test.request("GET", "/v1/meetups/42", headers: [("X-Request-Id", "line-1")])
        _ = try test.request("GET", "/no/such \"path\"", headers: [("X-Request-Id", "line-2")])
        let lines = test.log.entries.filter { $0.metadata.contains { $0.key == "duration_ms" } }
        #expect(lines.count == 2)
        let first = try #require(lines.first)
        #expect(first.level == .info)
        #expect(first.message == "GET /v1/meetups/{id} 200")
        #expect(first.metadata.first { $0.key == "bytes" }?.value == "9")
        #expect(first.metadata.first { $0.key == "request_id" }?.value == "line-1")
        let duration = try #require(first.metadata.first { $0.key == "duration_ms" }?.value)
        #expect(duration.wholeMatch(of: /\d+\.\d{3}/) != nil)
        #expect(first.formattedLine.hasPrefix("info http: GET /v1/meetups/{id} 200 bytes=9 duration_ms="))
        // Unmatched paths are logged quoted, so a path cannot forge log fields.
        #expect(lines[1].message == #"GET "/no/such \"path\"" 404"#)
    }

    @Test("an unmatched path under a secret prefix is logged without the rest")
    func secretPathsMasked() throws {
        let test = try TestServer { router, logger in
            router.addStandardMiddleware(logger: logger, secretPathPrefixes: ["/v1/calendar/"])
            router.get("/v1/calendar/{token}.ics") { _, _ in .text("feed") }
        }
        _ = try test.request("GET", "/v1/calendar/SECRETTOKEN123.icsx")
        _ = try test.request("GET", "/v1/calendar/SECRETTOKEN123.ics")
        let lines = test.log.entries.filter { $0.metadata.contains { $0.key == "duration_ms" } }.map(\.formattedLine)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { !$0.contains("SECRETTOKEN") }, "\(lines)")
        #expect(lines.first?.contains("GET /v1/calendar/… 404") == true, "\(lines)")
        #expect(lines.last?.contains("GET /v1/calendar/{token}.ics 200") == true, "\(lines)")
    }

    @Test("control bytes in a request's method reach the log escaped, never as a line break or escape sequence")
    func controlBytesEscaped() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        try client.send([UInt8]("BR".utf8) + [0x1B, 0x7F, 0x01] + [UInt8]("EW /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        _ = try? client.readResponse()
        let line = try #require(test.log.entries.first { $0.metadata.contains { $0.key == "duration_ms" } })
        let formatted = line.formattedLine
        #expect(formatted.hasPrefix(#"info http: BR\u{1b}\u{7f}\u{1}EW /hello 405"#))
        #expect(!formatted.utf8.contains { $0 < 0x20 || $0 == 0x7F })
        let sink = CapturingLogSink()
        Logger(label: "http", sink: sink).info("GET /a 200\nerror http: forged")
        #expect(sink.entries.first?.formattedLine == #"info http: GET /a 200\nerror http: forged"#)
    }

    @Test("libmicrohttpd's line per dropped connection is logged at most 20 times a second")
    func diagnosticsAreRateLimited() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        // Each connection closed with half a request makes libmicrohttpd write a line.
        for _ in 0..<200 {
            let client = try test.client()
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Half")
            client.close()
        }
        #expect(try test.request("GET", "/hello").status == 200)
        let lines = test.log.entries.filter { $0.message.hasPrefix("libmicrohttpd: ") }
        #expect(!lines.isEmpty)
        #expect(lines.count < 100, "\(lines.count) libmicrohttpd lines for 200 dropped connections")
    }
}
