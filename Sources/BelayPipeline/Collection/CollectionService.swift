import BelayDomain
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
/// made on demand, so concurrent requests never share one.
public final class CollectionService: Sendable {
    private let domain: DomainServices
    private let settings: RenderPipelineSettings
    private let store: ImageStore
    private let rendererFactory: CollectionImageRendererFactory
    private let idle = Mutex<[RendererBox]>([])
    private static let maximumIdle = 4

    public init(domain: DomainServices, settings: RenderPipelineSettings, rendererFactory: @escaping CollectionImageRendererFactory) {
        self.domain = domain
        self.settings = settings
        self.store = ImageStore(root: settings.collectionsDirectory)
        self.rendererFactory = rendererFactory
    }

    /// The collection image of a member at `scale`, rendered now or taken from the cache;
    /// with `hostID`, only the rewards from meetups that host hosts (what a host may see).
    /// - Throws: `PipelineError` (`isMemberNotFound`) for an unknown member or a scale other
    ///   than 1–3; `ImageStoreError` when the data directory refuses the write (transient:
    ///   disk full, read-only); the renderer's error (naming the file) for a bad artwork;
    ///   `DomainError` when the database fails.
    public func image(memberID: Int64, scale: Int = 2, hostedBy hostID: Int64? = nil) throws -> CollectionImage {
        guard (1...3).contains(scale) else { throw PipelineError.invalidSetting("scale", "must be 1, 2 or 3 (got \(scale))") }
        let request = try request(memberID: memberID, scale: scale, hostedBy: hostID)
        return try withRenderer { renderer in
            let digest = ContentDigest.hex(of: try renderer.contentKey(for: request))
            if store.contains(digest: digest, fileExtension: "png"), store.touch(digest: digest, fileExtension: "png") {
                return try describe(digest, request, cached: true)
            }
            try store.write(digest: digest, fileExtension: "png") { path in try renderer.renderPNG(request, toFile: path) }
            return try describe(digest, request, cached: false)
        }
    }

    /// What the collection of a member shows: every active reward, oldest first; with
    /// `hostID`, only those from meetups that host hosts.
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
        let entries = rewards.map { reward in
            CollectionEntry(holdArtworkPath: assets.appendingPathComponent(reward.hold.artworkPath).path, holdName: reward.hold.name,
                            placeName: reward.placeName,
                            dateText: worker.text(reward.meetupStartsAt, timeZone: reward.meetupTimeZone, locale: settings.clubLocale,
                                                  pattern: settings.datePattern))
        }
        return CollectionRequest(memberName: member.displayName, entries: entries, firstDateText: entries.first?.dateText,
                                 lastDateText: entries.last?.dateText, scale: scale)
    }

    private func describe(_ digest: String, _ request: CollectionRequest, cached: Bool) throws -> CollectionImage {
        let url = store.url(digest: digest, fileExtension: "png")
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        return CollectionImage(url: url, digest: digest, byteCount: size?.int64Value ?? 0, holdCount: request.entries.count,
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
