import BelayDomain
import Foundation

/// What one backfill run covers and how.
public struct BackfillOptions: Sendable, Hashable {
    /// Which rewards: `--meetup ID`, `--since DATE`.
    public var scope: RewardScope
    /// `--limit N`: at most N rewards awarded, at most N renders queued and at most N
    /// render jobs processed in this run; nil for no limit.
    public var limit: Int?
    /// `--jobs N`: renders at once. 0 queues the renders without running them, for a
    /// process whose own render workers take them (the server's scheduled backfill).
    public var jobs: Int
    /// What to call this run in the lease (shown to a second backfill that is refused).
    public var purpose: String
    /// Seconds the run may spend waiting for failed attempts' back-offs to pass, so that
    /// retries due soon happen in this run (up to `render.max_attempts`); retries due later
    /// are left queued for the server's workers or the next run.
    public var maxRetryWait: TimeInterval

    public init(scope: RewardScope = .all, limit: Int? = nil, jobs: Int = 1, purpose: String = "belay backfill",
                maxRetryWait: TimeInterval = 120) {
        self.scope = scope
        self.limit = limit
        self.jobs = jobs
        self.purpose = purpose
        self.maxRetryWait = maxRetryWait
    }

    /// Checks the values.
    /// - Throws: `PipelineError` naming the option.
    public func validate() throws {
        guard jobs >= 0 && jobs <= 64 else { throw PipelineError.invalidSetting("--jobs", "must be 0–64 (got \(jobs))") }
        if let limit, limit < 1 { throw PipelineError.invalidSetting("--limit", "must be 1 or more (got \(limit))") }
    }
}

/// A backfill run's progress, reported after each step of work.
public struct BackfillProgress: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        /// Giving checked-in attendances their missing rewards.
        case awarding
        /// Rendering the queued jobs.
        case rendering
    }

    public var phase: Phase
    /// Items done in this phase (rewards awarded, or render jobs finished).
    public var completed: Int
    /// Items this phase expects (may grow when retries come due).
    public var total: Int
    /// Render jobs that failed in this phase so far (retried or given up).
    public var failed: Int
}

/// What `belay backfill --dry-run` would do.
public struct BackfillPlan: Sendable, Hashable, Codable {
    /// Checked-in attendances without a reward (each would be awarded one and rendered).
    public var rewardsToAward: Int
    /// Renders that would be queued, by kind.
    public var rendersToQueue: RenderNeedCounts
    /// Render jobs already queued or running in scope (from check-ins or an earlier run).
    public var jobsInFlight: Int
    /// The template version rendering would use.
    public var templateVersion: Int
    /// Who holds the backfill lease right now, if anyone (the real run would be refused).
    public var leaseHolder: String?
}

/// What a backfill run did.
public struct BackfillReport: Sendable, Hashable, Codable {
    /// Rewards given to checked-in attendances that had none.
    public var awarded = 0
    /// Render jobs queued this run, by kind.
    public var queued = RenderNeedCounts()
    /// Render jobs completed that drew at least one image.
    public var rendered = 0
    /// Render jobs completed whose images were all already stored (nothing drawn).
    public var reused = 0
    /// Images drawn and stored (a job draws up to two: sticker and story).
    public var imagesRendered = 0
    /// Attendances left without a reward because the catalogue has nothing to award.
    public var skippedWithoutCatalog = 0
    /// Render attempts that failed and will be retried after a back-off.
    public var failedWillRetry = 0
    /// Render jobs that used their last attempt: their rewards are `failed`.
    public var failed = 0
    /// Jobs put back because the data directory refused writes.
    public var postponed = 0
    /// Jobs whose result could not be recorded (they run again when their lease ends).
    public var abandoned = 0
    /// Jobs in scope still queued at the end, waiting for a retry back-off.
    public var waitingForRetry = 0
    /// When the first of those becomes due.
    public var nextRetryAt: Date?
    /// Jobs left `running` by a process on this host that is gone, taken back at the start.
    public var reclaimed = 0
    /// Jobs in scope this run skipped because another worker (the server, another host)
    /// still holds them under a lease; they finish there, or are claimed again when the
    /// lease runs out.
    public var runningElsewhere = 0
    /// When the earliest of those leases ends.
    public var runningElsewhereUntil: Date?
    /// Wall-clock seconds the run took.
    public var durationSeconds = 0.0
    /// Wall-clock seconds the workers spent drawing and encoding, all jobs together.
    public var renderSeconds = 0.0
    /// CPU seconds the workers spent drawing and encoding: the part of the run's CPU that
    /// pure rendering would cost too.
    public var renderCPUSeconds = 0.0
    /// Why the run stopped early (data directory not writable, lease lost, cancelled), or nil.
    public var stoppedEarly: String?

    public init() {}

    /// Everything that needed no work: reused images and attendances with nothing to award.
    public var skipped: Int { reused + skippedWithoutCatalog }

    /// True when the run finished its work: nothing stopped it.
    public var isComplete: Bool { stoppedEarly == nil }
}

/// Asks a running backfill to stop after the jobs in hand (the scheduler's `stop`, a signal).
public final class BackfillCancellation: Sendable {
    private let signal = WakeSignal()

    public init() {}

    /// Requests the stop; the run returns its report soon after.
    public func cancel() { signal.close() }

    /// True once `cancel` was called.
    public var isCancelled: Bool { signal.isClosed }

    /// Waits until `cancel` is called or `timeout` seconds pass.
    func waitForCancel(timeout: TimeInterval) {
        signal.wait(since: signal.mark, timeout: max(timeout, 0), ignoringNotify: true)
    }
}
