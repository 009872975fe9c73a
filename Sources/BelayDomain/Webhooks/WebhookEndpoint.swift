import Foundation

/// An endpoint an admin registered to receive signed webhooks.
public struct WebhookEndpoint: Sendable, Hashable {
    public let id: Int64
    public let url: String
    public let description: String
    /// The event types it receives; empty means every type.
    public let eventTypes: Set<WebhookEventType>
    /// The `whsec_…` signing secret.
    public let secret: String
    /// The secret before the last rotation, still signed with until `previousSecretExpiresAt`.
    public let previousSecret: String?
    public let previousSecretExpiresAt: Date?
    /// The first failed attempt since the last success; nil while deliveries succeed.
    public let failingSince: Date?
    /// When it was disabled (after failing for too long, or answering 410 Gone), and why.
    public let disabledAt: Date?
    public let disabledReason: String?
    public let createdAt: Date
    public let updatedAt: Date

    public var isEnabled: Bool { disabledAt == nil }

    /// Whether it receives events of `type`.
    public func receives(_ type: WebhookEventType) -> Bool { eventTypes.isEmpty || eventTypes.contains(type) }

    /// The secrets to sign with at `instant`: the current one, and the previous one while
    /// its grace period after a rotation lasts.
    public func signingSecrets(at instant: Date) -> [String] {
        if let previousSecret, let until = previousSecretExpiresAt, instant < until { return [secret, previousSecret] }
        return [secret]
    }
}

/// The state of one event's delivery to one endpoint.
public enum WebhookDeliveryStatus: String, Sendable, CaseIterable {
    /// Not yet delivered: waiting for its turn, its next attempt, or in flight.
    case pending
    case succeeded
    /// Given up after the last attempt.
    case failed
}

/// One line of an endpoint's delivery log.
public struct WebhookDelivery: Sendable, Hashable {
    public let id: Int64
    public let endpointID: Int64
    public let eventID: Int64
    public let messageID: String
    public let eventType: String
    public let status: WebhookDeliveryStatus
    public let attempts: Int
    public let nextAttemptAt: Date?
    public let lastAttemptAt: Date?
    public let lastStatusCode: Int?
    public let lastError: String?
    public let deliveredAt: Date?
    public let createdAt: Date
}

/// A delivery claimed by a worker for one attempt: everything needed to send it.
public struct WebhookAttempt: Sendable {
    public let deliveryID: Int64
    public let endpointID: Int64
    public let url: String
    /// Secrets to sign with (see `WebhookEndpoint.signingSecrets`).
    public let secrets: [String]
    public let messageID: String
    public let eventType: String
    /// The exact payload bytes to send and sign.
    public let body: [UInt8]
    /// 1 for the first attempt.
    public let attempt: Int
    public let leaseOwner: String
    /// The latest moment this attempt may start and still end within its lease (a worker
    /// that claimed several gives back those it cannot start in time).
    public let startBy: Date
}

/// What an attempt came to, as the worker reports it.
public struct WebhookAttemptResult: Sendable {
    /// The HTTP status, nil when no answer came (refused, timed out, address not allowed).
    public var statusCode: Int?
    /// What went wrong, nil on success.
    public var error: String?

    public init(statusCode: Int?, error: String?) {
        self.statusCode = statusCode
        self.error = error
    }

    /// A 2xx answer.
    public var succeeded: Bool { error == nil && (200...299).contains(statusCode ?? 0) }
}

/// What the queue did with a reported attempt.
public enum WebhookAttemptOutcome: Sendable, Equatable {
    case delivered
    case willRetry(at: Date)
    /// The last attempt failed; the delivery is `failed` and the next one in line goes.
    case gaveUp
    /// The endpoint was disabled (it failed for too long, or answered 410 Gone); its
    /// deliveries wait until an admin enables it again.
    case endpointDisabled(reason: String)
}
