import Foundation

/// How webhook deliveries are retried and when an endpoint is given up on.
///
/// Attempt n (from 1) that fails is retried after `retryBaseSeconds · 3^(n-1)` seconds; with
/// the built-in defaults (10 s, 10 attempts) the retries spread over about 27 hours, so an endpoint
/// down for a day still gets every event. An endpoint whose attempts have failed for
/// `disableAfterSeconds` without a success in between is disabled.
public struct WebhookPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    public var retryBaseSeconds: Int
    public var disableAfterSeconds: Int
    /// How long a worker holds a delivery for one attempt before another may retry it
    /// (longer than the request timeout).
    public var leaseSeconds: Int
    /// The longest one attempt takes (the request timeout): a worker holding several
    /// deliveries starts no attempt that could end after its lease.
    public var attemptSeconds: Int
    /// How many due deliveries of one endpoint a worker claims at once; it sends them in
    /// order, one request each, and records them in one transaction.
    public var batchSize: Int
    /// How long the previous secret keeps signing after `rotate-secret`, so receivers can
    /// switch over.
    public var rotationGraceSeconds: Int
    /// Accept endpoints on loopback, link-local and private addresses (for a receiver on
    /// the club's own network); off in the built-in defaults, so webhooks cannot reach internal services.
    public var allowPrivateAddresses: Bool

    /// The retries, lease, attempt and address rule come from `config.json`'s `webhooks`
    /// section; the batch size and rotation grace are Belay's own.
    public init(maxAttempts: Int, retryBaseSeconds: Int, disableAfterSeconds: Int,
                leaseSeconds: Int, attemptSeconds: Int, batchSize: Int = 100, rotationGraceSeconds: Int = 86_400,
                allowPrivateAddresses: Bool) {
        self.maxAttempts = maxAttempts
        self.retryBaseSeconds = retryBaseSeconds
        self.disableAfterSeconds = disableAfterSeconds
        self.leaseSeconds = leaseSeconds
        self.attemptSeconds = attemptSeconds
        self.batchSize = batchSize
        self.rotationGraceSeconds = rotationGraceSeconds
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// Seconds to wait after failed attempt `attempt` (from 1).
    public func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        Double(retryBaseSeconds) * pow(3, Double(max(attempt, 1) - 1))
    }

    /// - Throws: `DomainError` (`invalid_input`) for a value that cannot work.
    public func validate() throws {
        guard maxAttempts >= 1 else { throw DomainError.invalid("webhooks.max_attempts", "A delivery needs at least 1 attempt") }
        guard retryBaseSeconds >= 1 else { throw DomainError.invalid("webhooks.retry_base_seconds", "The first retry waits at least 1 second") }
        guard disableAfterSeconds >= 1 else { throw DomainError.invalid("webhooks.disable_after_hours", "An endpoint is disabled after failing for at least an hour") }
        guard leaseSeconds >= 1 else { throw DomainError.invalid("webhooks.timeout_seconds", "A delivery attempt needs at least 1 second") }
        guard attemptSeconds >= 1, attemptSeconds < leaseSeconds else {
            throw DomainError.invalid("webhooks.timeout_seconds", "An attempt (\(attemptSeconds) s) must be at least 1 second and end within its lease (\(leaseSeconds) s)")
        }
        guard batchSize >= 1 else { throw DomainError.invalid("webhooks", "A worker claims at least 1 delivery at a time (batch size \(batchSize))") }
    }
}
