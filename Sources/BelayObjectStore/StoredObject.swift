import Foundation

/// One object as a listing or a `HEAD` describes it.
public struct StoredObject: Sendable, Equatable {
    /// The bucket-relative key.
    public let key: String
    public let size: Int64
    /// When the store last wrote it (a put, or a copy onto itself).
    public let lastModified: Date?
    /// The store's entity tag, quotes removed.
    public let etag: String
    /// `Content-Type`, when a `HEAD` gave it.
    public var contentType: String?

    public init(key: String, size: Int64, lastModified: Date?, etag: String, contentType: String? = nil) {
        self.key = key
        self.size = size
        self.lastModified = lastModified
        self.etag = etag
        self.contentType = contentType
    }
}
