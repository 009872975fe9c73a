import BelayComposition
import BelayConfig
import BelayCore
import Foundation
import BelayArguments
import BelayDomain

/// `belay serve [--port N]`: runs the HTTP API, the render workers and the scheduled backfill
/// until SIGTERM or SIGINT, then stops gracefully and exits 0.
struct ServeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "serve",
            abstract: "Run the API server (and its render workers and backfill schedule).",
            discussion: """
            Listens on server.host and server.port and prints `listening on http://HOST:PORT` once it
            accepts connections, and the console's address (`console on http://HOST:PORT/console`). On the first start with an empty data directory it creates the
            database, applies the migrations and imports the hold catalogue, then says how to create
            an admin token. SIGTERM or SIGINT (Ctrl-C) stops it gracefully: no new connections,
            requests in flight get server.shutdown_grace_seconds to finish (one still waiting for its
            database write is then answered 503 shutting_down; the write still commits), the render
            jobs in hand are finished, the database is closed, and it exits 0.
            Image URLs start with server.public_base_url; when that names a loopback host its port
            follows the port actually bound.
            """
        )
    }

    @OptionalOption("port", valueName: "n", help: "Listen on this port instead of server.port; 0 picks a free one (printed on start).") var port: Int?

    func validate() throws {
        if let port, !(0...65535).contains(port) {
            throw CommandLineError.usage("--port must be 0–65535 (0 picks a free port); got \(port)")
        }
    }

    func run(_ context: CommandContext) throws {
        var configuration = try context.configuration()
        if let port { configuration.server.port = port }
        // Listen for the signals first: from here on SIGTERM means "stop gracefully".
        let signals = ShutdownSignals.Waiter()
        // An access-log line per request, written in batches.
        let logSink = BufferedLogSink()
        defer { logSink.flush() }

        let application: BelayApplication
        let firstStart: FirstStartReport?
        do {
            firstStart = try prepareDataDirectory(configuration)
            application = try buildApplication(configuration, options: ApplicationOptions(logSink: logSink))
            try application.start()
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
        let base = application.services.presentation.publicBaseURL
        let address = "http://\(displayHost(configuration.server.host)):\(application.port)"
        context.print("listening on \(address)")
        context.print("console on \(address)/console")
        if configuration.mailTransport == .outbox {
            context.print("sign-in mail goes to the development outbox: each code is printed in this log and kept in \(configuration.mailOutboxDirectory) (set mail.smtp_url to mail members)")
        }
        if let firstStart {
            printFirstStart(firstStart, base: base, outbox: configuration.mailTransport == .outbox, context)
        }

        let signal = signals.wait()
        application.logger.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"); stopping")
        application.stop(gracePeriod: .seconds(configuration.server.shutdownGraceSeconds))
        application.logger.info("stopped")
    }

    private func displayHost(_ host: String) -> String {
        if host.isEmpty || host == "0.0.0.0" { return "127.0.0.1" }
        return host.contains(":") ? "[\(host)]" : host
    }

    private func printFirstStart(_ report: FirstStartReport, base: String, outbox: Bool, _ context: CommandContext) {
        let config = context.configFile.map { " --config \(shellQuoted($0))" } ?? ""
        // As it was invoked (`.build/release/belay` after `make run`), so the line can be pasted.
        let program = CommandLine.arguments.first.map(shellQuoted) ?? "belay"
        context.print("""

            First start: created \(report.databasePath) (\(Plural.counted(report.migrations.count, "migration"))) \
            and imported \(Plural.counted(report.catalogue.holdsAdded, "hold")) and \(Plural.counted(report.catalogue.backgroundsAdded, "background")).
            Create an admin and their API token (printed once) in another terminal:
              \(program) users create admin --name "Club Admin" --role admin --token\(config)
            Then call the API with it:
              curl -H "Authorization: Bearer <token>" \(base)/v1/me
            Every route is described at \(base)/openapi.json (readable at \(base)/openapi.html).
            Hosts, moderators and admins work in the console at \(base)/console: they sign in with a code
            mailed to the account's email (give it with `users create … --email`\(outbox ? "" : ", and set mail.smtp_url")).
            """)
        if outbox {
            context.print("""
                Or sign up as a member the way the app does, with the code this log prints:
                  curl -X POST \(base)/v1/auth/email -H 'Content-Type: application/json' -d '{"email": "you@example.com"}'
                  curl -X POST \(base)/v1/auth/email/verify -H 'Content-Type: application/json' -d '{"email": "you@example.com", "code": "<code>"}'
                """)
        }
    }

    private func shellQuoted(_ text: String) -> String {
        text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-".contains($0) }) ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
