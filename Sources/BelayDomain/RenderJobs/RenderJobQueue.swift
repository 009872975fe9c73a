import BelayCore
import BelayStorage
import Foundation
import Synchronization

/// The render outbox: jobs written in the same transaction as the rewards they render,
/// claimed by workers with a lease, completed or failed with back-off (see `RenderJobPolicy`).
///
/// Safe to use from many threads and processes: a claim is one `UPDATE … RETURNING` in a
/// write transaction, so no two workers get the same job while its lease runs.
public final class RenderJobQueue: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: RenderJobPolicy
    private let events: ChangeFeed
    /// When this process's claims next look for expired leases (by `clock`): at most once a
    /// second, not in every claim's transaction, since a lease runs for minutes.
    private let nextLeaseScan = Mutex<Date>(.distantPast)

    init(pool: any DatabaseStore, clock: any TimeSource, policy: RenderJobPolicy, events: ChangeFeed) {
        self.pool = pool
        self.clock = clock
        self.policy = policy
        self.events = events
    }

    /// Queues a render of a reward, available at once. A reward has at most one job in flight:
    /// when one is already queued or running, nothing is added. A failed reward goes back
    /// to `pending`.
    /// - Returns: the new job's id, or nil when a job was already in flight.
    /// - Throws: `DomainError.rewardNotFound`.
    @discardableResult
    public func enqueue(rewardID: Int64, reason: RenderJobReason) throws -> Int64? {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                guard try RewardRepository.exists(id: rewardID, in: db) else {
                    throw DomainError(.rewardNotFound, "No reward has id \(rewardID)")
                }
                let id = try RenderJobRepository.enqueue(rewardID: rewardID, reason: reason, availableAt: now, now: now, in: db)
                if id != nil { try RenderJobRepository.markRewardPending(rewardID: rewardID, in: db) }
                return id
            }
        }
    }

    /// Claims up to `limit` jobs that are due, oldest first, for `leaseSeconds`.
    ///
    /// Jobs whose lease ran out (the worker crashed or hung) are first put back in the
    /// queue, or failed for good when they have used every attempt.
    /// - Parameters:
    ///   - owner: a name unique to this worker (e.g. `host:pid:thread`); pass it to
    ///     `complete` and `fail`.
    ///   - scope: only jobs of rewards in this scope (the backfill's `--meetup`/`--since`).
    /// - Returns: the claimed jobs, each with everything needed to render it.
    /// - Throws: `DomainError` for an empty owner or a limit outside 1…100.
    public func claim(owner: String, limit: Int = 1, scope: RewardScope = .all) throws -> [RenderJob] {
        guard !owner.isEmpty else { throw DomainError.invalid("owner", "A worker needs a non-empty owner name") }
        let limit = try validatedLimit(limit, maximum: 100)
        let now = clock.now()
        return try domainCall {
            // A locked write: the claim skips rows other workers hold, and each expired lease
            // is ended only if it is still the one that expired, so two workers seeing it at
            // once end it once.
            let scanLeases = nextLeaseScan.withLock { next in
                guard now >= next else { return false }
                next = now.addingTimeInterval(1)
                return true
            }
            // Lost in a crash of the database server, a claim is only made again, so its
            // commit does not wait for the disk (the worker's render waited on it).
            return try pool.lockedWriteWithoutWaitingForFlush { db in
                for expired in try scanLeases ? RenderJobRepository.expiredLeases(now: now, in: db) : [] {
                    let error = "the render worker did not finish within its \(policy.leaseSeconds) s lease"
                    let failed = expired.attempts >= policy.maxAttempts
                    if try RenderJobRepository.endExpiredLease(id: expired.id, failed: failed, error: error, now: now, in: db), failed {
                        try RenderJobRepository.markRewardFailed(rewardID: expired.rewardID,
                                                                 reason: "\(error) (\(expired.attempts) attempts)", in: db)
                    }
                }
                let leaseUntil = now.addingTimeInterval(Double(policy.leaseSeconds))
                return try RenderJobRepository.claim(owner: owner, leaseUntil: leaseUntil, now: now, limit: limit,
                                                     scope: scope, in: db)
            }
        }
    }

    /// Records a finished render: the reward becomes `ready` with the images, and the job is
    /// done, or, when `output` has no story, back in the queue for the story alone (claimed
    /// after every sticker waiting), so that a reward can be shared as soon as its sticker is
    /// stored. A locked write, as `fail` and `postpone` are: its first statement locks the
    /// job's row, held by `owner`; it changes only that job and its reward.
    /// - Returns: the updated reward.
    /// - Throws: `DomainError.leaseLost` when `owner` no longer holds the job (its lease
    ///   ran out and another worker took it, or it was already finished); the result must
    ///   then be dropped. `render_job_not_found` for an unknown job.
    @discardableResult
    public func complete(jobID: Int64, owner: String, output: RenderOutput) throws -> Reward {
        let now = clock.now()
        return try domainCall {
            try pool.lockedWrite { db in
                let held = output.storyHash == nil
                    ? try RenderJobRepository.requeueForStory(id: jobID, owner: owner, now: now, in: db)
                    : try RenderJobRepository.markDone(id: jobID, owner: owner, now: now, in: db)
                guard let rewardID = held else { throw try Self.notHeld(jobID, owner, in: db) }
                if output.storyHash == nil { try WorkNotification.send(.renderJobs, in: db) }
                if try RenderJobRepository.markRewardReady(rewardID: rewardID, output: output, now: now, in: db) {
                    try events.changed(.rewardReady(rewardID: rewardID), now: now, in: db)
                }
                return try Self.reward(rewardID, of: jobID, in: db)
            }
        }
    }

    /// Records the story of a job claimed for its story alone (`RenderJob.storyOnly`): the
    /// reward, already `ready` with its sticker, gains its story, and the job is done.
    /// - Returns: the updated reward.
    /// - Throws: as `complete`.
    @discardableResult
    public func completeStory(jobID: Int64, owner: String, storyHash: String, storyPath: String) throws -> Reward {
        let now = clock.now()
        return try domainCall {
            try pool.lockedWrite { db in
                guard let rewardID = try RenderJobRepository.markDone(id: jobID, owner: owner, now: now, in: db) else {
                    throw try Self.notHeld(jobID, owner, in: db)
                }
                try RenderJobRepository.markStoryStored(rewardID: rewardID, storyHash: storyHash, storyPath: storyPath, in: db)
                return try Self.reward(rewardID, of: jobID, in: db)
            }
        }
    }

    private static func reward(_ rewardID: Int64, of jobID: Int64, in db: Database) throws -> Reward {
        guard let reward = try RewardRepository.find(id: rewardID, in: db) else {
            throw DomainError(.storageFailure, "Reward \(rewardID) of render job \(jobID) disappeared while its render was recorded")
        }
        return reward
    }

    /// Records a failed render. Before the last attempt the job is queued again after an
    /// exponential back-off; after it, the job and the reward are `failed` with `error`.
    /// - Throws: `DomainError.leaseLost` / `render_job_not_found` as for `complete`.
    @discardableResult
    public func fail(jobID: Int64, owner: String, error: String) throws -> RenderFailureOutcome {
        let now = clock.now()
        let message = error.isEmpty ? "unknown render error" : String(error.prefix(2_000))
        return try domainCall {
            try pool.lockedWrite { db in
                guard let held = try RenderJobRepository.runningAttempts(id: jobID, owner: owner, in: db) else {
                    throw try Self.notHeld(jobID, owner, in: db)
                }
                if held.attempts >= policy.maxAttempts {
                    try RenderJobRepository.markFailed(id: jobID, error: message, now: now, in: db)
                    try RenderJobRepository.markRewardFailed(rewardID: held.rewardID, reason: message, in: db)
                    return .gaveUp(attempts: held.attempts)
                }
                let retryAt = now.addingTimeInterval(policy.retryDelay(afterAttempt: held.attempts))
                try RenderJobRepository.requeue(id: jobID, availableAt: retryAt, error: message, now: now, in: db)
                return .willRetry(retryAt: retryAt, attempts: held.attempts)
            }
        }
    }

    /// Gives a claimed job back without counting the attempt, to be claimed again at
    /// `until`: for failures of the machine rather than of the job (the disk is full, the
    /// data directory is read-only), which must not use up the job's attempts. The reward
    /// stays as it was (`pending`, or `ready` with its older images).
    /// - Throws: `DomainError.leaseLost` / `render_job_not_found` as for `complete`.
    public func postpone(jobID: Int64, owner: String, until: Date, reason: String) throws {
        let now = clock.now()
        try domainCall {
            try pool.lockedWrite { db in
                guard try RenderJobRepository.runningAttempts(id: jobID, owner: owner, in: db) != nil else {
                    throw try Self.notHeld(jobID, owner, in: db)
                }
                try RenderJobRepository.postpone(id: jobID, availableAt: max(until, now), error: String(reason.prefix(2_000)),
                                                 now: now, in: db)
            }
        }
    }

    /// The distinct owners of running jobs (to find workers of processes that are gone).
    public func runningOwners() throws -> [String] {
        try domainCall { try pool.read { try RenderJobRepository.runningOwners(in: $0) } }
    }

    /// Ends the leases of every job `owner` holds now, as if they had run out: the next
    /// `claim` puts them back in the queue (counting the attempt). For owners known to be
    /// dead (their process is gone), so their jobs need not wait for the lease to expire.
    /// - Returns: how many leases were ended.
    @discardableResult
    public func expireLeases(owner: String) throws -> Int {
        let now = clock.now()
        let expired = try domainCall { try pool.write { try RenderJobRepository.expireLeases(owner: owner, now: now, in: $0) } }
        // The next claim ends them at once, whenever the last scan was.
        if expired > 0 { nextLeaseScan.withLock { $0 = .distantPast } }
        return expired
    }

    /// Active rewards whose images are missing, were rendered with a template older than
    /// `templateVersion`, or (when `includeFailed`) failed — and that have no job in flight.
    /// Ordered by reward id; pass the last id as `afterRewardID` for the next batch.
    public func rewardsNeedingRender(templateVersion: Int, includeFailed: Bool = true, afterRewardID: Int64 = 0,
                                     limit: Int = 100) throws -> [RenderNeed] {
        let limit = try validatedLimit(limit, maximum: 10_000)
        return try domainCall {
            try pool.read {
                try RenderJobRepository.needs(templateVersion: templateVersion, includeFailed: includeFailed,
                                              afterRewardID: afterRewardID, limit: limit, in: $0)
            }
        }
    }

    /// Finds up to `limit` rewards needing a render (as `rewardsNeedingRender`) and queues a
    /// job for each, in one transaction. Idempotent: run it again until it returns 0.
    /// - Returns: the jobs queued.
    @discardableResult
    public func enqueueNeededRenders(templateVersion: Int, includeFailed: Bool = true, limit: Int = 100) throws -> [RenderNeed] {
        let limit = try validatedLimit(limit, maximum: 10_000)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let needs = try RenderJobRepository.needs(templateVersion: templateVersion, includeFailed: includeFailed,
                                                          afterRewardID: 0, limit: limit, in: db)
                for need in needs {
                    _ = try RenderJobRepository.enqueue(rewardID: need.rewardID, reason: need.jobReason, availableAt: now,
                                                        now: now, in: db)
                    try RenderJobRepository.markRewardPending(rewardID: need.rewardID, in: db)
                }
                return needs
            }
        }
    }

    /// One job's row.
    /// - Throws: `DomainError.renderJobNotFound`.
    public func job(id: Int64) throws -> RenderJobRecord {
        guard let record = try domainCall({ try pool.read { try RenderJobRepository.record(id: id, in: $0) } }) else {
            throw DomainError(.renderJobNotFound, "No render job has id \(id)")
        }
        return record
    }

    /// Every job of a reward, oldest first.
    public func jobs(rewardID: Int64) throws -> [RenderJobRecord] {
        try domainCall { try pool.read { try RenderJobRepository.records(rewardID: rewardID, in: $0) } }
    }

    /// How many jobs are in each state (for progress reports and health checks).
    public func counts() throws -> RenderQueueCounts {
        try domainCall { try pool.read { try RenderJobRepository.counts(in: $0) } }
    }

    private static func notHeld(_ jobID: Int64, _ owner: String, in db: Database) throws -> DomainError {
        guard let record = try RenderJobRepository.record(id: jobID, in: db) else {
            return DomainError(.renderJobNotFound, "No render job has id \(jobID)")
        }
        return DomainError(.leaseLost, "Render job \(jobID) is \(record.status.rawValue) and not held by \(owner) (its lease ran out or it finished); drop this result")
    }
}
