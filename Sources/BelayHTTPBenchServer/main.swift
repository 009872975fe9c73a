// A minimal server on BelayHTTP for `bench/http`: the same server, router and standard
// middleware the API uses, with routes that stand in for the API's until it exists.
//
//   belay-http-bench [--host 127.0.0.1] [--port 0] [--threads 0] [--access-log PATH|none]
//
// Prints `listening on PORT` once it accepts connections; stops cleanly on SIGTERM/SIGINT.
import BelayHTTP
import Foundation

BenchServer.main(arguments: Array(CommandLine.arguments.dropFirst()))

/// The server's setup, outside `main.swift`'s main-actor code: handlers run on server threads.
enum BenchServer {
    struct Meetup: Encodable {
        let id: Int64
        let title: String
        let place: String
        let startsAt: OffsetDateTime
        let endsAt: OffsetDateTime
        let capacity: Int
        let going: Int
        let waitlisted: Int
        let status: String
        let hostID: Int64

        enum CodingKeys: String, CodingKey {
            case id, title, place, capacity, going, waitlisted, status
            case startsAt = "starts_at"
            case endsAt = "ends_at"
            case hostID = "host_id"
        }
    }

    nonisolated static func main(arguments: [String]) {
        var settings = ServerSettings(host: "127.0.0.1", port: 0)
        var accessLogPath = "none"
        var remaining = arguments[...]
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { fail("\(flag) needs a value") }
            switch flag {
            case "--host": settings.host = value
            case "--port": settings.port = Int(value) ?? -1
            case "--threads": settings.threads = Int(value) ?? -1
            case "--access-log": accessLogPath = value
            case "--connection-memory": settings.connectionMemoryBytes = Int(value) ?? -1
            default: fail("unknown option \(flag)")
            }
        }

        let logger = Logger(label: "http", sink: StandardErrorLogSink())
        let accessLogger: Logger
        if accessLogPath == "none" {
            accessLogger = .disabled(label: "http")
        } else {
            do {
                accessLogger = Logger(label: "http", sink: try BufferedLogSink(path: accessLogPath))
            } catch {
                fail("\(error)")
            }
        }

        let metrics = MetricsRegistry()
        let router = Router(context: BasicRequestContext.self, logger: logger)
        router.addStandardMiddleware(logger: accessLogger, metrics: metrics)
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        let start = Date(timeIntervalSince1970: 1_795_946_400)
        router.get("/v1/demo/meetups/{id}") { _, context in
            let id = try context.parameters.require("id", as: Int64.self)
            return try .json(Meetup(
                id: id, title: "Thursday bouldering night", place: "The Crag Seongsu",
                startsAt: OffsetDateTime(date: start, timeZone: seoul),
                endsAt: OffsetDateTime(date: start.addingTimeInterval(10_800), timeZone: seoul),
                capacity: 24, going: 18, waitlisted: 0, status: "scheduled", hostID: 7))
        }
        let fixed = Array(#"{"status":"ok"}"#.utf8)
        router.get("/healthz") { _, _ in
            Response(headers: ["Content-Type": "application/json"], body: ResponseBody(bytes: fixed))
        }
        router.get("/metrics") { _, _ in .metrics(metrics) }

        let server = HTTPServer(settings: settings, responder: router.buildResponder(), logger: logger)
        do {
            try server.start()
        } catch {
            fail("\(error)")
        }
        FileHandle.standardOutput.write(Data("listening on \(server.port)\n".utf8))
        ShutdownSignals.wait()
        server.stop()
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("belay-http-bench: \(message)\n".utf8))
        exit(64)
    }
}
