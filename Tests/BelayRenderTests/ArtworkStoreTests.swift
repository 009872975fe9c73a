import BelayTestSupport
import Foundation
import Testing
@testable import BelayRender

/// What a renderer keeps of the artwork it reads.
struct ArtworkStoreTests {
    @Test func everyBackgroundOfTheCatalogueFittedForAStickerStaysKeptWithinTheBudget() throws {
        let backgrounds = try FileManager.default.contentsOfDirectory(
            atPath: BelayProcess.packageRoot.appendingPathComponent("Assets/backgrounds").path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(backgrounds.count >= 5)
        let store = ArtworkStore(limits: BuiltInSettings.render().limits, cacheBytes: 40 << 20)
        var fitted: [Pixmap] = []
        for name in backgrounds {
            let path = BelayProcess.packageRoot.appendingPathComponent("Assets/backgrounds/\(name)").path
            fitted.append(try store.pixmap(path, variant: "sticker-card@3x") { StickerTemplate.cardBackground($0, scale: 3.0, parallelism: 1) })
        }
        // The full-size photographs (1080x1440, 6 MB each decoded) were read only to be fitted:
        // keeping them pushed the fitted ones out, and each burst's first stickers decoded again.
        #expect(store.keptBytes == fitted.reduce(0) { $0 + $1.bytes.count })
    }
}
