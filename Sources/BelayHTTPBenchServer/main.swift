// A minimal server on BelayHTTP for `bench/http`: the same server, router, standard
// middleware and JSON writer (`JSONOutput`) the API uses, without a database, so the HTTP
// layer can be compared with nginx.
//
//   belay-http-bench [--host 127.0.0.1] [--port 0] [--threads 0] [--access-log PATH|none]
//
// Prints `listening on PORT` once it accepts connections; stops cleanly on SIGTERM/SIGINT.
import BelayCore
import BelayHTTP
import Foundation

BenchServer.main(arguments: Array(CommandLine.arguments.dropFirst()))

/// The server's setup, outside `main.swift`'s main-actor code: handlers run on server threads.
enum BenchServer {
    /// A meetup-sized body, written member by member as the API's bodies are.
    struct Meetup: JSONRepresentable {
        let id: Int64
        let title: String
        let place: String
        let startsAt: Date
        let endsAt: Date
        let utcOffsetSeconds: Int
        let capacity: Int
        let going: Int
        let waitlisted: Int
        let status: String
        let hostID: Int64

        func write(to json: inout JSONOutput) {
            json.object { json in
                json.member("id", id)
                json.member("title", title)
                json.member("place", place)
                json.member("starts_at", RFC3339.string(from: startsAt, utcOffsetSeconds: utcOffsetSeconds))
                json.member("ends_at", RFC3339.string(from: endsAt, utcOffsetSeconds: utcOffsetSeconds))
                json.member("capacity", capacity)
                json.member("going", going)
                json.member("waitlisted", waitlisted)
                json.member("status", status)
                json.member("host_id", hostID)
            }
        }
    }

    nonisolated static func main(arguments: [String]) {
        // The benchmark reads no config.json: these are its own settings, unchanged since the first comparison with nginx.
        var settings = ServerSettings(host: "127.0.0.1", port: 0, threads: 0, connectionTimeoutSeconds: 30, headerTimeoutSeconds: 10,
                                      maxConnections: 8192, maxConnectionsPerIP: 256, maxBodyBytes: 1 << 20)
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
            return .json(bytes: Meetup(
                id: id, title: "Thursday bouldering night", place: "The Crag Seongsu",
                startsAt: start, endsAt: start.addingTimeInterval(10_800), utcOffsetSeconds: seoul.secondsFromGMT(for: start),
                capacity: 24, going: 18, waitlisted: 0, status: "scheduled", hostID: 7).jsonBytes)
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
