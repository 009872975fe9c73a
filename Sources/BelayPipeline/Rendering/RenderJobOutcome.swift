import Foundation

/// What became of one claimed render job.
public enum RenderJobOutcome: Sendable, Hashable {
    /// The images are stored and the reward is `ready`. `renderedImages` were drawn now;
    /// `reusedImages` were already stored (identical inputs render once).
    case completed(rewardID: Int64, renderedImages: Int, reusedImages: Int)
    /// The sticker is stored and the reward `ready` to share; the job went back to the queue
    /// for the story alone, which follows once no sticker is waiting. The images counted are
    /// the sticker's (1 in all).
    case stickerStored(rewardID: Int64, renderedImages: Int, reusedImages: Int)
    /// The render failed; it will be tried again at `retryAt`, or (nil) that was the last
    /// attempt and the reward is `failed` with `reason`.
    case failed(rewardID: Int64, reason: String, retryAt: Date?)
    /// The data directory refused the write (disk full, read-only); the job went back to the
    /// queue for `until` without spending an attempt, and nothing was half-written.
    case postponed(rewardID: Int64, reason: String, until: Date)
    /// The result could not be recorded (the lease ran out and another worker took the job,
    /// or the database failed); the job is retried after its lease runs out.
    case abandoned(rewardID: Int64, reason: String)

    /// The reward the job was for.
    public var rewardID: Int64 {
        switch self {
        case let .completed(id, _, _), let .stickerStored(id, _, _), let .failed(id, _, _), let .postponed(id, _, _), let .abandoned(id, _): return id
        }
    }
}

/// One finished job, for metrics and progress.
public struct RenderJobReport: Sendable, Hashable {
    public let jobID: Int64
    public let outcome: RenderJobOutcome
    /// Seconds spent drawing and encoding (0 when every image was reused).
    public let renderSeconds: Double
    /// Seconds from starting the job to recording its result.
    public let totalSeconds: Double
    /// CPU seconds the worker's thread spent drawing and encoding (a worker's renderer uses
    /// one core, so this is the render's whole CPU cost).
    public var renderCPUSeconds = 0.0
    /// Characters no font of the chain has, left out of the images drawn (empty when none
    /// was, or nothing was drawn).
    public var missingCharacters: [Character] = []
}
