import BelayCore
import BelayDomain
import BelayRender
import Foundation
import Synchronization

/// A rendered collection image in the cache.
public struct CollectionImage: Sendable, Hashable {
    /// The PNG file.
    public let url: URL
    /// The digest of its content key: use it as the ETag.
    public let digest: String
    public let byteCount: Int64
    /// Holds shown.
    public let holdCount: Int
    /// True when it was already cached and nothing was rendered.
    public let wasCached: Bool
}

/// Renders a member's whole hold collection on demand (`GET /v1/me/collection.png`,
/// `belay render collection`), cached by content under `<data>/collections`: the same
/// collection at the same scale and template version is rendered once, and a new hold (or
/// a new template) makes a new file. `belay gc` removes cache files unused for a week.
///
/// Thread-safe: renderers (each with its own text engine) are kept in a small pool and
/// made on demand, so concurrent requests never share one. One render per content key at
/// a time: a request for an image that is being rendered waits for that render instead of
/// starting another (30 identical first requests render once). `image(memberID:scale:then:)`
/// renders on the service's own threads (`settings.workers` at most at once), so the
/// caller's thread (an HTTP thread) is free at once; at most `queueCapacity` requests wait or
/// run there, and beyond that it refuses at once (`PipelineError.retryAfterSeconds`).
public final class CollectionService: Sendable {
    public typealias Completion = @Sendable (Result<CollectionImage, any Error>) -> Void

    private let domain: DomainServices
    private let settings: RenderPipelineSettings
    private let store: ImageStore
    private let rendererFactory: CollectionImageRendererFactory
    private let idle = Mutex<[RendererBox]>([])
    private static let maximumIdle = 4
    /// Renders in progress by content digest, with everyone waiting for each.
    private let flights = Mutex<[String: [Completion]]>([:])
    private let renderThreads: BoundedWorkQueue
    /// How many requests may wait or run by default: room for a burst of identical requests
    /// (each joins the render in progress and leaves the queue at once), while distinct
    /// renders beyond it are refused rather than waiting minutes.
    public static let defaultQueueCapacity = 64
    /// The `Retry-After` of a refusal: a large collection takes seconds to draw.
    static let retryAfterSeconds = 10
    /// Told each time a request joins a render in progress (tests watch the sharing).
    private let joinedRender: @Sendable () -> Void

    /// - Parameter queueCapacity: requests waiting or running on the render threads at most.
    public convenience init(domain: DomainServices, settings: RenderPipelineSettings,
                            queueCapacity: Int = CollectionService.defaultQueueCapacity,
                            rendererFactory: @escaping CollectionImageRendererFactory) {
        self.init(domain: domain, settings: settings, queueCapacity: queueCapacity, rendererFactory: rendererFactory, joinedRender: {})
    }

    init(domain: DomainServices, settings: RenderPipelineSettings, queueCapacity: Int = CollectionService.defaultQueueCapacity,
         rendererFactory: @escaping CollectionImageRendererFactory, joinedRender: @escaping @Sendable () -> Void) {
        self.joinedRender = joinedRender
        self.domain = domain
        self.settings = settings
        self.store = ImageStore(root: settings.collectionsDirectory)
        self.rendererFactory = rendererFactory
        renderThreads = BoundedWorkQueue(name: "belay-collections", threads: settings.workers, capacity: queueCapacity)
    }

    /// The collection image like `image(memberID:scale:)`, made on the service's render
    /// threads; `completion` gets it (or the same errors) on one of them, or at once for a
    /// scale outside 1–3 and, with a `PipelineError` with `retryAfterSeconds`, when
    /// `queueCapacity` requests are already waiting or running. Keep `completion` short: hand
    /// the result on.
    public func image(memberID: Int64, scale: Int = 2, hostedBy hostID: Int64? = nil, then completion: @escaping Completion) {
        guard (1...3).contains(scale) else {
            return completion(.failure(PipelineError.invalidSetting("scale", "must be 1, 2 or 3 (got \(scale))")))
        }
        let admitted = renderThreads.submit { [self] in produce(memberID: memberID, scale: scale, hostedBy: hostID, completion) }
        if !admitted {
            completion(.failure(PipelineError.queueFull("collection images", capacity: renderThreads.capacity,
                                                        retryAfterSeconds: Self.retryAfterSeconds)))
        }
    }

    /// The collection image of a member at `scale`, rendered now or taken from the cache;
    /// with `hostID`, only the rewards from meetups that host hosts (what a host may see).
    /// - Throws: `PipelineError` (`isMemberNotFound`) for an unknown member or a scale other
    ///   than 1–3; `ImageStoreError` when the data directory refuses the write (transient:
    ///   disk full, read-only); the renderer's error (naming the file) for a bad artwork;
    ///   `DomainError` when the database fails.
    public func image(memberID: Int64, scale: Int = 2, hostedBy hostID: Int64? = nil) throws -> CollectionImage {
        guard (1...3).contains(scale) else { throw PipelineError.invalidSetting("scale", "must be 1, 2 or 3 (got \(scale))") }
        let outcome = Mutex<Result<CollectionImage, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        produce(memberID: memberID, scale: scale, hostedBy: hostID) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0 }!.get()
    }

    /// Answers `completion` with the cached image, by joining the render of the same content
    /// in progress, or by rendering it here (and then answering everyone who joined).
    private func produce(memberID: Int64, scale: Int, hostedBy hostID: Int64?, _ completion: @escaping Completion) {
        let rendered: (digest: String, result: Result<CollectionImage, any Error>)
        do {
            let request = try request(memberID: memberID, scale: scale, hostedBy: hostID)
            let outcome = try withRenderer { renderer -> (digest: String, result: Result<CollectionImage, any Error>)? in
                let digest = try renderer.contentKey(for: request).digest
                let leads = flights.withLock { flights -> Bool in
                    if flights[digest] != nil {
                        flights[digest]?.append(completion)
                        return false
                    }
                    flights[digest] = []
                    return true
                }
                guard leads else {
                    joinedRender()
                    return nil
                }
                let result = Result<CollectionImage, any Error> {
                    if store.contains(digest: digest, fileExtension: "png"), store.touch(digest: digest, fileExtension: "png") {
                        return try describe(digest, request, cached: true)
                    }
                    try store.write(digest: digest, fileExtension: "png") { path in try renderer.renderPNG(request, toFile: path) }
                    return try describe(digest, request, cached: false)
                }
                return (digest, result)
            }
            guard let outcome else { return }   // joined a render in progress: its end answers
            rendered = outcome
        } catch {
            return completion(.failure(error))
        }
        let waiting = flights.withLock { $0.removeValue(forKey: rendered.digest) ?? [] }
        completion(rendered.result)
        for waiter in waiting { waiter(rendered.result) }
    }

    /// What the collection of a member shows: every active reward, oldest first, and their
    /// progress and streak; with `hostID`, only the rewards from meetups that host hosts (and
    /// no progress, which would tell of the member's other meetups).
    /// - Throws: `PipelineError` for an unknown member.
    public func request(memberID: Int64, scale: Int, hostedBy hostID: Int64? = nil) throws -> CollectionRequest {
        let member: User
        do {
            member = try domain.users.user(id: memberID)
        } catch let error as DomainError where error.reason == .userNotFound {
            throw PipelineError(kind: .memberNotFound(memberID))
        }
        var rewards: [Reward] = []
        var cursor: String?
        repeat {
            let page = try domain.rewards.rewards(memberID: memberID, hostedBy: hostID, limit: 200, cursor: cursor)
            rewards += page.items
            cursor = page.nextCursor
        } while cursor != nil
        rewards.reverse()

        let worker = DateTextFormatter()
        let assets = URL(fileURLWithPath: settings.assetsDirectory, isDirectory: true)
        let items = rewards.map { reward in
            CollectionItem(holdPath: assets.appendingPathComponent(reward.hold.artworkPath).path, place: reward.placeName,
                           date: worker.text(reward.meetupStartsAt, timeZone: reward.meetupTimeZone, locale: settings.clubLocale,
                                             pattern: settings.datePattern))
        }
        let progress = try hostID == nil ? domain.progress.progress(memberID: memberID) : nil
        let content = CollectionContent(
            memberName: member.displayName, items: items, firstDate: items.first?.date, lastDate: items.last?.date,
            progress: progress.map {
                CollectionProgress(collected: $0.collected, total: $0.total, currentStreakWeeks: $0.streak.current,
                                   longestStreakWeeks: $0.streak.longest)
            })
        return CollectionRequest(content: content, scale: scale)
    }

    private func describe(_ digest: String, _ request: CollectionRequest, cached: Bool) throws -> CollectionImage {
        let url = store.url(digest: digest, fileExtension: "png")
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        return CollectionImage(url: url, digest: digest, byteCount: size?.int64Value ?? 0, holdCount: request.content.items.count,
                               wasCached: cached)
    }

    private func withRenderer<T>(_ body: (any CollectionImageRenderer) throws -> T) throws -> T {
        let box: RendererBox
        if let reused = idle.withLock({ $0.popLast() }) {
            box = reused
        } else {
            do {
                box = RendererBox(try rendererFactory())
            } catch {
                throw PipelineError(kind: .rendererUnavailable(message: "\(error)"))
            }
        }
        defer { idle.withLock { if $0.count < Self.maximumIdle { $0.append(box) } } }
        return try body(box.renderer)
    }
}

/// Moves a renderer between the pool and the one thread using it.
private final class RendererBox: @unchecked Sendable {
    let renderer: any CollectionImageRenderer
    init(_ renderer: any CollectionImageRenderer) { self.renderer = renderer }
}
