import Foundation

/// Retry and lease rules of the render job queue, from `config.json` (`render.max_attempts`,
/// `render.retry_base_seconds`, `backfill.lease_seconds`); only the retry cap has a default.
///
/// A failed attempt is retried after `retryBaseSeconds × 2^(attempt − 1)` (capped at
/// `maxRetryDelaySeconds`) until `maxAttempts` attempts have been made; then the job and
/// its reward are `failed`. A claim that is not completed or failed within
/// `leaseSeconds` (the worker crashed) may be claimed again and counts as an attempt.
public struct RenderJobPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    public var retryBaseSeconds: Int
    public var maxRetryDelaySeconds: Int
    public var leaseSeconds: Int

    public init(maxAttempts: Int, retryBaseSeconds: Int, maxRetryDelaySeconds: Int = 3_600, leaseSeconds: Int) {
        self.maxAttempts = maxAttempts
        self.retryBaseSeconds = retryBaseSeconds
        self.maxRetryDelaySeconds = maxRetryDelaySeconds
        self.leaseSeconds = leaseSeconds
    }

    /// Checks every field.
    /// - Throws: `DomainError` (`invalid_input`) naming the first impossible field.
    public func validate() throws {
        guard maxAttempts >= 1 else { throw DomainError.invalid("max_attempts", "must be 1 or more (got \(maxAttempts))") }
        guard retryBaseSeconds >= 0 else { throw DomainError.invalid("retry_base_seconds", "must be 0 or more (got \(retryBaseSeconds))") }
        guard maxRetryDelaySeconds >= retryBaseSeconds else {
            throw DomainError.invalid("max_retry_delay_seconds", "must be at least retry_base_seconds (\(retryBaseSeconds))")
        }
        guard leaseSeconds >= 1 else { throw DomainError.invalid("lease_seconds", "must be 1 or more (got \(leaseSeconds))") }
    }

    /// The delay before retrying after the `attempt`th failed attempt (1-based).
    public func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = min(max(attempt - 1, 0), 30)
        let delay = Double(retryBaseSeconds) * pow(2, Double(exponent))
        return min(delay, Double(maxRetryDelaySeconds))
    }
}
