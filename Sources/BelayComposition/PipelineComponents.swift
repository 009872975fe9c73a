import BelayConfig
import BelayDomain
import BelayPipeline
import BelayRender
import Foundation

/// The render pipeline of one Belay process, built from `config.json`: the render service
/// and its image store, one renderer per worker, the server's worker pool, the backfill
/// runner and its schedule, the collection renderer and the garbage collector.
///
/// `belay serve` builds one and calls `workers.start()` and `scheduler.start()` (the store
/// wakes the workers when a commit queues a render job); on shutdown `scheduler.stop()` then
/// `workers.stop()`. The CLI's `backfill`, `gc` and `render collection` use the same parts.
public struct PipelineComponents: Sendable {
    public let settings: RenderPipelineSettings
    public let service: RenderService
    /// Makes one renderer (with its own text engine) per worker thread.
    public let rendererFactory: RewardImageRendererFactory
    /// The server's render workers (not started).
    public let workers: RenderWorkerPool
    /// Runs backfills (`belay backfill`, and the scheduler).
    public let backfill: BackfillRunner
    /// The server's backfill schedule (not started; `off` when both settings are unset). Its
    /// runs award and queue; `workers` render.
    public let scheduler: BackfillScheduler
    /// Renders members' whole collections on demand, cached by content.
    public let collections: CollectionService
    /// Renders the link-preview cards of share pages on first request, cached by content.
    public let shareCards: ShareCardService
    /// The club as an Open Badges issuer: each sticker carries the reward's signed badge.
    public let badges: BadgeIssuer
    /// `belay gc`.
    public let garbageCollector: ImageGarbageCollector

    /// - Parameters:
    ///   - rendererFactory: replaces the real renderer (tests).
    ///   - log: one line per notable event of the workers and the scheduler.
    ///   - imageStore: where reward images go (`ImageStorage.store`); nil for the directory
    ///     under the data directory.
    /// - Throws: `PipelineError` naming a setting that cannot work.
    public init(configuration: BelayConfiguration, domain: DomainServices, rendererFactory: RewardImageRendererFactory? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }, imageStore: (any RewardImageStore)? = nil) throws {
        settings = RenderPipelineSettings(configuration: configuration)
        badges = BadgeIssuer(settings: BadgeSettings(configuration: configuration))
        service = try RenderService(queue: domain.renderJobs, clock: domain.clock, settings: settings, badges: badges,
                                    imageStore: imageStore, logbook: domain.logbook)
        let rendering = RenderSettings(configuration: configuration)
        self.rendererFactory = rendererFactory ?? { try BelayRewardRenderer(settings: rendering) }
        let metrics = RenderMetrics()
        workers = RenderWorkerPool(service: service, queue: domain.renderJobs, rendererFactory: self.rendererFactory,
                                   workers: configuration.render.workers, metrics: metrics, log: log,
                                   warmUp: { [service, catalog = domain.catalog] context in
                                       service.warmUp(context, holds: (try? catalog.holds()) ?? [], backgrounds: (try? catalog.backgrounds()) ?? [])
                                   })
        backfill = BackfillRunner(domain: domain, service: service, rendererFactory: self.rendererFactory,
                                  leaseDuration: TimeInterval(max(configuration.backfill.leaseSeconds, 3)), metrics: metrics)
        // The server's scheduled backfill awards and queues; the server's own render workers
        // render what it queued (no second set of renderers competing for the cores).
        scheduler = BackfillScheduler(
            schedule: BackfillSchedule(configuration: configuration), runner: backfill,
            options: BackfillOptions(jobs: 0, purpose: "belay serve (scheduled backfill)"),
            clock: domain.clock, log: log, afterRun: { [workers] in workers.notify() })
        collections = CollectionService(domain: domain, settings: settings,
                                        rendererFactory: { try BelayRewardRenderer(settings: rendering) })
        shareCards = ShareCardService(settings: settings, clubName: configuration.club.name,
                                      rendererFactory: { try BelayRewardRenderer(settings: rendering) })
        garbageCollector = ImageGarbageCollector(backfill: domain.backfill, settings: settings, clock: domain.clock, imageStore: imageStore)
    }
}
