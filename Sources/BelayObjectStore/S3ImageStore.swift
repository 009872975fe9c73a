import BelayPipeline
import Foundation

/// Reward images in a bucket: the object at `<prefix>images/<fan-out>/<digest>.<extension>`
/// holds what the directory store keeps at `<data directory>/images/<fan-out>/…`, so a reward
/// row's path (`images/ab/ab….png`) is the key after the prefix.
///
/// Uploads carry the image's type, `Cache-Control: public, max-age=31536000, immutable` (the
/// key names the content) and its SHA-256, which the store checks. A render asks first
/// (`HEAD`) whether the image is there, so identical stickers are uploaded once; what this
/// process uploaded or found lately is not asked about again (`HeldImageMemory`). A store that
/// does not answer, or answers 5xx after the client's retries, is reported as a transient
/// `ImageStoreError`: the render waits and is tried again, and the job is not failed for it.
public struct S3ImageStore: RewardImageStore {
    public let client: S3Client
    /// Put before every key: empty, or ending in `/`.
    public let prefix: String
    /// An image older than this that a render finds and reuses is copied onto itself first,
    /// so `belay gc` (which spares objects younger than its grace period, `--min-age`, 10
    /// minutes unless told otherwise) cannot remove it in the moment before a reward row points
    /// at it. Half that grace period by default, as the directory store touches a file it reuses.
    public let refreshAge: TimeInterval
    private let now: @Sendable () -> Date
    /// What this process uploaded or found lately, shared by the copies of this store.
    private let held = HeldImageMemory()

    /// What an uploaded image's `Cache-Control` says.
    public static let cacheControl = "public, max-age=31536000, immutable"

    public init(client: S3Client, prefix: String, refreshAge: TimeInterval = 300, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.refreshAge = refreshAge
        self.now = now
    }

    public var location: String { "s3://\(client.settings.bucket)/\(prefix)\(RenderPipelineSettings.imagesFolder)/" }

    /// The key of the image a reward row names by `rowPath` (`images/ab/ab….png`).
    public func key(forRowPath rowPath: String) -> String { prefix + rowPath }

    /// The key of the image with this digest.
    public func key(digest: String, fileExtension: String) -> String {
        key(forRowPath: "\(RenderPipelineSettings.imagesFolder)/\(digest.prefix(2))/\(digest).\(fileExtension)")
    }

    /// `image/png` or `image/jpeg`, by the extension.
    public static func contentType(forExtension fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        default: return "application/octet-stream"
        }
    }

    public func holdsImage(digest: String, fileExtension: String) -> Bool {
        let key = key(digest: digest, fileExtension: fileExtension)
        let moment = now()
        if let dated = held.dated(key), moment.timeIntervalSince(dated) <= refreshAge { return true }
        guard let object = try? client.head(key), object.size > 0 else {
            held.forget(key)
            return false
        }
        if let modified = object.lastModified, moment.timeIntervalSince(modified) <= refreshAge {
            held.remember(key, dated: modified)
            return true
        }
        // Not refreshed: the render uploads the image again, which dates it as well.
        guard (try? client.refresh(key, contentType: Self.contentType(forExtension: fileExtension), cacheControl: Self.cacheControl)) != nil else {
            return false
        }
        held.remember(key, dated: moment)
        return true
    }

    public func containsImage(digest: String, fileExtension: String) -> Bool {
        guard let object = try? client.head(key(digest: digest, fileExtension: fileExtension)) else { return false }
        return object.size > 0
    }

    public func isMissingImage(digest: String, fileExtension: String) -> Bool {
        do {
            guard let object = try client.head(key(digest: digest, fileExtension: fileExtension)) else { return true }
            return object.size == 0
        } catch {
            return false
        }
    }

    public func storeImage(_ bytes: [UInt8], digest: String, fileExtension: String) throws {
        let key = key(digest: digest, fileExtension: fileExtension)
        do {
            let started = now()
            try client.put(key, bytes: bytes, contentType: Self.contentType(forExtension: fileExtension), cacheControl: Self.cacheControl)
            // Dated no earlier than the request's start.
            held.remember(key, dated: started)
        } catch let error as ObjectStoreError where error.isTransient {
            throw ImageStoreError.unavailable(location, operation: "upload \(key) to", detail: "\(error)")
        }
    }

    public func storedImages() throws -> [StoredRewardImage] {
        let folder = prefix + RenderPipelineSettings.imagesFolder + "/"
        var images: [StoredRewardImage] = []
        var continuation: String?
        do {
            repeat {
                let page = try client.list(prefix: folder, continuation: continuation)
                for object in page.objects {
                    let name = object.key.split(separator: "/").last.map(String.init) ?? ""
                    guard let dot = name.firstIndex(of: "."), object.key == key(digest: String(name[..<dot]), fileExtension: String(name[name.index(after: dot)...])) else {
                        continue
                    }
                    images.append(StoredRewardImage(digest: String(name[..<dot]), fileExtension: String(name[name.index(after: dot)...]),
                                                    size: object.size, modified: object.lastModified))
                }
                continuation = page.continuation
            } while continuation != nil
        } catch let error as ObjectStoreError {
            throw ImageStoreError.unavailable(location, operation: "list", detail: "\(error)")
        }
        return images
    }

    public func removeImage(digest: String, fileExtension: String) throws {
        let key = key(digest: digest, fileExtension: fileExtension)
        held.forget(key)
        do {
            try client.delete(key)
        } catch let error as ObjectStoreError {
            throw ImageStoreError.unavailable(location, operation: "delete \(key) from", detail: "\(error)")
        }
    }

    public func imageBytes(digest: String, fileExtension: String) throws -> [UInt8] {
        let key = key(digest: digest, fileExtension: fileExtension)
        do {
            return try client.get(key)
        } catch let error as ObjectStoreError where error.isNotFound {
            throw ImageStoreError.missing("s3://\(client.settings.bucket)/\(key)", operation: "read")
        } catch let error as ObjectStoreError where error.isTransient {
            throw ImageStoreError.unavailable(location, operation: "read \(key) from", detail: "\(error)")
        }
    }
}
