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

    /// True when the image is stored (nothing else changes); false also when the store cannot
    /// be asked.
    func containsImage(digest: String, fileExtension: String) -> Bool

    /// True only when the store says the image is not there: a store that cannot be asked
    /// (a bucket that is down) does not make the backfill render everything again.
    func isMissingImage(digest: String, fileExtension: String) -> Bool

    /// Stores `bytes` as the image with this digest, whole or not at all.
    /// - Throws: `ImageStoreError` (transient when the store is full, read-only, down or busy:
    ///   the render waits and is retried).
    func storeImage(_ bytes: [UInt8], digest: String, fileExtension: String) throws

    /// The stored image's bytes.
    /// - Throws: `ImageStoreError` (`.missing` when it is not stored).
    func imageBytes(digest: String, fileExtension: String) throws -> [UInt8]

    /// Every complete image stored, in name order (leftover temporary files are not images).
    /// - Throws: `ImageStoreError` when the store cannot be listed.
    func storedImages() throws -> [StoredRewardImage]

    /// Removes one image (one already gone is no error).
    /// - Throws: `ImageStoreError` when it cannot be removed.
    func removeImage(digest: String, fileExtension: String) throws
}

extension RewardImageStore {
    public func isMissingImage(digest: String, fileExtension: String) -> Bool {
        !containsImage(digest: digest, fileExtension: fileExtension)
    }
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

    public func storedImages() throws -> [StoredRewardImage] {
        let files: [StoredImageFile]
        do {
            files = try storedFiles()
        } catch let error as ImageStoreError {
            throw error
        } catch {
            throw ImageStoreError.fromErrno(EIO, path: root.path, operation: "list")
        }
        return files.compactMap { file in
            guard let digest = file.digest, let dot = file.name.firstIndex(of: ".") else { return nil }
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.url.path))?[.modificationDate] as? Date
            return StoredRewardImage(digest: digest, fileExtension: String(file.name[file.name.index(after: dot)...]), size: file.size,
                                     modified: modified)
        }
    }

    public func removeImage(digest: String, fileExtension: String) throws {
        let url = url(digest: digest, fileExtension: fileExtension)
        try remove(StoredImageFile(url: url, name: url.lastPathComponent, size: 0))
    }
}
