import BelayAPI
import BelayCore
import BelayConfig
import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayPostgres
import BelayRender
import BelayRepresentations
import BelaySQLite
import BelayStorage
import BelayPush
import BelayWebhooks
import Foundation

/// A whole Belay server: the database, the domain, the render workers and backfill
/// schedule, the router with its middleware, and the HTTP server. Built by
/// `buildApplication`, shared by `belay serve` and the tests.
public final class BelayApplication: Sendable {
    public let configuration: BelayConfiguration
    public let domain: DomainServices
    public let services: APIServices
    /// The frozen router: every request goes through it (tests can call it in-process).
    public let responder: RouterResponder<APIContext>
    public let server: HTTPServer
    /// The render workers. When no renderer can be made (a font is missing) they do not
    /// start, and rewards stay pending until a backfill renders them.
    public let workers: RenderWorkerPool
    public let scheduler: BackfillScheduler
    /// Prunes old check-in idempotency keys and wrong-code counters (`check_in.retention_days`),
    /// finished webhook deliveries (`webhooks.retention_days`) and share events, counted per
    /// day first (`share.events_retention_days`).
    public let retention: RetentionScheduler
    /// Delivers signed webhooks in the background.
    public let webhookWorker: WebhookDeliveryWorker
    /// Delivers push notices to APNs and FCM, when either is configured.
    public let pushWorker: PushDeliveryWorker?
    /// Completes meetups whose check-in window closed.
    public let completion: MeetupCompletionScheduler
    public let logger: Logger
    private let backfillMetrics: RenderMetrics
    /// On PostgreSQL, wakes this node's workers when another node queues their work.
    private let wakeListener: PostgresWakeListener?
    /// A SQLite club's scheduled backups into a bucket, when `database.backup_every_hours` is set.
    public let backups: DatabaseBackupScheduler?

    init(configuration: BelayConfiguration, domain: DomainServices, services: APIServices, responder: RouterResponder<APIContext>,
         server: HTTPServer, workers: RenderWorkerPool, scheduler: BackfillScheduler, retention: RetentionScheduler,
         webhookWorker: WebhookDeliveryWorker, pushWorker: PushDeliveryWorker?, completion: MeetupCompletionScheduler,
         backfillMetrics: RenderMetrics, logger: Logger, wakeListener: PostgresWakeListener?, backups: DatabaseBackupScheduler? = nil) {
        self.wakeListener = wakeListener
        self.backups = backups
        self.configuration = configuration
        self.domain = domain
        self.services = services
        self.responder = responder
        self.server = server
        self.workers = workers
        self.scheduler = scheduler
        self.retention = retention
        self.webhookWorker = webhookWorker
        self.pushWorker = pushWorker
        self.completion = completion
        self.backfillMetrics = backfillMetrics
        self.logger = logger
    }

    /// Every registered route.
    public var routes: [RouteDescription] { responder.routes }

    /// The port the server listens on (the real one for port 0); 0 before `start()`.
    public var port: Int { server.port }

    /// Starts the render workers, the backfill schedule, check-in retention, the webhook workers and the HTTP server.
    /// - Throws: `ApplicationError` when the address cannot be bound.
    public func start() throws {
        removeStaleTemporaryFiles()
        do {
            try workers.start()
        } catch {
            logger.error("render workers did not start: \(error); rewards stay pending until this is fixed and a backfill runs")
        }
        startSchedules()
        do {
            try server.start()
        } catch {
            stopBackground()
            throw ApplicationError(.cannotListen(reason: "\(error)"))
        }
        services.presentation.baseURL.adopt(boundPort: server.port)
        // The meetups searches look through are read into memory now, not by the first search.
        DispatchQueue.global(qos: .utility).async { [domain, logger] in
            do {
                let started = ContinuousClock.now
                let count = try domain.meetups.prepareSearches()
                let took = (ContinuousClock.now - started).components
                let milliseconds = took.seconds * 1_000 + took.attoseconds / 1_000_000_000_000_000
                logger.info("search: \(count) meetups to come held in memory, read in \(milliseconds) ms")
            } catch {
                logger.warning("could not read the meetups for search ahead of time (the first search will): \(error)")
            }
        }
    }

    /// Stops gracefully: no new connections, requests in flight finished (up to
    /// `gracePeriod`), the backfill run and the render jobs in hand finished, token uses
    /// written, then the database checkpointed so nothing is left in its write-ahead log.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        server.stop(gracePeriod: gracePeriod)
        stopBackground()
        domain.users.flushTokenUses()
        guard let sqlite = domain.pool as? SQLitePool else { return }
        do {
            try sqlite.writeWithoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            logger.warning("could not checkpoint the database on shutdown (it stays consistent): \(error)")
        }
    }

    /// Starts what `belay worker` runs: the render workers, webhook delivery and the
    /// schedules (backfill, retention, meetup completion), without the HTTP server.
    /// - Throws: `ApplicationError` when the render workers cannot start (a worker that
    ///   cannot render has no reason to run).
    public func startWithoutHTTP() throws {
        removeStaleTemporaryFiles()
        do {
            try workers.start()
        } catch {
            throw ApplicationError(.invalidSetting(key: "render", message: "the render workers cannot start: \(error)"))
        }
        startSchedules()
    }

    /// Stops what `startWithoutHTTP` started: the render jobs in hand are finished first.
    public func stopWithoutHTTP() {
        stopBackground()
    }

    /// How old a leftover temporary image file must be to be removed at start: far beyond one
    /// write, so another node's write in progress on a shared data directory is left alone.
    public static let staleTemporaryFileAge: TimeInterval = 300

    /// Removes the temporary files that renders killed mid-write left in the image stores
    /// (otherwise only `belay gc` would), logging what went.
    func removeStaleTemporaryFiles() {
        let settings = RenderPipelineSettings(configuration: configuration)
        let now = domain.clock.now()
        for directory in [settings.imagesDirectory, settings.collectionsDirectory, settings.cardsDirectory] {
            let (removed, failures) = ImageStore(root: directory).removeStaleTemporaryFiles(minimumAge: Self.staleTemporaryFileAge, now: now)
            if !removed.isEmpty {
                logger.info("removed \(removed.count) temporary file(s) left by interrupted writes in \(directory.path)")
            }
            for failure in failures {
                logger.warning("could not remove a temporary file left by an interrupted write: \(failure); belay gc removes it later")
            }
        }
    }

    private func startSchedules() {
        scheduler.start()
        retention.start()
        webhookWorker.start()
        pushWorker?.start()
        completion.start()
        wakeListener?.start()
        backups?.start()
    }

    private func stopBackground() {
        backups?.stop()
        wakeListener?.stop()
        scheduler.stop()
        retention.stop()
        webhookWorker.stop()
        pushWorker?.stop()
        completion.stop()
        workers.stop()
    }

    /// Everything `/metrics` shows.
    func metricsText() -> String {
        var text = services.metrics.registry.prometheusText()
        // The scheduled backfill may count into the workers' metrics; count each source once.
        let snapshots = workers.metrics === backfillMetrics
            ? [workers.metrics.snapshot()] : [workers.metrics.snapshot(), backfillMetrics.snapshot()]
        text += APIMetrics.renderText(counts: try? domain.renderJobs.counts(), snapshots: snapshots)
        var writer = PrometheusTextWriter()
        writer.family("belay_http_requests_in_flight", help: "Requests received and not yet answered (suspended ones included).", type: .gauge)
        writer.sample("belay_http_requests_in_flight", server.requestsInFlight)
        writer.family("belay_http_requests_suspended", help: "Requests waiting for deferred work (a write for its commit), holding no thread.", type: .gauge)
        writer.sample("belay_http_requests_suspended", server.requestsSuspended)
        return text + writer.text
    }
}

/// Builds the whole server from `configuration`: opens the database (which must exist with
/// every migration applied, see `prepareDataDirectory`), wires the domain services, the
/// render worker pool (`render.workers` threads) and the backfill schedule, and registers
/// every route behind the standard middleware (access log, metrics, problem mapping) and
/// authentication. Nothing listens or runs until `start()`.
/// - Throws: `ApplicationError` naming what is missing or wrong.
public func buildApplication(_ configuration: BelayConfiguration, options: ApplicationOptions = ApplicationOptions()) throws -> BelayApplication {
    let logger = Logger(label: "belay", sink: options.logSink)
    let database = try openClubDatabase(configuration)
    let pool = database.store
    let domain = try DomainServices(configuration: configuration, clock: options.clock) { pool }

    let metricsRegistry = MetricsRegistry()
    let pushWorker = try PushDeliveryWorker.make(configuration: configuration, domain: domain, registry: metricsRegistry,
                                                 log: { line in logger.warning(line) }, alarm: { line in logger.error(line) })
    // A bucket that refuses the key or does not exist stops the start, naming the setting;
    // one that does not answer yet only delays renders, which wait for it.
    let imageStorage = try ImageStorage(configuration: configuration, registry: metricsRegistry, log: { line in logger.warning(line) })
    if let complaint = try imageStorage.checkAccess() {
        logger.warning("the image store does not answer yet; renders wait for it: \(complaint)")
    }
    let pipeline: PipelineComponents
    let rendering = RenderSettings(configuration: configuration)
    do {
        let factory = options.rendererFactory ?? { try BelayRewardRenderer(settings: rendering) }
        pipeline = try PipelineComponents(configuration: configuration, domain: domain,
                                          rendererFactory: BackgroundPriorityRenderer.wrapping(factory),
                                          log: { line in logger.info(line) }, imageStore: imageStorage.store)
    } catch {
        throw ApplicationError(.invalidSetting(key: "render", message: "\(error)"))
    }
    let retention = RetentionScheduler(
        retention: try CheckInRetention(configuration: configuration, pool: pool, clock: options.clock),
        webhooks: try WebhookRetention(configuration: configuration, pool: pool, clock: options.clock),
        shares: try ShareEventRetention(configuration: configuration, pool: pool, clock: options.clock),
        clock: options.clock, log: { line in logger.info(line) })
    // The club's badge key is made on the first start (mode 0600 under the data directory);
    // a directory every node holds a copy of must hold the key and member secret already.
    let badgeKeys = pipeline.badges.keys
    do {
        _ = try badgeKeys.current()
        _ = try badgeKeys.memberSecret()
    } catch {
        if !badgeKeys.makesKeys { throw ApplicationError(.invalidSetting(key: "rewards.badge_keys_directory", message: "\(error)")) }
        throw ApplicationError(.dataDirectoryUnusable(path: badgeKeys.directory.path, reason: "\(error)"))
    }
    if badgeKeys.makesKeys, configuration.images.store == .s3 {
        logger.warning("""
            badge keys are this node's own (\(badgeKeys.directory.path)): nodes on other machines make keys of their own, and a badge \
            one node issued does not verify on another; give every node a copy of one directory in rewards.badge_keys_directory
            """)
    }
    let webhookWorker = WebhookDeliveryWorker.make(configuration: configuration, domain: domain, log: { line in logger.warning(line) })
    // The one wake signal: a committed write that queued work (a render job, a webhook delivery,
    // a push notice) wakes the workers that do it, this node's at once and, on PostgreSQL, every
    // other node's through the listener; no service or route wakes a worker itself.
    // Weakly: the store keeps these handlers, and the workers keep the store; a strong capture
    // would keep a stopped application's store, and its connections, for the process's life.
    let wakeListener = database.wakeWorkers([
        WorkNotification.renderJobs.rawValue: { [weak workers = pipeline.workers] in workers?.notify() },
        WorkNotification.webhookDeliveries.rawValue: { [weak webhookWorker] in webhookWorker?.notify() },
        WorkNotification.pushNotices.rawValue: { [weak pushWorker] in pushWorker?.notify() },
    ])
    let apiMetrics = APIMetrics(registry: metricsRegistry)
    let applicationBox = ApplicationReference()
    var services = APIServices(
        domain: domain, presentation: Presentation(configuration: configuration),
        imageFile: { [service = pipeline.service] in service.fileURL(forRowPath: $0) },
        metrics: apiMetrics, collections: options.collections ?? pipeline.collections,
        shareCards: pipeline.shareCards, badges: pipeline.badges, sharePageSettings: SharePageSettings(configuration: configuration),
        readiness: {
            var report = readiness(of: database)
            // Said, not failed: check-ins work while the bucket is down, and renders wait for it.
            if let images = imageStorage.readiness() { report.checks.append(("image_store", images)) }
            return report
        },
        metricsText: { applicationBox.application?.metricsText() ?? metricsRegistry.prometheusText() },
        calendar: CalendarSettings(configuration: configuration),
        assetsDirectory: configuration.assetsDirectory, remoteImages: imageStorage.serving())
    services.logbookPictures = LogbookPictureService(settings: rendering)

    let httpLogger = Logger(label: "http", sink: options.logSink)
    let router = Router(context: APIContext.self, logger: httpLogger)
    // Paths that carry a credential: a path under one that matches no route is logged without it.
    router.addStandardMiddleware(logger: httpLogger, metrics: metricsRegistry,
                                 trustedProxies: Set(configuration.server.trustedProxies),
                                 secretPathPrefixes: ["/v1/calendar/", "/auth/email/", "/invite/", "/s/", "/k/"])
    router.add(middleware: DomainErrorMiddleware(storageFull: StorageFullAlarm(logger: logger, clock: options.clock)))
    APIRoutes(services: services, tokenCache: TokenCache(lifetime: options.tokenCacheLifetime, clock: options.clock),
              responseCache: ResponseCache(lifetime: options.responseCacheLifetime, clock: options.clock),
              sharePageCacheLifetime: options.sharePageCacheLifetime, clock: options.clock,
              signIn: try SignInServices(configuration: configuration, clock: options.clock, log: { line in logger.warning(line) }),
              limits: try APIRateLimits(configuration: configuration, clock: options.clock))
        .register(on: router)
    let responder = router.buildResponder()
    let server = HTTPServer(settings: ServerSettings(configuration: configuration), responder: responder, logger: httpLogger)

    let application = BelayApplication(configuration: configuration, domain: domain, services: services, responder: responder,
                                       server: server, workers: pipeline.workers, scheduler: pipeline.scheduler, retention: retention,
                                       webhookWorker: webhookWorker, pushWorker: pushWorker,
                                       completion: MeetupCompletionScheduler(meetups: domain.meetups, attendance: domain.attendance,
                                                                             intervalSeconds: configuration.meetups.completeEverySeconds,
                                                                             log: { line in logger.info(line) }),
                                       backfillMetrics: pipeline.backfill.metrics, logger: logger,
                                       wakeListener: wakeListener,
                                       backups: try DatabaseBackupScheduler.make(configuration: configuration, database: database,
                                                                                 log: { line in logger.info(line) }))
    applicationBox.set(application)
    return application
}

/// `/readyz`: the database answers and has every migration.
private func readiness(of database: ClubDatabase) -> ReadinessReport {
    do {
        let status = try database.migrationStatus()
        if status.isCurrent { return ReadinessReport(checks: [("database", "ok"), ("migrations", "ok")], isReady: true) }
        return ReadinessReport(checks: [("database", "ok"),
                                        ("migrations", "missing " + status.pending.map(\.identifier).joined(separator: ", "))],
                               isReady: false)
    } catch {
        return ReadinessReport(checks: [("database", "unreachable"), ("migrations", "unknown")], isReady: false)
    }
}

/// Opens the configured database for a server or worker: it must exist with every
/// migration applied (see `prepareDataDirectory` and `belay migrate`).
/// - Throws: `ApplicationError` saying what is missing or wrong.
func openClubDatabase(_ configuration: BelayConfiguration) throws -> ClubDatabase {
    if ClubDatabase.isMissing(configuration) { throw ApplicationError(.databaseMissing(path: configuration.databasePath)) }
    let database: ClubDatabase
    do {
        database = try ClubDatabase(configuration: configuration)
        let status = try database.migrationStatus()
        guard status.isCurrent else {
            throw ApplicationError(.migrationsPending(path: database.location, names: status.pending.map(\.identifier)))
        }
    } catch let error as DatabaseError {
        throw ApplicationError(.databaseUnusable(path: ClubDatabase.location(of: configuration), reason: error.description))
    }
    return database
}

/// Lets closures built before the application exists reach it once it does, without
/// keeping it alive.
private final class ApplicationReference: @unchecked Sendable {
    private let lock = NSLock()
    private weak var reference: BelayApplication?

    var application: BelayApplication? {
        lock.lock()
        defer { lock.unlock() }
        return reference
    }

    func set(_ application: BelayApplication) {
        lock.lock()
        reference = application
        lock.unlock()
    }
}
