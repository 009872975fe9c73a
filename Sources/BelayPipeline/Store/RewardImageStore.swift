import Foundation

/// Where reward images (stickers and stories) are kept, by the content-addressed names of
/// `ImageStore`: `<fan-out>/<digest>.<extension>`.
///
/// Two stores do this: `ImageStore`, a directory on this machine (or one every node mounts),
/// and a bucket of an S3-compatible object store (`BelayObjectStore.S3ImageStore`), which
/// nodes on separate machines share. The render pipeline names what it needs, never which
/// store answers. Every method is safe to call from several threads at once.
public protocol RewardImageStore: Sendable {
    /// Where the images are, for messages: a directory's path or a bucket's `s3://` address.
    var location: String { get }

    /// True when a complete image with this digest is stored; a stored one is kept from
    /// `belay gc` for its grace period again, as a render is about to point a row at it.
    /// False also when the store cannot be asked: the render then stores the image itself,
    /// and that write reports the store's trouble.
    func holdsImage(digest: String, fileExtension: String) -> Bool

    /// True when the image is stored (nothing else changes).
    func containsImage(digest: String, fileExtension: String) -> Bool

    /// Stores `bytes` as the image with this digest, whole or not at all.
    /// - Throws: `ImageStoreError` (transient when the store is full, read-only, down or busy:
    ///   the render waits and is retried).
    func storeImage(_ bytes: [UInt8], digest: String, fileExtension: String) throws

    /// The stored image's bytes.
    /// - Throws: `ImageStoreError` (`.missing` when it is not stored).
    func imageBytes(digest: String, fileExtension: String) throws -> [UInt8]
}

extension ImageStore: RewardImageStore {
    public var location: String { root.path }

    public func holdsImage(digest: String, fileExtension: String) -> Bool {
        contains(digest: digest, fileExtension: fileExtension) && touch(digest: digest, fileExtension: fileExtension)
    }

    public func containsImage(digest: String, fileExtension: String) -> Bool {
        contains(digest: digest, fileExtension: fileExtension)
    }

    public func storeImage(_ bytes: [UInt8], digest: String, fileExtension: String) throws {
        try write(bytes, digest: digest, fileExtension: fileExtension)
    }

    public func imageBytes(digest: String, fileExtension: String) throws -> [UInt8] {
        try read(digest: digest, fileExtension: fileExtension)
    }
}
