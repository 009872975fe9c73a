import Foundation

/// Which rewards a backfill (or a scoped claim of render jobs) looks at: those of one meetup,
/// those whose check-in happened at or after an instant, or both. The empty scope is all.
public struct RewardScope: Sendable, Hashable {
    /// Only rewards of this meetup.
    public var meetupID: Int64?
    /// Only rewards for check-ins at or after this instant.
    public var checkedInSince: Date?

    public init(meetupID: Int64? = nil, checkedInSince: Date? = nil) {
        self.meetupID = meetupID
        self.checkedInSince = checkedInSince
    }

    /// Every reward.
    public static let all = RewardScope()

    /// True when it selects every reward.
    public var isAll: Bool { meetupID == nil && checkedInSince == nil }
}

/// When the backfill gives a reward whose rendering failed for good another round of
/// attempts (each round is one render job with `RenderJobPolicy.maxAttempts` attempts).
///
/// A failed reward that has used `k` rounds is retried when `k < maxRounds` and its last
/// round failed at least `baseDelaySeconds × 2^(k − 1)` ago; after `maxRounds` it stays
/// `failed` with its reason until an operator fixes the cause and enqueues it again.
public struct FailedRenderRetryPolicy: Sendable, Hashable {
    public var maxRounds: Int
    public var baseDelaySeconds: Int

    public init(maxRounds: Int = 3, baseDelaySeconds: Int = 3_600) {
        self.maxRounds = maxRounds
        self.baseDelaySeconds = baseDelaySeconds
    }

    /// Whether a reward with `rounds` failed rounds, the last at `lastFailure`, is due at `now`.
    public func isDue(rounds: Int, lastFailure: Date?, now: Date) -> Bool {
        guard rounds < maxRounds else { return false }
        guard rounds > 0, let lastFailure else { return true }
        let delay = Double(baseDelaySeconds) * pow(2, Double(min(rounds - 1, 30)))
        return lastFailure.addingTimeInterval(delay) <= now
    }
}
