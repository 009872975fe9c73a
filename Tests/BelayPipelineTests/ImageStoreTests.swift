@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

@Suite struct ImageStoreTests {
    @Test(.enabled(if: !PageCache.isMemoryBacked(NSTemporaryDirectory()), "tmpfs keeps every page"))
    func aStoredImageLeavesNoPagesInThePageCache() throws {
        let directory = try TemporaryDirectory(prefix: "belay-images")
        let store = ImageStore(root: directory.url.appendingPathComponent("images"))
        let bytes = [UInt8](repeating: 0xC3, count: 1_400_000)
        let sticker = String(repeating: "1f", count: 32), collection = String(repeating: "2e", count: 32)

        let stickerURL = try store.write(bytes, digest: sticker, fileExtension: "png")
        let collectionURL = try store.write(digest: collection, fileExtension: "png") { path in
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        #expect(PageCache.residentPages(ofFileAt: stickerURL.path) == 0)
        #expect(PageCache.residentPages(ofFileAt: collectionURL.path) == 0)
        #expect(try store.read(digest: sticker, fileExtension: "png") == bytes)
        #expect(try store.read(digest: collection, fileExtension: "png") == bytes)
    }
}
