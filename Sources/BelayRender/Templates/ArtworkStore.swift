import BelayCore
import Foundation

/// Reads artwork files for one renderer: decodes them (within the limits) and fingerprints
/// them (SHA-256), remembering both per file identity (device, inode, size, modification
/// time), so an artwork used by many renders is decoded and hashed once; a changed file is
/// read again. Artwork resized for a template (a card's background at 3x, a fitted hold) is
/// kept the same way, so a repeated artwork is not resampled again; decoded and resized
/// pixmaps share one byte budget, least recently used first out. A file decoded only to be
/// resized is not kept: a template uses the resized pixmap, and a full-size photograph would
/// push several resized ones out of the budget.
final class ArtworkStore {
    private let limits: ImageLimits
    private let cacheBytes: Int
    private var pixmaps: [CacheKey: (pixmap: Pixmap, lastUse: Int)] = [:]
    private var cachedBytes = 0
    private var fingerprints: [FileIdentity: String] = [:]
    private var clock = 0

    /// A decoded file (`variant` "") or a pixmap made from it (`variant` names how).
    private struct CacheKey: Hashable {
        var file: FileIdentity
        var variant: String
    }

    struct FileIdentity: Hashable {
        var path: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    /// Bytes of the pixmaps kept now.
    var keptBytes: Int { cachedBytes }

    init(limits: ImageLimits, cacheBytes: Int) {
        self.limits = limits
        self.cacheBytes = cacheBytes
    }

    /// The decoded artwork at `path`.
    /// - Throws: `RenderError` naming the file when it cannot be read or decoded.
    func pixmap(_ path: String) throws -> Pixmap {
        try pixmap(CacheKey(file: try Self.identity(of: path), variant: ""))
    }

    /// The artwork at `path` after `make` (a resize for a template), made once per file and
    /// `variant`: `variant` must name everything `make` depends on (size, fit).
    /// - Throws: `RenderError` naming the file when it cannot be read or decoded.
    func pixmap(_ path: String, variant: String, make: (Pixmap) -> Pixmap) throws -> Pixmap {
        let identity = try Self.identity(of: path)
        let key = CacheKey(file: identity, variant: variant)
        clock += 1
        if let cached = pixmaps[key] {
            pixmaps[key]?.lastUse = clock
            return cached.pixmap
        }
        let made = make(try pixmap(CacheKey(file: identity, variant: ""), keep: false))
        remember(made, as: key)
        return made
    }

    private func pixmap(_ key: CacheKey, keep: Bool = true) throws -> Pixmap {
        clock += 1
        if let cached = pixmaps[key] {
            pixmaps[key]?.lastUse = clock
            return cached.pixmap
        }
        let pixmap = try ImageDecoder.decode(contentsOf: key.file.path, limits: limits)
        if keep { remember(pixmap, as: key) }
        return pixmap
    }

    /// `sha256:<hex>` of the file's bytes.
    /// - Throws: `RenderError` naming the file when it cannot be read.
    func fingerprint(_ path: String) throws -> String {
        let identity = try Self.identity(of: path)
        if let known = fingerprints[identity] { return known }
        let bytes = try FileIO.read(path, limit: limits.maxFileBytes)
        let fingerprint = "sha256:" + ContentDigest.hex(of: bytes)
        if fingerprints.count > 4096 { fingerprints.removeAll() }
        fingerprints[identity] = fingerprint
        return fingerprint
    }

    private func remember(_ pixmap: Pixmap, as identity: CacheKey) {
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
