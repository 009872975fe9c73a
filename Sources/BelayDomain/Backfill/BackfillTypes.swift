import Foundation

/// The image files a `ready` reward's row points at (paths relative to the data directory).
public struct RewardImagePaths: Sendable, Hashable {
    public let rewardID: Int64
    public let stickerPath: String
    /// Nil while the story is still to follow.
    public let storyPath: String?
}

/// Render jobs in flight for a scope of rewards.
public struct ScopedQueueState: Sendable, Hashable {
    /// Queued and claimable now.
    public let due: Int
    /// Queued but waiting for a retry back-off.
    public let waiting: Int
    /// When the earliest waiting job becomes claimable.
    public let nextRetryAt: Date?
    /// Claimed by a worker.
    public let running: Int
    /// When the earliest lease of a running job ends (it can be claimed again then).
    public var runningLeaseEndsAt: Date? = nil

    /// Everything not yet finished.
    public var inFlight: Int { due + waiting + running }
}

/// What the backfill would render, by kind (for `--dry-run`).
public struct RenderNeedCounts: Sendable, Hashable, Codable {
    public var missing = 0
    public var outdated = 0
    public var failed = 0
    /// `ready` rewards whose image files are gone from the data directory.
    public var filesMissing = 0

    public init() {}

    public var total: Int { missing + outdated + failed + filesMissing }
}
