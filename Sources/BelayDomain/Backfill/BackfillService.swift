import BelayCore
import BelayStorage
import Foundation

/// The reads and writes of the reward backfill that the other services do not offer:
/// scoped counts for `--dry-run`, finding and queueing every render a scope needs
/// (missing, outdated, failed and due for another round, or whose files are gone), the
/// state of the queue within a scope, and the image paths rows refer to (for `belay gc`).
///
/// Awarding missing rewards is `RewardService.awardMissingRewards`; claiming and finishing
/// jobs is `RenderJobQueue`.
public final class BackfillService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let queue: RenderJobQueue
    private static let pageSize = 500

    public init(pool: any DatabaseStore, clock: any TimeSource, queue: RenderJobQueue) {
        self.pool = pool
        self.clock = clock
        self.queue = queue
    }

    /// Checked-in attendances in scope that have no reward yet.
    public func missingRewardCount(scope: RewardScope = .all) throws -> Int {
        try domainCall { try pool.read { try BackfillRepository.missingRewardCount(scope: scope, in: $0) } }
    }

    /// The renders a scope needs now, without queueing anything (for `--dry-run`).
    /// - Parameters:
    ///   - fileExists: tells whether an image path (relative to the data directory) exists;
    ///     `ready` rewards whose files are gone count as `filesMissing`.
    ///   - limit: stop counting after this many.
    public func renderNeeds(templateVersion: Int, scope: RewardScope = .all, retry: FailedRenderRetryPolicy = .init(),
                            limit: Int = .max, fileExists: (String) -> Bool) throws -> RenderNeedCounts {
        var counts = RenderNeedCounts()
        try scanNeeds(templateVersion: templateVersion, scope: scope, retry: retry, limit: limit, fileExists: fileExists) { batch in
            for need in batch {
                switch need.kind {
                case .missing: counts.missing += 1
                case .outdated: counts.outdated += 1
                case .failed: counts.failed += 1
                }
            }
        } filesGone: { counts.filesMissing += $0.count }
        return counts
    }

    /// Queues a render job for every reward in scope that needs one: images never made or
    /// made with a template older than `templateVersion` (reason `backfill` / `rerender`),
    /// `ready` rewards whose files are gone (`backfill`), and failed rewards due for another
    /// round under `retry` (`retry`). Rewards with a job already in flight are left alone, so
    /// running it again (after a crash) queues nothing twice.
    /// - Returns: how many jobs were queued, by kind.
    /// - Throws: `storage_failure`.
    @discardableResult
    public func enqueueNeededRenders(templateVersion: Int, scope: RewardScope = .all, retry: FailedRenderRetryPolicy = .init(),
                                     limit: Int = .max, fileExists: (String) -> Bool) throws -> RenderNeedCounts {
        var counts = RenderNeedCounts()
        let now = clock.now()
        try scanNeeds(templateVersion: templateVersion, scope: scope, retry: retry, limit: limit, fileExists: fileExists) { batch in
            try domainCall {
                try pool.write { db in
                    for need in batch {
                        guard try RenderJobRepository.enqueue(rewardID: need.rewardID, reason: need.jobReason, availableAt: now,
                                                              now: now, in: db) != nil else { continue }
                        try RenderJobRepository.markRewardPending(rewardID: need.rewardID, in: db)
                        switch need.kind {
                        case .missing: counts.missing += 1
                        case .outdated: counts.outdated += 1
                        case .failed: counts.failed += 1
                        }
                    }
                }
            }
        } filesGone: { gone in
            try domainCall {
                try pool.write { db in
                    for rewardID in gone where try RenderJobRepository.enqueue(rewardID: rewardID, reason: .backfill,
                                                                             availableAt: now, now: now, in: db) != nil {
                        counts.filesMissing += 1
                    }
                }
            }
        }
        return counts
    }

    /// Render jobs of rewards in scope that are not finished.
    public func queueState(scope: RewardScope = .all) throws -> ScopedQueueState {
        let now = clock.now()
        return try domainCall { try pool.read { try BackfillRepository.queueState(scope: scope, now: now, in: $0) } }
    }

    /// Every image path (relative to the data directory) a reward row refers to, revoked
    /// rewards included: `belay gc` keeps these files.
    public func referencedImagePaths() throws -> Set<String> {
        try domainCall { try pool.read { try BackfillRepository.referencedImagePaths(in: $0) } }
    }

    /// Walks the scope in reward-id order, handing over batches of needs, and of `ready`
    /// rewards whose files are gone, until `limit` is reached.
    private func scanNeeds(templateVersion: Int, scope: RewardScope, retry: FailedRenderRetryPolicy, limit: Int,
                           fileExists: (String) -> Bool,
                           _ handle: ([RenderNeed]) throws -> Void, filesGone: ([Int64]) throws -> Void) throws {
        var remaining = max(limit, 0)
        let now = clock.now()

        var after: Int64 = 0
        while remaining > 0 {
            let page = try domainCall {
                try pool.read { try BackfillRepository.missingOrOutdated(templateVersion: templateVersion, scope: scope,
                                                                        afterRewardID: after, limit: Self.pageSize, in: $0) }
            }
            let batch = Array(page.prefix(remaining))
            if !batch.isEmpty { try handle(batch) }
            remaining -= batch.count
            guard page.count == Self.pageSize, let last = page.last else { break }
            after = last.rewardID
        }

        after = 0
        while remaining > 0 {
            let page = try domainCall {
                try pool.read { try BackfillRepository.failed(scope: scope, afterRewardID: after, limit: Self.pageSize, in: $0) }
            }
            let due = page.filter { retry.isDue(rounds: $0.rounds, lastFailure: $0.lastFailure, now: now) }
                .prefix(remaining).map { RenderNeed(rewardID: $0.rewardID, kind: .failed) }
            if !due.isEmpty { try handle(Array(due)) }
            remaining -= due.count
            guard page.count == Self.pageSize, let last = page.last else { break }
            after = last.rewardID
        }

        after = 0
        while remaining > 0 {
            let page = try domainCall {
                try pool.read { try BackfillRepository.readyImages(scope: scope, afterRewardID: after, limit: Self.pageSize, in: $0) }
            }
            let gone = page.filter { !fileExists($0.stickerPath) || !($0.storyPath.map(fileExists) ?? true) }.prefix(remaining).map(\.rewardID)
            if !gone.isEmpty { try filesGone(Array(gone)) }
            remaining -= gone.count
            guard page.count == Self.pageSize, let last = page.last else { break }
            after = last.rewardID
        }
    }
}
