import Foundation

/// One image a `RewardImageStore` lists.
public struct StoredRewardImage: Sendable, Equatable {
    public let digest: String
    public let fileExtension: String
    public let size: Int64
    /// When it was last written (or, in a directory, touched); nil when the store does not say.
    public let modified: Date?

    public init(digest: String, fileExtension: String, size: Int64, modified: Date?) {
        self.digest = digest
        self.fileExtension = fileExtension
        self.size = size
        self.modified = modified
    }

    /// The path a reward row names it by: `images/<fan-out>/<digest>.<extension>`.
    public var rowPath: String { "\(RenderPipelineSettings.imagesFolder)/\(digest.prefix(2))/\(digest).\(fileExtension)" }
}
