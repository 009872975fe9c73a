import BelayCore
import BelayHTTP
import BelayTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// Handlers whose work finishes on another thread: the connection is suspended meanwhile and
/// the response passes through the same middleware as an immediate one.
@Suite("Deferred responses")
struct DeferredResponseTests {
    /// A gate the test opens to let deferred work complete.
    final class Gate: Sendable {
        private let opened = DispatchSemaphore(value: 0)
        func open() { opened.signal() }
        func wait() { opened.wait() }
    }

    /// Blocking work runs on threads of its own: the dispatch pool grows only slowly when its
    /// threads block, which would delay the test's own steps by a second.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        Thread { body() }.start()
    }

    static func routes(_ router: Router<BasicRequestContext>, _ logger: Logger, metrics: MetricsRegistry? = nil, gate: Gate) {
        router.addStandardMiddleware(logger: logger, metrics: metrics)
        router.get("/fast") { _, _ in .text("fast") }
        router.get("/done-at-once") { _, _ in
            let deferred = DeferredResponse()
            deferred.complete { .text("at once") }
            return .deferred(deferred)
        }
        router.post("/slow/{n}") { request, context in
            let n = try context.parameters.require("n", as: Int.self)
            let body = String(decoding: request.body, as: UTF8.self)
            let deferred = DeferredResponse()
            Self.onNewThread {
                gate.wait()
                deferred.complete {
                    guard n >= 0 else { throw HTTPError.unprocessable(code: "negative", detail: "n must not be negative.") }
                    return Response.text("slow \(n): \(body)", status: .created)
                }
            }
            return .deferred(deferred)
        }
    }

    @Test("a suspended request holds no thread: a one-thread server answers others meanwhile, then the deferred answer")
    func suspendedRequestsHoldNoThread() throws {
        let gate = Gate()
        let test = try TestServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 1 }) { router, logger in
            Self.routes(router, logger, gate: gate)
        }
        let slow = Mutex<HTTPTestResponse?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let port = test.port
        Self.onNewThread {
            let response = try? HTTPTestClient.request(port: port, "POST", "/slow/7", body: Array("hello".utf8))
            slow.withLock { $0 = response }
            finished.signal()
        }
        // The slow request is suspended until the gate opens; the only thread still serves.
        for _ in 0..<3 {
            let fast = try test.request("GET", "/fast")
            #expect(fast.status == 200 && fast.text == "fast")
        }
        #expect(slow.withLock { $0 } == nil, "the deferred request waits for its work")
        gate.open()
        finished.wait()
        let response = try #require(slow.withLock { $0 })
        #expect(response.status == 201)
        #expect(response.text == "slow 7: hello")
        #expect(response.header("X-Request-Id") != nil, "the request id is added to the deferred answer too")
        let logged = test.log.entries.filter { $0.message.hasPrefix("POST /slow/{n} ") }
        #expect(logged.map(\.message) == ["POST /slow/{n} 201"], "the access log records the final status once")
    }

    @Test("an error thrown when the deferred work completes becomes a problem answer, logged and counted")
    func failuresAreMappedLikeImmediateOnes() throws {
        let gate = Gate()
        let metrics = MetricsRegistry()
        let test = try TestServer { router, logger in Self.routes(router, logger, metrics: metrics, gate: gate) }
        gate.open()
        let response = try test.request("POST", "/slow/-1", body: Array("x".utf8))
        #expect(response.status == 422)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.text.contains("\"code\":\"negative\"") || response.text.contains("\"code\" : \"negative\""))
        #expect(test.log.entries.contains { $0.message == "POST /slow/{n} 422" })
        #expect(metrics.prometheusText().contains(#"http_requests_total{method="POST",route="/slow/{n}",status="422"} 1"#))
    }

    @Test("work that completes before the handler returns is answered at once")
    func completedBeforeSuspending() throws {
        let test = try TestServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 1 }) { router, logger in
            Self.routes(router, logger, gate: Gate())
        }
        for _ in 0..<5 {
            let response = try test.request("GET", "/done-at-once")
            #expect(response.status == 200 && response.text == "at once")
        }
    }

    @Test("many deferred requests at once all get their own answers")
    func manyAtOnce() throws {
        let gate = Gate()
        let test = try TestServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 2 }) { router, logger in
            Self.routes(router, logger, gate: gate)
        }
        let count = 24
        let answers = Mutex<[Int: String]>([:])
        let group = DispatchGroup()
        let port = test.port
        for n in 0..<count {
            group.enter()
            Self.onNewThread {
                let response = try? HTTPTestClient.request(port: port, "POST", "/slow/\(n)", body: Array("\(n)".utf8))
                answers.withLock { $0[n] = response.map { "\($0.status) \($0.text)" } }
                group.leave()
            }
        }
        for _ in 0..<count { gate.open() }
        group.wait()
        let expected = Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, "201 slow \($0): \($0)") })
        #expect(answers.withLock { $0 } == expected)
    }

    @Test("in process, respondWaiting waits for the deferred answer and runs the middleware on it")
    func respondWaitingInProcess() throws {
        let gate = Gate()
        let log = CapturingLogSink()
        let logger = Logger(label: "http", minimumLevel: .debug, sink: log)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        Self.routes(router, logger, gate: gate)
        let responder = router.buildResponder()
        let placeholder = responder.respond(to: Request(method: .post, path: "/slow/1", body: Array("a".utf8)))
        #expect(placeholder.deferred != nil && placeholder.status == .accepted)
        gate.open()
        gate.open()
        _ = placeholder  // its work completes on its own; the next request is answered in full
        let response = responder.respondWaiting(to: Request(method: .post, path: "/slow/2", body: Array("b".utf8)))
        #expect(response.status == .created && response.body.bytes == Array("slow 2: b".utf8))
        #expect(response.deferred == nil)
    }

    /// Records what each request was answered, written as a newcomer would write it: it
    /// looks at what `next` answers and nothing more. Before middleware got a `ResponseFuture`,
    /// this shape saw the 202 placeholder of every deferred answer (every check-in) instead of
    /// its real status.
    struct StatusRecordingMiddleware: RouterMiddleware {
        final class Statuses: Sendable {
            let entries = Mutex<[String]>([])
        }
        let statuses = Statuses()

        func handle(_ request: Request, context: BasicRequestContext,
                    next: (Request, BasicRequestContext) -> ResponseFuture) throws -> ResponseFuture {
            let path = request.path
            return next(request, context).map { [statuses] outcome in
                let answer = switch outcome {
                case .success(let response): String(response.status.code)
                case .failure(let error): "error \((error as? HTTPError)?.code ?? "?")"
                }
                statuses.entries.withLock { $0.append("\(path) \(answer)") }
                return outcome
            }
        }
    }

    @Test("a middleware of the application's own sees the final outcome of deferred answers, never the placeholder")
    func customMiddlewareSeesDeferredOutcomes() throws {
        let gate = Gate()
        let recorder = StatusRecordingMiddleware()
        let test = try TestServer { router, logger in
            Self.routes(router, logger, gate: gate)
            router.add(middleware: recorder)
        }
        gate.open()
        #expect(try test.request("GET", "/fast").status == 200)
        #expect(try test.request("POST", "/slow/3", body: Array("x".utf8)).status == 201)
        #expect(try test.request("GET", "/done-at-once").status == 200)
        gate.open()
        #expect(try test.request("POST", "/slow/-1", body: Array("x".utf8)).status == 422)
        #expect(recorder.statuses.entries.withLock { $0 } == ["/fast 200", "/slow/3 201", "/done-at-once 200", "/slow/-1 error negative"])
    }

    @Test("stop() answers a request whose work outlasts the grace period 503 and returns; the late completion is ignored")
    func stopWithSuspendedConnection() throws {
        let gate = Gate()
        let entered = DispatchSemaphore(value: 0)
        let held = Mutex<DeferredResponse?>(nil)
        let workDone = DispatchSemaphore(value: 0)
        let log = CapturingLogSink()
        let logger = Logger(label: "http", minimumLevel: .debug, sink: log)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: logger)
        router.post("/write") { _, _ in
            let deferred = DeferredResponse()
            held.withLock { $0 = deferred }
            Self.onNewThread {
                // The writer is busy well past the grace period.
                gate.wait()
                deferred.complete { .text("committed", status: .created) }
                workDone.signal()
            }
            entered.signal()
            return .deferred(deferred)
        }
        let server = HTTPServer(settings: BuiltInSettings.server { $0.port = 0; $0.threads = 1 },
                                responder: router.buildResponder(), logger: logger)
        try server.start()
        let client = try HTTPTestClient(port: server.port)
        try client.send(HTTPTestClient.requestBytes("POST", "/write", headers: [("X-Request-Id", "late-1")], body: Array("{}".utf8)))
        entered.wait()

        // Before the fix libmicrohttpd aborted the process here (a connection still suspended).
        server.stop(gracePeriod: .milliseconds(200))
        #expect(!server.isRunning)
        let response = try client.readResponse()
        #expect(response.status == 503)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Retry-After") == "5")
        #expect(response.header("X-Request-Id") == "late-1")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(response.jsonObject?["code"] as? String == "shutting_down")
        #expect(log.entries.contains { $0.message == "POST /write 503" })

        // The work finishes later; its answer has nowhere to go and is dropped without harm.
        gate.open()
        workDone.wait()
        #expect(held.withLock { $0?.isAbandoned } == true)
    }
}
