import Foundation

/// Reads artwork files for one renderer: decodes them (within the limits) and fingerprints
/// them (SHA-256), remembering both per file identity (device, inode, size, modification
/// time), so an artwork used by many renders is decoded and hashed once; a changed file is
/// read again.
final class ArtworkStore {
    private let limits: ImageLimits
    private let cacheBytes: Int
    private var pixmaps: [FileIdentity: (pixmap: Pixmap, lastUse: Int)] = [:]
    private var cachedBytes = 0
    private var fingerprints: [FileIdentity: String] = [:]
    private var clock = 0

    struct FileIdentity: Hashable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    init(limits: ImageLimits, cacheBytes: Int) {
        self.limits = limits
        self.cacheBytes = cacheBytes
    }

    /// The decoded artwork at `path`.
    /// - Throws: `RenderError` naming the file when it cannot be read or decoded.
    func pixmap(_ path: String) throws -> Pixmap {
        let identity = try Self.identity(of: path)
        clock += 1
        if let cached = pixmaps[identity] {
            pixmaps[identity]?.lastUse = clock
            return cached.pixmap
        }
        let pixmap = try ImageDecoder.decode(contentsOf: path, limits: limits)
        remember(pixmap, as: identity)
        return pixmap
    }

    /// `sha256:<hex>` of the file's bytes.
    /// - Throws: `RenderError` naming the file when it cannot be read.
    func fingerprint(_ path: String) throws -> String {
        let identity = try Self.identity(of: path)
        if let known = fingerprints[identity] { return known }
        let bytes = try FileIO.read(path, limit: limits.maxFileBytes)
        let fingerprint = "sha256:" + SHA256Digest.hex(of: bytes)
        if fingerprints.count > 4096 { fingerprints.removeAll() }
        fingerprints[identity] = fingerprint
        return fingerprint
    }

    private func remember(_ pixmap: Pixmap, as identity: FileIdentity) {
        let size = pixmap.bytes.count
        guard size <= cacheBytes else { return }
        while cachedBytes + size > cacheBytes, let oldest = pixmaps.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            pixmaps[oldest.key] = nil
            cachedBytes -= oldest.value.pixmap.bytes.count
        }
        pixmaps[identity] = (pixmap, clock)
        cachedBytes += size
    }

    static func identity(of path: String) throws -> FileIdentity {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw RenderError(.unreadableFile(path: path, reason: String(cString: strerror(errno))))
        }
        return FileIdentity(
            path: path, device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedSeconds: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec)
    }
}
