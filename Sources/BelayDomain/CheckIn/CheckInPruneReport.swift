import Foundation

/// What one `CheckInRetention.prune()` deleted.
public struct CheckInPruneReport: Sendable, Hashable {
    /// Rows older than this were deleted.
    public var cutoff: Date
    /// Idempotency keys of check-ins made before `cutoff`.
    public var idempotencyKeys = 0
    /// Wrong-code counters whose last wrong code was before `cutoff`.
    public var attempts = 0

    public init(cutoff: Date, idempotencyKeys: Int = 0, attempts: Int = 0) {
        self.cutoff = cutoff
        self.idempotencyKeys = idempotencyKeys
        self.attempts = attempts
    }

    /// Rows deleted in all.
    public var total: Int { idempotencyKeys + attempts }
}
