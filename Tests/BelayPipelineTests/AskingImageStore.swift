import BelayPipeline
import Foundation
import Synchronization

/// A directory image store that records which digests a render asked it about.
final class AskingImageStore: RewardImageStore, Sendable {
    let inner: ImageStore
    private let asked = Mutex<[String]>([])

    init(root: URL) {
        inner = ImageStore(root: root)
    }

    /// The digests `holdsImage` was asked about, in order.
    var askedDigests: [String] { asked.withLock { $0 } }

    var location: String { inner.location }

    func holdsImage(digest: String, fileExtension: String) -> Bool {
        asked.withLock { $0.append(digest) }
        return inner.holdsImage(digest: digest, fileExtension: fileExtension)
    }

    func containsImage(digest: String, fileExtension: String) -> Bool { inner.containsImage(digest: digest, fileExtension: fileExtension) }
    func storeImage(_ bytes: [UInt8], digest: String, fileExtension: String) throws {
        try inner.storeImage(bytes, digest: digest, fileExtension: fileExtension)
    }
    func imageBytes(digest: String, fileExtension: String) throws -> [UInt8] { try inner.imageBytes(digest: digest, fileExtension: fileExtension) }
    func storedImages() throws -> [StoredRewardImage] { try inner.storedImages() }
    func removeImage(digest: String, fileExtension: String) throws { try inner.removeImage(digest: digest, fileExtension: fileExtension) }
}
