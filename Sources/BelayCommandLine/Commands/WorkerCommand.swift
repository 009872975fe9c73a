import BelayComposition
import BelayCore
import Foundation
import BelayArguments

/// `belay worker`: render and webhook delivery without HTTP, for nodes beside the API nodes.
struct WorkerCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "worker",
            abstract: "Run render workers, webhook and push delivery only (no HTTP), beside `belay serve` nodes.",
            discussion: """
            Runs render.workers render workers, the webhook and push notice delivery workers and the schedules (backfill,
            check-in retention, meetup completion) on the configured database, and serves no requests.
            Start any number on any machines that share the database (database.url, PostgreSQL) and the
            data directory's images; each claims jobs under a lease naming its host and process, so a
            node that dies has its jobs taken over when the lease ends. On PostgreSQL a worker wakes as
            soon as any node queues work. The database must already be migrated (`belay migrate`, or
            the first `belay serve`). Prints `working` once started; SIGTERM or SIGINT stops it after the
            jobs in hand are finished.
            """
        )
    }

    func run(_ context: CommandContext) throws {
        let configuration = try context.configuration()
        let signals = ShutdownSignals.Waiter()
        let logSink = BufferedLogSink()
        defer { logSink.flush() }
        let application: BelayApplication
        do {
            application = try buildApplication(configuration, options: ApplicationOptions(logSink: logSink))
            try application.startWithoutHTTP()
        } catch let error as ApplicationError {
            throw CommandLineError.failure(error.description)
        }
        context.print("working: \(configuration.render.workers) render \(configuration.render.workers == 1 ? "worker" : "workers") and webhook delivery on \(application.domain.pool.location)")
        let signal = signals.wait()
        application.logger.info("received \(signal == SIGINT ? "SIGINT" : "SIGTERM"); stopping")
        application.stopWithoutHTTP()
        application.logger.info("stopped")
    }
}
