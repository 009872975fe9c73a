import BelayCore
import Foundation
import Synchronization

/// Counters and a duration histogram of the render workers, for `/metrics` and progress.
/// Thread-safe; reading takes a snapshot.
public final class RenderMetrics: Sendable {
    /// Upper bounds (seconds) of the render-duration histogram buckets.
    public static let durationBuckets: [Double] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// The counters at one moment.
    public struct Snapshot: Sendable, Hashable {
        /// Jobs whose images were stored and reward made `ready`.
        public var completed = 0
        /// Stickers stored ahead of their stories (the reward ready to share; its job goes on
        /// with the story, and counts as completed when that is stored).
        public var stickersFirst = 0
        /// Failed attempts that will be retried.
        public var failedWillRetry = 0
        /// Jobs that used their last attempt (the reward is `failed`).
        public var failedGaveUp = 0
        /// Jobs put back because the data directory refused writes.
        public var postponed = 0
        /// Jobs whose result could not be recorded (left to their lease).
        public var abandoned = 0
        /// Images drawn and stored.
        public var imagesRendered = 0
        /// Images found already stored (identical inputs render once).
        public var imagesReused = 0
        /// Jobs that drew a label with characters no font has (left out).
        public var rendersMissingCharacters = 0
        /// Characters left out of labels because no font has them, over all jobs.
        public var missingCharacters = 0
        /// Seconds spent drawing and encoding, per job that drew something.
        public var renderDuration = HistogramCounts(bounds: RenderMetrics.durationBuckets)
        /// Seconds per job from claim to recorded result.
        public var jobDuration = HistogramCounts(bounds: RenderMetrics.durationBuckets)

        /// Jobs finished one way or another.
        public var finished: Int { completed + failedWillRetry + failedGaveUp + postponed + abandoned }
    }

    private let state = Mutex(Snapshot())
    private let changed = NSCondition()

    public init() {}

    /// Adds one finished job.
    public func record(_ report: RenderJobReport) {
        state.withLock { snapshot in
            switch report.outcome {
            case let .completed(_, rendered, reused):
                snapshot.completed += 1
                snapshot.imagesRendered += rendered
                snapshot.imagesReused += reused
            case let .stickerStored(_, rendered, reused):
                snapshot.stickersFirst += 1
                snapshot.imagesRendered += rendered
                snapshot.imagesReused += reused
            case let .failed(_, _, retryAt):
                if retryAt == nil { snapshot.failedGaveUp += 1 } else { snapshot.failedWillRetry += 1 }
            case .postponed: snapshot.postponed += 1
            case .abandoned: snapshot.abandoned += 1
            }
            if !report.missingCharacters.isEmpty {
                snapshot.rendersMissingCharacters += 1
                snapshot.missingCharacters += report.missingCharacters.count
            }
            if report.renderSeconds > 0 { snapshot.renderDuration.observe(report.renderSeconds) }
            snapshot.jobDuration.observe(report.totalSeconds)
        }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// The counters now.
    public func snapshot() -> Snapshot { state.withLock { $0 } }

    /// Waits until at least `count` jobs have finished in total, or `timeout` seconds pass.
    /// - Returns: true when the count was reached.
    public func waitForFinishedJobs(atLeast count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Deadline(after: timeout)
        changed.lock()
        defer { changed.unlock() }
        while snapshot().finished < count {
            if !deadline.wait(on: changed) { return snapshot().finished >= count }
        }
        return true
    }
}
