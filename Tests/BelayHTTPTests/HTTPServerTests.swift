import BelayCore
import BelayHTTP
import BelayTestSupport
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("HTTPServer over libmicrohttpd")
struct HTTPServerTests {
    @Test("binds a free loopback port when asked for port 0 and answers a request")
    func bindsFreePort() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        #expect(test.port > 0)
        #expect(test.server.isRunning)
        let response = try test.request("GET", "/hello")
        #expect(response.status == 200)
        #expect(response.text == "hello")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("Content-Length") == "5")
    }

    @Test("a second server on the same port fails with a message naming the port")
    func portInUse() throws {
        let first = try TestServer { router, logger in standardRoutes(router, logger) }
        let second = HTTPServer(settings: BuiltInSettings.server { $0.port = first.port; $0.threads = 1 },
                                responder: ClosureResponder { _ in Response() }, logger: .disabled())
        let error = #expect(throws: HTTPServerError.self) { try second.start() }
        #expect(error?.description.contains("port \(first.port)") == true)
        #expect(!second.isRunning)
    }

    @Test("invalid settings are refused before binding, naming the setting")
    func invalidSettings() throws {
        let server = HTTPServer(settings: BuiltInSettings.server { $0.port = 70000 }, responder: ClosureResponder { _ in Response() }, logger: .disabled())
        let error = #expect(throws: HTTPServerError.self) { try server.start() }
        #expect(error?.description.contains("`port`") == true)
        let badHost = HTTPServer(settings: BuiltInSettings.server { $0.host = "no-such-host.invalid"; $0.port = 0 }, responder: ClosureResponder { _ in Response() }, logger: .disabled())
        let hostError = #expect(throws: HTTPServerError.self) { try badHost.start() }
        #expect(hostError?.description.contains("no-such-host.invalid") == true)
    }

    @Test("request fields reach the responder: method, decoded path, query, headers, body, remote address")
    func requestFields() throws {
        let seen = Mutex<Request?>(nil)
        let server = HTTPServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 1 }, responder: ClosureResponder { request in
            seen.withLock { $0 = request }
            return Response(status: .created)
        }, logger: .disabled())
        try server.start()
        defer { server.stop() }
        let response = try HTTPTestClient.request(port: server.port, "PUT", "/a%20b/c?x=1&flag&y=%C3%A9",
                                                  headers: [("X-Custom", "Value")], body: Array("payload".utf8))
        #expect(response.status == 201)
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == .put)
        #expect(request.path == "/a b/c")
        #expect(request.query("x") == "1")
        #expect(request.query("flag") == "")
        #expect(request.query("y") == "é")
        #expect(request.query("missing") == nil)
        #expect(request.headers["x-custom"] == "Value")
        #expect(request.headers["X-CUSTOM"] == "Value")
        #expect(request.body == Array("payload".utf8))
        #expect(request.remoteAddress == "127.0.0.1")
    }

    @Test("binary and invalid UTF-8 bodies arrive byte for byte")
    func binaryBody() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let body: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x80, 0x41] + (0..<255).map { UInt8($0) }
        let response = try test.request("POST", "/echo", body: body)
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test("a body sent in many chunks (chunked transfer encoding) is reassembled")
    func chunkedBody() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        var raw = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        var expected = ""
        for index in 0..<20 {
            let piece = "piece-\(index);"
            expected += piece
            raw += String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n"
        }
        raw += "0\r\n\r\n"
        try client.send(raw)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == expected)
    }

    @Test("a declared body over the limit is answered 413 problem+json without being sent")
    func oversizedBody() throws {
        let settings = BuiltInSettings.server { $0.port = 0; $0.threads = 1; $0.maxBodyBytes = 1024 }
        let test = try TestServer(settings: settings) { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        // Only the head is sent: the server must answer without waiting for the 10 MB.
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\nX-Request-Id: big-1\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("X-Request-Id") == "big-1")
        let problem = try #require(response.jsonObject)
        #expect(problem["code"] as? String == "body_too_large")
        #expect(problem["limit_bytes"] as? Int == 1024)
        // The server keeps serving.
        #expect(try test.request("GET", "/hello").status == 200)
        // A body at the limit is fine.
        #expect(try test.request("POST", "/echo", body: [UInt8](repeating: 7, count: 1024)).status == 200)
    }

    @Test("keep-alive: many requests on one connection, including pipelined ones")
    func keepAliveAndPipelining() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        for index in 1...20 {
            let response = try client.request("GET", "/v1/meetups/\(index)")
            #expect(response.status == 200)
            #expect(response.jsonObject?["id"] as? Int == index)
            #expect(response.header("Connection")?.lowercased() != "close")
        }
        // Three requests written at once; the answers come back in order.
        try client.send(HTTPTestClient.requestBytes("GET", "/v1/meetups/101")
            + HTTPTestClient.requestBytes("POST", "/echo", body: Array("two".utf8))
            + HTTPTestClient.requestBytes("GET", "/v1/meetups/103"))
        #expect(try client.readResponse().jsonObject?["id"] as? Int == 101)
        #expect(try client.readResponse().text == "two")
        #expect(try client.readResponse().jsonObject?["id"] as? Int == 103)
    }

    @Test("with keep-alive off every response closes its connection")
    func keepAliveOff() throws {
        let settings = BuiltInSettings.server { $0.port = 0; $0.threads = 1; $0.keepAlive = false }
        let test = try TestServer(settings: settings) { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        let response = try client.request("GET", "/hello")
        #expect(response.status == 200)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(client.isClosedByPeer())
    }

    @Test("malformed request lines get a 4xx from the server, which keeps serving")
    func malformedRequests() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        for garbage in ["GARBAGE\r\n\r\n", "GET /hello HTTP/9.9\r\nHost: x\r\n\r\n", "GET /hello HTTP/1.1\r\nBad Header Line\r\n\r\n",
                        "\u{1}\u{2}\u{3}\r\n\r\n", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"] {
            let client = try test.client()
            try client.send(garbage)
            if let response = try? client.readResponse() {
                #expect((400..<600).contains(response.status), "\(garbage.debugDescription) got \(response.status)")
            }
        }
        // Invalid UTF-8 in the path and headers reaches the router as replacement characters.
        let client = try test.client()
        try client.send([UInt8]("GET /v1/meetups/".utf8) + [0xFF, 0xFE] + [UInt8](" HTTP/1.1\r\nHost: x\r\nX-Bad: ".utf8) + [0xC3, 0x28] + [UInt8]("\r\n\r\n".utf8))
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.jsonObject?["code"] as? String == "invalid_path_parameter")
        #expect(try test.request("GET", "/hello").status == 200)
    }

    @Test("HEAD is answered by the GET route without a body")
    func headRequest() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let client = try test.client()
        let head = try client.request("HEAD", "/hello")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "5")
        #expect(head.body.isEmpty)
        // The connection is still in step: the next response is complete and correct.
        #expect(try client.request("GET", "/hello").text == "hello")
    }

    @Test("a file body is served from disk, whole or as a range")
    func fileBody() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sticker.bin")
        let bytes = (0..<100_000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let test = try TestServer { router, logger in
            standardRoutes(router, logger)
            router.get("/file") { _, _ in
                Response(headers: ["Content-Type": "application/octet-stream"], body: ResponseBody(file: try FileRegion(path: path)))
            }
            router.get("/file-range") { _, _ in
                Response(body: ResponseBody(file: try FileRegion(path: path, offset: 10, length: 20)))
            }
            router.get("/missing-file") { _, _ in
                Response(body: ResponseBody(file: try FileRegion(path: directory.file("nope.png"))))
            }
        }
        let client = try test.client()
        let whole = try client.request("GET", "/file")
        #expect(whole.status == 200)
        #expect(whole.body == bytes)
        #expect(try client.request("GET", "/file-range").body == Array(bytes[10..<30]))
        let missing = try client.request("GET", "/missing-file")
        #expect(missing.status == 404)
        #expect(missing.jsonObject?["code"] as? String == "not_found")
    }

    @Test("answers correctly under concurrent load from many threads")
    func concurrency() throws {
        let test = try TestServer { router, logger in standardRoutes(router, logger) }
        let failures = Mutex<[String]>([])
        let port = test.port
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            do {
                let client = try HTTPTestClient(port: port)
                for index in 0..<50 {
                    let id = worker * 1000 + index
                    let response = try client.request("GET", "/v1/meetups/\(id)")
                    if response.status != 200 || response.jsonObject?["id"] as? Int != id {
                        failures.withLock { $0.append("worker \(worker) request \(index): \(response.status) \(response.text)") }
                    }
                    let echoed = try client.request("POST", "/echo", body: Array("w\(worker)-\(index)".utf8))
                    if echoed.text != "w\(worker)-\(index)" {
                        failures.withLock { $0.append("worker \(worker) echo \(index): \(echoed.text)") }
                    }
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let logged = test.log.entries.filter { $0.message.hasPrefix("GET /v1/meetups/{id} 200") }
        #expect(logged.count == 400)
    }

    @Test("stop() stops accepting, finishes the request in flight, then returns")
    func gracefulStop() throws {
        let slow = try SlowServer(host: "127.0.0.1")
        let server = slow.server, port = server.port
        let client = try HTTPTestClient(port: port)
        try client.send(HTTPTestClient.requestBytes("GET", "/slow"))
        slow.handlerEntered.wait()

        let stopped = slow.stopInBackground()
        slow.draining.wait()
        // No longer accepting, but not finished either.
        #expect(throws: HTTPTestClientError.self) { try HTTPTestClient(port: port) }
        #expect(stopped.wait(timeout: .now()) == .timedOut)

        slow.releaseHandler.signal()
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "finished")
        #expect(response.header("Connection")?.lowercased() == "close")
        stopped.wait()
        #expect(!server.isRunning)
        #expect(server.port == 0)
    }

    /// Connects to `[::1]:port` and sends `request`; the socket, or the connect's errno.
    private static func connectIPv6(port: Int, sending request: [UInt8]? = nil) -> Result<Int32, POSIXError> {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withIPv6Loopback(port: port) { connect(socket, $0, $1) }
        guard connected == 0 else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            close(socket)
            return .failure(failure)
        }
        if let request { _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) } }
        return .success(socket)
    }

    /// Whether this machine can listen on `::1`.
    static let hasIPv6Loopback: Bool = {
        let socket = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        return withIPv6Loopback(port: 0) { bind(socket, $0, $1) } == 0
    }()

    /// Calls `body` with the address `[::1]:port` and its length.
    private static func withIPv6Loopback(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
    }

    @Test("stop() on an IPv6 address refuses new connections while the request in flight finishes",
          .enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback"))
    func gracefulStopOnIPv6() throws {
        let slow = try SlowServer(host: "::1")
        let port = slow.server.port
        let inFlight = try Self.connectIPv6(port: port, sending: HTTPTestClient.requestBytes("GET", "/slow")).get()
        defer { close(inFlight) }
        #expect(slow.handlerEntered.wait(timeout: .now() + 10) == .success)
        let stopped = slow.stopInBackground()
        #expect(slow.draining.wait(timeout: .now() + 10) == .success)
        switch Self.connectIPv6(port: port) {
        case let .success(socket):
            close(socket)
            Issue.record("a connection was accepted while the server drained")
        case let .failure(error):
            #expect(error.code == .ECONNREFUSED)
        }
        slow.releaseHandler.signal()
        #expect(stopped.wait(timeout: .now() + 30) == .success)
        #expect(!slow.log.entries.contains { $0.message.contains("could not stop listening") })
    }

    @Test("a stopped server can be started again")
    func restart() throws {
        let server = HTTPServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 1 },
                                responder: ClosureResponder { _ in .text("up") }, logger: .disabled())
        try server.start()
        #expect(throws: HTTPServerError.self) { try server.start() }
        server.stop()
        try server.start()
        defer { server.stop() }
        #expect(try HTTPTestClient.request(port: server.port, "GET", "/").text == "up")
    }
}

/// A started server whose `GET /slow` waits for `releaseHandler`, for the graceful-stop tests:
/// it says when the handler is entered and when the server logs that it is draining.
private struct SlowServer {
    let server: HTTPServer
    let handlerEntered = DispatchSemaphore(value: 0)
    let releaseHandler = DispatchSemaphore(value: 0)
    let draining = DispatchSemaphore(value: 0)
    /// Everything the server logged.
    let log = CapturingLogSink()

    init(host: String) throws {
        let (entered, release, draining, log) = (handlerEntered, releaseHandler, draining, log)
        let sink = ObservingLogSink { entry in
            log.write(entry)
            if entry.message.hasPrefix("stopping") { draining.signal() }
        }
        let logger = Logger(label: "http", sink: sink)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: logger)
        router.get("/slow") { _, _ in
            entered.signal()
            release.wait()
            return .text("finished")
        }
        server = HTTPServer(settings: BuiltInSettings.server { $0.host = host; $0.port = 0; $0.threads = 2 }, responder: router.buildResponder(), logger: logger)
        try server.start()
    }

    /// Stops the server (30 s grace) on another thread; the semaphore is signalled when it returns.
    func stopInBackground() -> DispatchSemaphore {
        let stopped = DispatchSemaphore(value: 0)
        let server = server
        DispatchQueue.global().async {
            server.stop(gracePeriod: .seconds(30))
            stopped.signal()
        }
        return stopped
    }
}
