#if canImport(Glibc)
import Glibc
#endif
import BelayAPI
@testable import BelayComposition
import BelayPipeline
import Foundation
import Testing

@Suite struct BackgroundPriorityRendererTests {
    @Test func rendersRunAtALowerPriorityOnlyOnTheirOwnThread() throws {
        let factory = BackgroundPriorityRenderer.wrapping { FakeStickerRenderer() }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let callerPriority = getpriority(which, 0)
        let observed = ObservedPriority()
        let thread = Thread {
            // Made and used on this thread, as a render worker does.
            guard let renderer = try? factory() else { return observed.set(priority: -1, rendered: false) }
            let request = RewardImageRequest(holdArtworkPath: "/h.png", backgroundPath: "/b.png", topColor: "#000000",
                                             bottomColor: "#FFFFFF", placeName: "Gym", dateText: "2026.11.29 (일)")
            let files = try? renderer.render(request, sticker: true, story: true)
            observed.set(priority: getpriority(which, 0), rendered: files?.sticker != nil)
        }
        thread.start()
        let (priority, rendered) = observed.wait()
        #expect(rendered)
        #expect(priority == BackgroundPriorityRenderer.niceness)
        #expect(getpriority(which, 0) == callerPriority)
        #expect(try factory().templateVersion == FakeStickerRenderer().templateVersion)
    }
}

private final class ObservedPriority: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: (Int32, Bool)?

    func set(priority: Int32, rendered: Bool) {
        condition.lock()
        value = (priority, rendered)
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> (Int32, Bool) {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
