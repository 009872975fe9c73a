import BelayCore
import BelayPipeline

/// A renderer that lowers the scheduling priority of the thread it renders on (nice 19, the
/// lowest: with spare CPU it changes nothing, and under a check-in burst renders take what
/// requests leave).
///
/// Render workers and the scheduled backfill share the machine with request handling; under
/// load the kernel then runs requests first and renders in the time left over, so a burst of
/// check-ins is answered promptly and its stickers follow. With spare CPU (the usual case)
/// nothing changes: renders start at once.
final class BackgroundPriorityRenderer: RewardImageRenderer {
    private let renderer: any RewardImageRenderer

    init(_ renderer: any RewardImageRenderer) { self.renderer = renderer }

    /// Wraps every renderer `factory` makes.
    static func wrapping(_ factory: @escaping RewardImageRendererFactory) -> RewardImageRendererFactory {
        { BackgroundPriorityRenderer(try factory()) }
    }

    /// The nice value render threads run at.
    static let niceness = BackgroundThreadPriority.niceness

    var templateVersion: Int { renderer.templateVersion }

    func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys {
        BackgroundThreadPriority.lowerThisThread()
        return try renderer.contentKeys(for: request)
    }

    func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles {
        BackgroundThreadPriority.lowerThisThread()
        return try renderer.render(request, sticker: sticker, story: story)
    }

    func bakeBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8] {
        try renderer.bakeBadge(credential, into: sticker)
    }

    func preloadArtwork(for request: RewardImageRequest) throws {
        BackgroundThreadPriority.lowerThisThread()
        try renderer.preloadArtwork(for: request)
    }
}
