import BelayCore

/// A strong ETag naming content by its digest: `"<sha-256 hex>"`.
enum ContentETag {
    /// The ETag of `bytes`.
    static func of(_ bytes: [UInt8]) -> String { "\"" + ContentDigest.hex(of: bytes) + "\"" }
}
