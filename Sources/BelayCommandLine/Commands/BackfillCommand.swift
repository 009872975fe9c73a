import BelayCore
import Foundation
import BelayDomain
import BelayComposition
import BelayArguments
import BelayPipeline

/// `belay backfill`: award missing rewards, render missing or outdated images, retry failures.
struct BackfillCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "backfill",
            abstract: "Award missing rewards, render missing or outdated images, retry failed renders.",
            discussion: """
            In order: gives every checked-in attendance without a reward its reward (the same hold a live
            check-in would have given); queues renders for rewards whose images are missing, gone from disk,
            made with an older template version, or failed and due for another round; renders every due job.
            Failed attempts are retried with back-off up to render.max_attempts; a reward that still fails
            stays failed with its reason (`belay rewards list --member HANDLE` shows it).

            Only one backfill runs at a time, across all processes (cron and `belay serve`): a second one says
            who holds the lease and exits 1. Killed at any point, the next run finishes the work without
            redoing what was done. Safe while the server is running.

            Progress goes to standard error (a bar on a terminal, plain lines otherwise); the summary goes to
            standard output (--json for scripts). Exit status: 0 when the run finished (even if some renders
            failed), 1 when it could not run or stopped early (lease held, data directory not writable).

            Examples:
              belay backfill --dry-run
              belay backfill --since 2026-11-01 --jobs 2
              belay backfill --meetup 42 --json
            """
        )
    }

    @Flag("dry-run", help: "Say what would be done, and change nothing.") var dryRun: Bool
    @OptionalOption("since", valueName: "time", help: "Only check-ins at or after this time: a day (2026-11-01, midnight in the club's zone), a local time or RFC 3339.") var since: String?
    @OptionalOption("meetup", valueName: "id", help: "Only this meetup's check-ins.") var meetup: Int64?
    @OptionalOption("limit", valueName: "n", help: "At most N rewards awarded, N renders queued and N render jobs run in this run.") var limit: Int?
    @OptionalOption("jobs", valueName: "n", help: "Renders at once (default: backfill.jobs in the configuration).") var jobs: Int?
    @Flag(.json) var json: Bool

    func validate() throws {
        if let limit, limit < 1 { throw CommandLineError.usage("--limit must be 1 or more (got \(limit))") }
        if let jobs, !(1...64).contains(jobs) { throw CommandLineError.usage("--jobs must be between 1 and 64 (got \(jobs))") }
        if let meetup, meetup < 1 { throw CommandLineError.usage("--meetup must be a meetup id (got \(meetup))") }
    }

    /// The summary as `--json` prints it.
    struct Summary: Encodable {
        var dryRun: Bool
        var awarded: Int
        var rendered: Int
        var skipped: Int
        var failed: Int
        var durationSeconds: Double
        /// Wall and CPU seconds the workers spent drawing and encoding.
        var renderSeconds: Double
        var renderCpuSeconds: Double
        var reusedJobs: Int
        var imagesRendered: Int
        var skippedWithoutCatalog: Int
        var queued: RenderNeedCounts
        var failedAttemptsRetried: Int
        var waitingForRetry: Int
        var nextRetryAt: Date?
        var postponed: Int
        /// Jobs left running by a dead process on this host, taken back at the start.
        var reclaimed: Int
        /// Jobs in scope skipped because another live worker holds their lease.
        var runningElsewhere: Int
        var runningElsewhereUntil: Date?
        var stoppedEarly: String?
    }

    /// The plan as `--dry-run --json` prints it.
    struct Plan: Encodable {
        var dryRun = true
        var wouldAward: Int
        var wouldQueue: RenderNeedCounts
        var jobsInFlight: Int
        var wouldRender: Int
        var templateVersion: Int
        var leaseHeldBy: String?
    }

    func run(_ context: CommandContext) throws {
        let services = try context.services()
        let configuration = services.configuration
        let zone = configuration.club.zone
        let scope = RewardScope(meetupID: meetup,
                                checkedInSince: try since.map { try TimeFormatting.parse($0, in: zone, option: "--since", allowDay: true) })
        if let meetup { _ = try services.meetup(meetup) }
        let pipeline = try context.pipeline(services)
        let options = BackfillOptions(scope: scope, limit: limit, jobs: jobs ?? max(configuration.backfill.jobs, 1),
                                      purpose: "belay backfill" + (jobs.map { " --jobs \($0)" } ?? ""))
        if dryRun { return try plan(pipeline, options, context) }

        let display = ProgressDisplay(sink: context.errorOutput,
                                      isTerminal: !json && ProgressDisplay.standardErrorIsTerminal(environment: context.environment))
        let cancellation = BackfillCancellation()
        let signals = SignalCancellation(cancellation)
        defer { signals.restore() }
        let report: BackfillReport
        do {
            report = try pipeline.backfill.run(options, cancellation: cancellation) { progress in
                display.update(phase: progress.phase.rawValue, completed: progress.completed, total: progress.total,
                               failed: progress.failed)
            }
        } catch let error as PipelineError {
            display.finish()
            throw CommandLineError.failure(error.description)
        }
        display.finish()
        try printSummary(report, context)
        if report.reclaimed > 0 {
            context.note("Took back \(Plural.counted(report.reclaimed, "render job")) left running by a process on this host that is gone.")
        }
        if report.runningElsewhere > 0 {
            let until = report.runningElsewhereUntil.map { " until \(RFC3339.string(from: $0, fraction: .none))" } ?? ""
            context.note("Skipped \(Plural.counted(report.runningElsewhere, "render job")) held by another running worker (its lease lasts\(until)): they finish there, or a later backfill takes them once the lease runs out.")
        }
        if report.failed > 0 {
            context.note("\(Plural.counted(report.failed, "reward")) failed to render for good; `belay rewards list --member HANDLE` gives the reason. Fix the cause; the next backfill retries them after a back-off.")
        }
        if let stopped = report.stoppedEarly { throw CommandLineError.failure("The backfill stopped early: \(stopped)") }
    }

    private func plan(_ pipeline: PipelineComponents, _ options: BackfillOptions, _ context: CommandContext) throws {
        let plan: BackfillPlan
        do { plan = try pipeline.backfill.plan(options) } catch let error as PipelineError {
            throw CommandLineError.failure(error.description)
        }
        let wouldRender = plan.rewardsToAward + plan.rendersToQueue.total + plan.jobsInFlight
        if json {
            return try context.printJSON(Plan(wouldAward: plan.rewardsToAward, wouldQueue: plan.rendersToQueue,
                                              jobsInFlight: plan.jobsInFlight, wouldRender: wouldRender,
                                              templateVersion: plan.templateVersion, leaseHeldBy: plan.leaseHolder))
        }
        var table = Table(columns: ["would", "count"])
        table.append(["award missing rewards", "\(plan.rewardsToAward)"])
        table.append(["render never-rendered rewards", "\(plan.rendersToQueue.missing)"])
        table.append(["re-render (older template than v\(plan.templateVersion))", "\(plan.rendersToQueue.outdated)"])
        table.append(["re-render (files gone from disk)", "\(plan.rendersToQueue.filesMissing)"])
        table.append(["retry failed renders", "\(plan.rendersToQueue.failed)"])
        table.append(["finish jobs already queued or running", "\(plan.jobsInFlight)"])
        context.printTable(table)
        context.note("Dry run: nothing was changed. About \(Plural.counted(wouldRender, "render job")) would run.")
        if let holder = plan.leaseHolder { context.note("Another backfill is running now (lease \(holder)); a real run would be refused.") }
    }

    private func printSummary(_ report: BackfillReport, _ context: CommandContext) throws {
        if json {
            return try context.printJSON(Summary(
                dryRun: false, awarded: report.awarded, rendered: report.rendered, skipped: report.skipped, failed: report.failed,
                durationSeconds: (report.durationSeconds * 1000).rounded() / 1000,
                renderSeconds: (report.renderSeconds * 1000).rounded() / 1000,
                renderCpuSeconds: (report.renderCPUSeconds * 1000).rounded() / 1000, reusedJobs: report.reused, imagesRendered: report.imagesRendered,
                skippedWithoutCatalog: report.skippedWithoutCatalog, queued: report.queued,
                failedAttemptsRetried: report.failedWillRetry, waitingForRetry: report.waitingForRetry,
                nextRetryAt: report.nextRetryAt, postponed: report.postponed, reclaimed: report.reclaimed,
                runningElsewhere: report.runningElsewhere, runningElsewhereUntil: report.runningElsewhereUntil,
                stoppedEarly: report.stoppedEarly))
        }
        var table = Table(columns: ["", "count"])
        table.append(["awarded", "\(report.awarded)"])
        table.append(["rendered", "\(report.rendered)"])
        table.append(["skipped", "\(report.skipped)" + (report.skipped > 0 ? " (\(report.reused) images already stored, \(report.skippedWithoutCatalog) without a catalogue)" : "")])
        table.append(["failed", "\(report.failed)" + (report.failedWillRetry > 0 ? " (\(report.failedWillRetry) failed attempts retried)" : "")])
        if report.waitingForRetry > 0 {
            table.append(["waiting for retry", "\(report.waitingForRetry)" + (report.nextRetryAt.map { " (next at \(RFC3339.string(from: $0, fraction: .none)))" } ?? "")])
        }
        if report.postponed > 0 { table.append(["postponed", "\(report.postponed)"]) }
        if report.reclaimed > 0 { table.append(["taken back from a dead process", "\(report.reclaimed)"]) }
        if report.runningElsewhere > 0 {
            table.append(["running elsewhere (skipped)", "\(report.runningElsewhere)"
                          + (report.runningElsewhereUntil.map { " (lease until \(RFC3339.string(from: $0, fraction: .none)))" } ?? "")])
        }
        table.append(["duration", String(format: "%.1f s", report.durationSeconds)])
        context.printTable(table)
    }
}

/// Turns the first SIGINT or SIGTERM into a graceful stop of the backfill (the jobs in hand
/// finish, the summary is printed); a second one ends the process at once.
final class SignalCancellation: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(_ cancellation: BackfillCancellation) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if cancellation.isCancelled { _exit(128 + number) }
                FileHandle.standardError.write(Data("Stopping after the renders in hand (again to stop at once)…\n".utf8))
                cancellation.cancel()
            }
            source.resume()
            sources.append(source)
        }
    }

    func restore() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
