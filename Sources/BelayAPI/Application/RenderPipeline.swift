import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import Foundation

/// The server's part of the render pipeline, from `config.json`: the render service over the
/// image store, the worker pool, and the scheduled backfill.
struct RenderPipeline {
    let service: RenderService
    let workers: RenderWorkerPool?
    let scheduler: BackfillScheduler
    let backfillMetrics: RenderMetrics

    /// - Throws: `ApplicationError` naming a render setting that cannot work.
    init(configuration: BelayConfiguration, domain: DomainServices, options: ApplicationOptions, logger: Logger) throws {
        let story: StoryImageFormat = configuration.render.storyFormat == .jpeg ? .jpeg(quality: configuration.render.jpegQuality) : .png
        let settings = RenderPipelineSettings(dataDirectory: configuration.dataDirectory, assetsDirectory: configuration.assetsDirectory,
                                              clubLocale: configuration.club.locale, storyFormat: story,
                                              workers: max(configuration.render.workers, 1))
        do {
            service = try RenderService(queue: domain.renderJobs, clock: domain.clock, settings: settings)
        } catch {
            throw ApplicationError(.invalidSetting(key: "render", message: "\(error)"))
        }
        let log: @Sendable (String) -> Void = { line in logger.info(line) }
        let factory = options.rendererFactory ?? { throw RendererMissing() }
        workers = RenderWorkerPool(service: service, queue: domain.renderJobs, rendererFactory: factory,
                                   workers: max(configuration.render.workers, 1), log: log)
        let runner = BackfillRunner(domain: domain, service: service, rendererFactory: factory, leaseDuration: 30)
        backfillMetrics = runner.metrics
        var everyMinutes = configuration.backfill.everyMinutes
        if everyMinutes < 0 { everyMinutes = 0 }
        scheduler = BackfillScheduler(
            schedule: BackfillSchedule(dailyAt: configuration.backfill.dailyAt.map { (hour: $0.hour, minute: $0.minute) },
                                       everyMinutes: everyMinutes, timeZone: configuration.club.zone),
            runner: runner, options: BackfillOptions(jobs: configuration.backfill.jobs, purpose: "belay serve (scheduled backfill)"),
            clock: domain.clock, log: log)
    }
}

/// No renderer is built into this Belay yet.
struct RendererMissing: Error, CustomStringConvertible {
    var description: String { "no sticker renderer is available in this build" }
}
