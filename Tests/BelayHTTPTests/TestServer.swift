import BelayCore
import BelayHTTP
import BelayTestSupport
import Foundation
import Synchronization

/// A live server on a free loopback port running `router`, with its log captured.
final class TestServer {
    let server: HTTPServer
    let log: CapturingLogSink
    let logger: Logger

    var port: Int { server.port }

    init(settings: ServerSettings = BuiltInSettings.server { $0.port = 0; $0.threads = 2 },
         log: CapturingLogSink = CapturingLogSink(),
         configure: (Router<BasicRequestContext>, Logger) -> Void) throws {
        self.log = log
        logger = Logger(label: "http", minimumLevel: .debug, sink: log)
        let router = Router(context: BasicRequestContext.self, logger: logger)
        configure(router, logger)
        server = HTTPServer(settings: settings, responder: router.buildResponder(), logger: logger)
        try server.start()
    }

    func client() throws -> HTTPTestClient { try HTTPTestClient(port: port) }

    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> HTTPTestResponse {
        try HTTPTestClient.request(port: port, method, path, headers: headers, body: body)
    }

    deinit { server.stop(gracePeriod: .seconds(1)) }
}

/// A log sink that calls back on every entry, for waiting on an event without sleeping.
final class ObservingLogSink: LogSink {
    let observe: @Sendable (LogEntry) -> Void
    init(_ observe: @escaping @Sendable (LogEntry) -> Void) { self.observe = observe }
    func write(_ entry: LogEntry) { observe(entry) }
}

/// Sets up the standard middleware plus a few routes used across tests.
func standardRoutes(_ router: Router<BasicRequestContext>, _ logger: Logger, metrics: MetricsRegistry? = nil) {
    router.addStandardMiddleware(logger: logger, metrics: metrics)
    router.get("/hello") { _, _ in .text("hello") }
    router.get("/v1/meetups/{id}") { _, context in
        let id = try context.parameters.require("id", as: Int64.self)
        return .json(["id": .int(id)])
    }
    router.post("/echo") { request, _ in
        Response(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: ResponseBody(bytes: request.body))
    }
}
