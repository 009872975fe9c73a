import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// Requests whose framing a proxy in front could read differently from the server: each is
/// refused with a problem and its connection closed, so nothing after it is read as a request.
@Suite("Request framing")
struct RequestFramingTests {
    /// A server whose one route answers the Authorization value it was given.
    private func authorizationEcho() throws -> TestServer {
        try TestServer { router, logger in
            standardRoutes(router, logger)
            router.get("/authorization") { request, _ in .text(request.headers["Authorization"] ?? "(none)") }
        }
    }

    @Test("a NUL in the Authorization value is refused 401, not read as the value before it",
          arguments: ["Bearer belay_token\u{0}junk", "Bearer belay_token\u{0}", "Bearer \u{0}belay_token", "\u{0}"])
    func nulInAHeaderValue(value: String) throws {
        let test = try authorizationEcho()
        for (lineEnd, lastField) in [("\r\n", false), ("\r\n", true), ("\n", false)] {
            let client = try test.client()
            let authorization = "Authorization: \(value)\(lineEnd)"
            try client.send("GET /authorization HTTP/1.1\(lineEnd)Host: x\(lineEnd)"
                + (lastField ? authorization : authorization + "Accept: */*\(lineEnd)") + lineEnd)
            let response = try client.readResponse()
            if value.hasSuffix("\u{0}") && lineEnd == "\n" && !lastField {
                // Right before a bare LF a NUL leaves no trace in what libmicrohttpd keeps; the
                // value read is exactly the bytes before it, the NUL alone is dropped.
                #expect(response.status == 401 || response.text == String(value.dropLast()))
                continue
            }
            #expect(response.status == 401, "\(value.debugDescription) \(lineEnd.debugDescription) last=\(lastField): \(response.text)")
            #expect(response.jsonObject?["code"] as? String == "invalid_authorization")
            #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        }
        // In any other field: 400.
        let other = try test.client()
        try other.send("GET /authorization HTTP/1.1\r\nHost: x\r\nAccept: \(value)\r\nAuthorization: Bearer fine\r\n\r\n")
        let refused = try other.readResponse()
        #expect(refused.status == 400 && refused.jsonObject?["code"] as? String == "invalid_header_value", "\(refused.text)")
    }

    @Test("whole header lines read as they were sent, however they end and however slowly they come")
    func wholeHeaderLines() throws {
        let test = try authorizationEcho()
        for request in ["GET /authorization HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a b  \r\nX-Empty:\r\n\r\n",
                        "GET /authorization HTTP/1.1\nHost: x\nAuthorization:Bearer a b  \n\n",
                        "GET /authorization HTTP/1.1\r\nHost: x\nAuthorization: Bearer a b  \r\n\n",
                        "GET /authorization HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: 6_000))\r\nAuthorization: Bearer a b  \r\n\r\n"] {
            let client = try test.client()
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == 200 && response.text.hasPrefix("Bearer a b"), "\(request.prefix(80).debugDescription): \(response.text)")
        }
        // A byte at a time: libmicrohttpd reads the section in many pieces.
        let slow = try test.client()
        for byte in "GET /authorization HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer slow\r\n\r\n".utf8 {
            try slow.send([byte])
            Thread.sleep(forTimeInterval: 0.0002)
        }
        let answer = try slow.readResponse()
        #expect(answer.status == 200 && answer.text == "Bearer slow", "\(answer.text)")
        // A field folded over two lines (obs-fold) is refused, as RFC 9112 §5.2 allows.
        let folded = try test.client()
        try folded.send("GET /authorization HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\r\n token\r\n\r\n")
        #expect(try folded.readResponse().status == 400)
    }

    @Test("two different Content-Length fields are refused 400 and the connection closed")
    func conflictingContentLength() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        // Read with the first length, the rest would be a second request: GET /hello.
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 40\r\n\r\n"
            + "helloGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.jsonObject?["code"] as? String == "conflicting_content_length")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(client.isClosedByPeer(), "nothing after the refused request may be answered")
        #expect(!test.log.entries.contains { $0.message.hasPrefix("GET /hello") })
        // Repeating the same length is harmless and accepted.
        let same = try test.client()
        try same.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
        #expect(try same.readResponse().text == "hello")
    }

    @Test("Content-Length together with Transfer-Encoding is refused 400 and the connection closed")
    func lengthAndChunked() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.jsonObject?["code"] as? String == "conflicting_framing")
        #expect(client.isClosedByPeer())
    }

    @Test("HTTP/1.1 without Host, or with two, is refused 400; HTTP/1.0 without Host is served")
    func hostRequired() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let missing = try test.client()
        try missing.send("GET /hello HTTP/1.1\r\n\r\n")
        let response = try missing.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.jsonObject?["code"] as? String == "missing_host")
        #expect(missing.isClosedByPeer())

        let twice = try test.client()
        try twice.send("GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(try twice.readResponse().jsonObject?["code"] as? String == "duplicate_host")

        let old = try test.client()
        try old.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().text == "hello")
    }

    @Test("%00 in the path or the query is refused 400 invalid_request_target, not read as a shorter path or value",
          arguments: ["/hello%00.png", "/v1/meetups/1%00xyz", "/search?q=climb%00ing", "/search?q%00=1", "/search?q=%2500%%00"])
    func encodedNulInTarget(target: String) throws {
        let test = try TestServer { router, logger in
            standardRoutes(router, logger)
            router.get("/search", query: ["q"]) { request, _ in .text("q=\(request.query("q") ?? "")") }
        }
        let client = try test.client()
        try client.send("GET \(target) HTTP/1.1\r\nHost: x\r\nX-Request-Id: nul-1\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("X-Request-Id") == "nul-1")
        #expect(response.jsonObject?["code"] as? String == "invalid_request_target")
        #expect(client.isClosedByPeer())
        // An encoded percent sign followed by 00 is no NUL, and lower-case escapes still decode.
        #expect(try test.request("GET", "/search?q=%2500").text == "q=%00")
        #expect(try test.request("GET", "/search?q=%e2%9c%93").text == "q=✓")
        #expect(try test.request("GET", "/v1/meetups/1").status == 200)
    }

    @Test("whitespace between a header field name and its colon is refused 400, so Transfer-Encoding : chunked is no hidden body",
          arguments: ["Transfer-Encoding : chunked", "Transfer-Encoding\t: chunked", "X-Note : hello"])
    func whitespaceBeforeColon(field: String) throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        // Read as a body-less POST, the chunked body would be a second request: GET /hello.
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.jsonObject?["code"] as? String == "invalid_header_name")
        #expect(client.isClosedByPeer(), "nothing after the refused request may be answered")
        #expect(!test.log.entries.contains { $0.message.hasPrefix("GET /hello") })
    }

    @Test("a chunked body over the limit is answered 413 problem+json like a declared one")
    func oversizedChunkedBody() throws {
        let settings = BuiltInSettings.server { $0.port = 0; $0.threads = 1; $0.maxBodyBytes = 100 }
        let test = try TestServer(settings: settings) { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        let chunk = String(repeating: "x", count: 80)
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-Request-Id: chunky-1\r\n\r\n"
            + "50\r\n\(chunk)\r\n50\r\n\(chunk)\r\n0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("X-Request-Id") == "chunky-1")
        let problem = try #require(response.jsonObject)
        #expect(problem["code"] as? String == "body_too_large")
        #expect(problem["limit_bytes"] as? Int == 100)
        #expect(response.header("Connection")?.lowercased() == "close")
        // The server keeps serving, and a chunked body at the limit is fine.
        #expect(try test.request("GET", "/hello").status == 200)
        let fits = try test.client()
        try fits.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n50\r\n\(chunk)\r\n14\r\n\(String(repeating: "y", count: 20))\r\n0\r\n\r\n")
        #expect(try fits.readResponse().body.count == 100)
    }

    @Test("an over-long request target or header section is answered 414/431 problem+json")
    func overLongHeads() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let long = try test.client()
        try long.send("GET /hello?q=\(String(repeating: "a", count: 5000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        let target = try long.readResponse()
        #expect(target.status == 414)
        #expect(target.header("Content-Type") == "application/problem+json")
        #expect(target.jsonObject?["code"] as? String == "uri_too_long")
        #expect(target.jsonObject?["limit_bytes"] as? Int == 4096)

        let big = try test.client()
        try big.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 7000))\r\n\r\n")
        let headers = try big.readResponse()
        #expect(headers.status == 431)
        #expect(headers.header("Content-Type") == "application/problem+json")
        #expect(headers.jsonObject?["code"] as? String == "headers_too_large")
        #expect(big.isClosedByPeer())
        #expect(try test.request("GET", "/hello").status == 200)
    }

    @Test("a head too large for the connection's memory is refused by libmicrohttpd itself, as the README says")
    func headsBeyondConnectionMemory() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let long = try test.client()
        try long.send("GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n")
        let target = try long.readResponse()
        #expect(target.status == 414)
        #expect(target.header("Content-Type") == nil, "libmicrohttpd's own answer is an HTML page without a Content-Type")
        let big = try test.client()
        try big.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n")
        #expect(try big.readResponse().status == 431)
    }

    @Test("a negative or huge Content-Length is refused before any handler runs, and the connection closed")
    func malformedContentLength() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        for (length, status) in [("-5", 400), ("100000000000000000000000", 413)] {
            let client = try test.client()
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == status)
            // libmicrohttpd 0.9.75 answers these itself and writes its response head twice
            // (fixed in libmicrohttpd 1.0); Belay's handler never sees the request.
            withKnownIssue("libmicrohttpd 0.9.75 sends its own error response head twice") {
                #expect(client.isClosedByPeer(), "nothing follows the one response")
            }
        }
        #expect(!test.log.entries.contains { $0.message.hasPrefix("POST /echo") })
        #expect(try test.request("GET", "/hello").status == 200)
    }
}
