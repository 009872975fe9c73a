import Foundation

/// Where a reward's images stand.
public enum RenderStatus: String, Sendable, CaseIterable, Codable {
    /// Waiting for a render worker.
    case pending
    /// The sticker exists: the reward can be shared (its story may still be rendering).
    case ready
    /// Rendering failed `maxAttempts` times; `failureReason` says why.
    case failed
}

/// The rendered images of a reward, content-addressed.
public struct RenderedImages: Sendable, Hashable {
    public let stickerHash: String
    /// Where the pipeline stored the sticker PNG (relative to its data directory).
    public let stickerPath: String
    /// Nil while the story is still rendering (the sticker is stored first).
    public let storyHash: String?
    public let storyPath: String?
    /// The template version they were rendered with; older ones are re-rendered by the backfill.
    public let templateVersion: Int
    public let renderedAt: Date
}

/// The hold a member earned by checking in, with what is needed to show and share it.
public struct Reward: Sendable, Hashable {
    public let id: Int64
    public let attendanceID: Int64
    public let memberID: Int64
    public let meetupID: Int64
    public let hold: Hold
    public let background: Background
    /// N when this was the member's Nth check-in and N is a milestone.
    public let milestone: Int?
    /// N when this check-in made the member's weekly streak reach N weeks for the first time
    /// and N is a streak milestone.
    public let streakMilestone: Int?
    public let awardedAt: Date
    /// Set when a host undid the check-in; revoked rewards are kept, not deleted.
    public let revokedAt: Date?
    public let renderStatus: RenderStatus
    /// Present once rendered (also while a re-render with a newer template is pending).
    public let images: RenderedImages?
    public let failureReason: String?
    public let meetupTitle: String
    public let placeName: String
    public let meetupStartsAt: Date
    /// IANA identifier of the meetup's time zone (the sticker shows the date in it).
    public let meetupTimeZone: String
    /// The member's check-in number this reward is for (1 for their first); nil while its
    /// check-in is undone.
    public var checkInNumber: Int? = nil

    public var isRevoked: Bool { revokedAt != nil }
}

/// What `RewardService.awardMissingRewards` did.
public struct AwardReport: Sendable, Hashable {
    /// Ids of the rewards created, in check-in order.
    public var awarded: [Int64] = []
    /// Checked-in attendances still without a reward because the catalogue has no
    /// eligible hold or background (import the catalogue, then run again).
    public var skippedWithoutCatalog = 0
    /// True when `limit` stopped the run before every attendance was looked at.
    public var hasMore = false
}
