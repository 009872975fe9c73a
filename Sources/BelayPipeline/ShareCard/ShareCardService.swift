import BelayCore
import BelayDomain
import Foundation
import Synchronization

/// A share card in the store.
public struct ShareCardImage: Sendable, Hashable {
    /// The PNG file.
    public let url: URL
    /// The digest of its content key: use it as the ETag.
    public let digest: String
}

/// The link-preview card of a shared reward (`og:image` of `/s/{slug}`), rendered the first
/// time it is asked for and kept under `<data>/cards` by content: later requests read the
/// file, and a changed template, artwork or name makes a new one.
///
/// One render at a time: cards are drawn once per shared reward, and a crawler fetching the
/// same card from several places at once waits for the first render instead of repeating it.
/// At most `queueCapacity` requests wait or run on the service's thread; beyond that
/// `card(for:then:)` refuses at once (`PipelineError.retryAfterSeconds` says when to retry).
public final class ShareCardService: Sendable {
    private let settings: RenderPipelineSettings
    private let clubName: String
    private let store: ImageStore
    private let rendererFactory: ShareCardRendererFactory
    /// The one renderer, made on first use; the mutex also serialises renders.
    private let renderer = Mutex<RendererHolder?>(nil)
    /// Where `card(for:then:)` renders, off the caller's thread, with a bound on what waits.
    private let renderThread: BoundedWorkQueue
    /// How many requests may wait or run by default: a card takes tens of milliseconds to
    /// draw and a drawn one is read from the store, so the last of them waits seconds at most.
    public static let defaultQueueCapacity = 64
    /// The `Retry-After` of a refusal.
    static let retryAfterSeconds = 5

    /// - Parameter queueCapacity: requests waiting or running on the render thread at most.
    public init(settings: RenderPipelineSettings, clubName: String, queueCapacity: Int = ShareCardService.defaultQueueCapacity,
                rendererFactory: @escaping ShareCardRendererFactory) {
        renderThread = BoundedWorkQueue(name: "belay-share-cards", threads: 1, capacity: queueCapacity)
        self.settings = settings
        self.clubName = clubName
        self.store = ImageStore(root: settings.cardsDirectory)
        self.rendererFactory = rendererFactory
    }

    /// The card of `reward`, read from the store or rendered now.
    /// - Throws: `PipelineError` when no renderer can be made; `ImageStoreError` when the
    ///   data directory refuses the write; the renderer's error for an unusable artwork.
    public func card(for reward: Reward) throws -> ShareCardImage {
        let request = request(for: reward)
        return try renderer.withLock { holder in
            if holder == nil {
                do {
                    holder = RendererHolder(try rendererFactory())
                } catch {
                    throw PipelineError(kind: .rendererUnavailable(message: "\(error)"))
                }
            }
            guard let renderer = holder?.renderer else { throw PipelineError(kind: .rendererUnavailable(message: "no share card renderer")) }
            let digest = try renderer.contentKey(for: request).digest
            if store.contains(digest: digest, fileExtension: "png"), store.touch(digest: digest, fileExtension: "png") {
                return ShareCardImage(url: store.url(digest: digest, fileExtension: "png"), digest: digest)
            }
            let url = try store.write(try renderer.renderCard(request), digest: digest, fileExtension: "png")
            return ShareCardImage(url: url, digest: digest)
        }
    }

    /// The card like `card(for:)`, found or rendered on the service's own thread; `completion`
    /// gets it there. When `queueCapacity` requests are already waiting or running,
    /// `completion` gets a `PipelineError` with `retryAfterSeconds` at once, on the caller's
    /// thread. Keep `completion` short: hand the result on.
    public func card(for reward: Reward, then completion: @escaping @Sendable (Result<ShareCardImage, any Error>) -> Void) {
        let admitted = renderThread.submit { [self] in completion(Result { try card(for: reward) }) }
        if !admitted {
            completion(.failure(PipelineError.queueFull("share cards", capacity: renderThread.capacity,
                                                        retryAfterSeconds: Self.retryAfterSeconds)))
        }
    }

    /// What the card of `reward` shows: its sticker (at 2x), the hold, the club.
    public func request(for reward: Reward) -> ShareCardRequest {
        let assets = URL(fileURLWithPath: settings.assetsDirectory, isDirectory: true)
        let date = DateTextFormatter().text(reward.meetupStartsAt, timeZone: reward.meetupTimeZone, locale: settings.clubLocale,
                                            pattern: settings.datePattern)
        var image = RewardImageRequest(
            holdArtworkPath: assets.appendingPathComponent(reward.hold.artworkPath).path,
            backgroundPath: assets.appendingPathComponent(reward.background.filePath).path,
            topColor: reward.background.topColor, bottomColor: reward.background.bottomColor,
            placeName: reward.placeName, dateText: date, stickerScale: 2, storyFormat: .png, language: settings.clubLocale)
        image.achievementLine = settings.achievementText(checkInNumber: reward.checkInNumber, streakMilestone: reward.streakMilestone)
        image.clubLogoPath = settings.clubLogoPath
        return ShareCardRequest(image: image, holdName: settings.holdNames.name(of: reward.hold, locale: settings.clubLocale),
                                clubName: clubName)
    }
}

/// Moves the renderer into the mutex.
private final class RendererHolder: @unchecked Sendable {
    let renderer: any ShareCardRenderer
    init(_ renderer: any ShareCardRenderer) { self.renderer = renderer }
}
