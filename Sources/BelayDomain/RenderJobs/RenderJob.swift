import Foundation

/// Why a render job was queued.
public enum RenderJobReason: String, Sendable, CaseIterable, Codable {
    /// A new reward from a check-in.
    case award
    /// A reward created by `awardMissingRewards`, or images found missing.
    case backfill
    /// Images made with an older template version.
    case rerender
    /// A reward whose rendering had failed, tried again.
    case retry
}

/// Where a render job stands.
public enum RenderJobStatus: String, Sendable, CaseIterable, Codable {
    case queued
    /// Claimed by a worker whose lease has not been given back.
    case running
    case done
    /// Gave up after the last attempt.
    case failed
    /// The check-in was undone before the job ran.
    case cancelled
}

/// A claimed job with everything a worker needs to render the sticker and story.
public struct RenderJob: Sendable, Hashable {
    public let id: Int64
    public let rewardID: Int64
    public let reason: RenderJobReason
    /// This claim's attempt number, from 1.
    public let attempt: Int
    /// The worker that holds the lease; pass it back to `complete` / `fail`.
    public let leaseOwner: String
    /// Complete or fail before this, or another worker may claim the job.
    public let leaseExpiresAt: Date
    public let memberID: Int64
    public let memberDisplayName: String
    public let meetupID: Int64
    public let meetupTitle: String
    /// Shown on the sticker.
    public let placeName: String
    public let meetupStartsAt: Date
    /// IANA identifier: the sticker's date is shown in this zone.
    public let meetupTimeZone: String
    /// The hold; `hold.artworkPath` is relative to the assets directory.
    public let hold: Hold
    /// The background; `background.filePath` is relative to the assets directory, and its
    /// `topColor`/`bottomColor` make the story gradient.
    public let background: Background
    public let milestone: Int?
    /// When the member checked in (what the reward's badge is valid from).
    public let checkedInAt: Date
    /// The member's check-in number (1 for their first); nil while the check-in is undone.
    public var checkInNumber: Int? = nil
    /// N when this check-in first made the member's weekly streak N weeks long and N is a
    /// streak milestone.
    public var streakMilestone: Int? = nil
    /// True when the sticker is recorded and only the story is left to render.
    public var storyOnly = false
}

/// What a worker produced for a job.
///
/// A sticker without a story makes the reward ready to share at once; the job goes back in
/// the queue for the story alone (`RenderJob.storyOnly`), claimed after every sticker waiting.
public struct RenderOutput: Sendable, Hashable {
    public var stickerHash: String
    public var stickerPath: String
    /// Nil when the story is rendered later.
    public var storyHash: String?
    public var storyPath: String?
    public var templateVersion: Int

    public init(stickerHash: String, stickerPath: String, storyHash: String?, storyPath: String?, templateVersion: Int) {
        self.stickerHash = stickerHash
        self.stickerPath = stickerPath
        self.storyHash = storyHash
        self.storyPath = storyPath
        self.templateVersion = templateVersion
    }
}

/// A job's row, for inspection and progress reports.
public struct RenderJobRecord: Sendable, Hashable {
    public let id: Int64
    public let rewardID: Int64
    public let reason: RenderJobReason
    public let status: RenderJobStatus
    /// Claims so far.
    public let attempts: Int
    /// Not claimed before this.
    public let availableAt: Date
    public let leaseOwner: String?
    public let leaseExpiresAt: Date?
    public let lastError: String?
    public let createdAt: Date
    public let updatedAt: Date
}

/// What happened to a job reported as failed.
public enum RenderFailureOutcome: Sendable, Hashable {
    /// It will be claimable again at `retryAt`.
    case willRetry(retryAt: Date, attempts: Int)
    /// That was the last attempt: the job and its reward are `failed`.
    case gaveUp(attempts: Int)
}

/// A reward whose images need (re)rendering, found by `RenderJobQueue.rewardsNeedingRender`.
public struct RenderNeed: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Never rendered and no job in flight.
        case missing
        /// Rendered with an older template version.
        case outdated
        /// Rendering failed.
        case failed
    }
    public let rewardID: Int64
    public let kind: Kind

    /// The job reason that fixes this need.
    public var jobReason: RenderJobReason {
        switch kind {
        case .missing: return .backfill
        case .outdated: return .rerender
        case .failed: return .retry
        }
    }
}

/// How many jobs are in each state.
public struct RenderQueueCounts: Sendable, Hashable {
    public var queued = 0
    public var running = 0
    public var done = 0
    public var failed = 0
    public var cancelled = 0
}
