#if canImport(Glibc)
import Glibc
#endif
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
    static let niceness: Int32 = 19

    var templateVersion: Int { renderer.templateVersion }

    func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys {
        Self.lowerPriorityOfThisThread()
        return try renderer.contentKeys(for: request)
    }

    func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles {
        Self.lowerPriorityOfThisThread()
        return try renderer.render(request, sticker: sticker, story: story)
    }

    /// On Linux the nice value belongs to the thread, and `who` 0 names the calling thread.
    static func lowerPriorityOfThisThread() {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
