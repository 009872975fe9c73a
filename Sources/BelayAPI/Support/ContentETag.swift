import BelayCore
import BelayDomain
import Foundation

/// A strong ETag naming content by its digest: `"<sha-256 hex>"`.
enum ContentETag {
    /// The ETag of `bytes`.
    static func of(_ bytes: [UInt8]) -> String { "\"" + Crypto.hex(Crypto.sha256(bytes)) + "\"" }
}
