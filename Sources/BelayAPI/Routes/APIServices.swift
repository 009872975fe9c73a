import BelayDomain
import BelayHTTP
import BelayPipeline
import BelayRepresentations
import Foundation

/// Renders a member's whole collection as one PNG, cached by content (the pipeline's
/// collection service behind a seam the tests can replace).
public protocol CollectionImageSource: Sendable {
    /// The PNG of `memberID`'s collection at `scale` (1–3) and the digest naming its content;
    /// with `hostID`, drawn only from the rewards of meetups that host hosts.
    /// - Throws: `DomainError.userNotFound` for an unknown member; anything else is a failure.
    func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?) throws -> (file: URL, digest: String)

    /// The same, made off the calling thread: `completion` gets it on another thread.
    func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?,
                         then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void)
}

extension CollectionImageSource {
    /// Runs `collectionImage(memberID:scale:hostedBy:)` on a global queue.
    public func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?,
                                then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void) {
        DispatchQueue.global(qos: .utility).async {
            completion(Result { try collectionImage(memberID: memberID, scale: scale, hostedBy: hostID) })
        }
    }
}

/// Renders the link-preview card of a shared reward, cached by content (the pipeline's
/// share-card service behind a seam the tests can replace).
public protocol ShareCardSource: Sendable {
    /// The card's PNG file and the digest naming its content.
    /// - Throws: the renderer's or the store's error.
    func shareCard(for reward: Reward) throws -> (file: URL, digest: String)

    /// The same, made off the calling thread: `completion` gets it on another thread.
    func shareCard(for reward: Reward, then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void)
}

extension ShareCardService: ShareCardSource {
    public func shareCard(for reward: Reward) throws -> (file: URL, digest: String) {
        let card = try card(for: reward)
        return (card.url, card.digest)
    }

    public func shareCard(for reward: Reward, then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void) {
        card(for: reward) { outcome in completion(outcome.map { ($0.url, $0.digest) }) }
    }
}

/// Everything the handlers use, built once by `buildApplication`.
public struct APIServices: Sendable {
    public let domain: DomainServices
    public let presentation: Presentation
    /// The absolute file of an image path stored on a reward row, or nil when the path does
    /// not lie inside the image store.
    public let imageFile: @Sendable (String) -> URL?
    public let metrics: APIMetrics
    /// Nil when this server cannot render collections.
    public let collections: (any CollectionImageSource)?
    /// The club as an Open Badges issuer; nil when badges are not issued (tests).
    public let badges: BadgeIssuer?
    /// Nil when this server cannot render share cards.
    public let shareCards: (any ShareCardSource)?
    /// The club's language and apps, for share pages and app-link files.
    public let sharePageSettings: SharePageSettings
    /// Whether the database is reachable and its schema current; the problem when not.
    public let readiness: @Sendable () -> ReadinessReport
    /// The Prometheus text of everything `/metrics` shows.
    public let metricsText: @Sendable () -> String
    /// Calendar feed settings (reminders, event UIDs).
    public let calendar: CalendarSettings
    /// Where hold artwork is read from (`assets_directory`); nil when this server serves none.
    public let assetsDirectory: String?
    /// Draws logbook pictures (the grade pyramid); nil when this server draws none.
    public var logbookPictures: LogbookPictureService?
    /// How reward images in a bucket are served; nil when they are files under the data directory.
    public let remoteImages: RemoteImageServing?

    public init(domain: DomainServices, presentation: Presentation, imageFile: @escaping @Sendable (String) -> URL?,
                metrics: APIMetrics,
                collections: (any CollectionImageSource)?, shareCards: (any ShareCardSource)? = nil, badges: BadgeIssuer? = nil,
                sharePageSettings: SharePageSettings,
                readiness: @escaping @Sendable () -> ReadinessReport,
                metricsText: @escaping @Sendable () -> String,
                calendar: CalendarSettings,
                assetsDirectory: String? = nil, remoteImages: RemoteImageServing? = nil) {
        self.remoteImages = remoteImages
        self.shareCards = shareCards
        self.badges = badges
        self.sharePageSettings = sharePageSettings
        self.domain = domain
        self.presentation = presentation
        self.imageFile = imageFile
        self.metrics = metrics
        self.collections = collections
        self.readiness = readiness
        self.metricsText = metricsText
        self.calendar = calendar
        self.assetsDirectory = assetsDirectory
    }
}

/// The answer of `/readyz`.
public struct ReadinessReport: Sendable {
    /// Each check by name with "ok" or what is wrong.
    public var checks: [(name: String, status: String)]
    public var isReady: Bool

    public init(checks: [(name: String, status: String)], isReady: Bool) {
        self.checks = checks
        self.isReady = isReady
    }
}

extension CollectionService: CollectionImageSource {
    public func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?) throws -> (file: URL, digest: String) {
        let image = try image(memberID: memberID, scale: scale, hostedBy: hostID)
        return (image.url, image.digest)
    }

    /// Rendered on the collection service's own threads, one render per content key.
    public func collectionImage(memberID: Int64, scale: Int, hostedBy hostID: Int64?,
                                then completion: @escaping @Sendable (Result<(file: URL, digest: String), any Error>) -> Void) {
        image(memberID: memberID, scale: scale, hostedBy: hostID) { outcome in completion(outcome.map { ($0.url, $0.digest) }) }
    }
}
