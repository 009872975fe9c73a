import Foundation

/// One backup in the bucket.
public struct StoredBackup: Sendable, Equatable, Codable {
    /// The object's name after the prefix: `belay-<UTC time>.sqlite3.gz`.
    public let name: String
    /// Compressed bytes.
    public let size: Int64
    public let created: Date?
}
