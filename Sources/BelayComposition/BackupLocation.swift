import BelayObjectStore

/// A place for backups in a bucket: `s3://bucket/prefix/`.
public struct BackupLocation: Sendable, Equatable, CustomStringConvertible {
    public let bucket: String
    /// Empty, or ending in `/`.
    public let prefix: String

    /// Parses `s3://bucket/prefix/`; nil for anything else.
    public init?(_ text: String) {
        guard text.hasPrefix("s3://") else { return nil }
        let rest = text.dropFirst(5)
        let bucket = String(rest.prefix { $0 != "/" })
        guard S3Client.isBucketName(bucket) else { return nil }
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        self.bucket = bucket
        self.prefix = prefix
    }

    public var description: String { "s3://\(bucket)/\(prefix)" }
}
