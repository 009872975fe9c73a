import Foundation

/// One notice claimed for sending to one device, with what the push service needs.
public struct PushDelivery: Sendable, Hashable {
    public let noticeID: Int64
    public let deviceID: Int64
    public let platform: DevicePlatform
    public let token: String
    public let appID: String
    public let environment: PushEnvironment
    public let kind: NoticeKind
    /// The same on every attempt: `apns-collapse-id`, FCM `collapse_key`.
    public let collapseID: String
    /// As the writer stored it: `{"kind","link","image"?,"meetup_id"?,"reward_id"?,…,"locale","facts"}`,
    /// the facts to be worded in `locale` (`NoticeWording`); a notice queued by an earlier Belay
    /// has `"title"` and `"body"` in place of the last two.
    public let payload: [UInt8]
    /// Past this the notice is of no use: it is dropped, and the push service is told to drop it too.
    public let expiresAt: Date
    /// This attempt's number, from 1.
    public let attempt: Int
    public let createdAt: Date
    public let leaseOwner: String

    public init(noticeID: Int64, deviceID: Int64, platform: DevicePlatform, token: String, appID: String, environment: PushEnvironment,
                kind: NoticeKind, collapseID: String, payload: [UInt8], expiresAt: Date, attempt: Int, createdAt: Date, leaseOwner: String) {
        self.noticeID = noticeID
        self.deviceID = deviceID
        self.platform = platform
        self.token = token
        self.appID = appID
        self.environment = environment
        self.kind = kind
        self.collapseID = collapseID
        self.payload = payload
        self.expiresAt = expiresAt
        self.attempt = attempt
        self.createdAt = createdAt
        self.leaseOwner = leaseOwner
    }
}

/// What became of one attempt to send a notice.
public enum PushOutcome: Sendable, Hashable {
    /// The push service took it.
    case sent(status: Int)
    /// Try again later: after `after` seconds when the service said so (`Retry-After`), else
    /// after the policy's back-off.
    case retry(after: TimeInterval?, status: Int?, error: String)
    /// The service says the token is no good (`Unregistered`, `BadDeviceToken`, `UNREGISTERED`):
    /// the device is removed. `unregisteredAt` is when the service last knew the token valid
    /// (APNs' 410 `timestamp`): a device registered again after it is kept, since the app
    /// gave a token the service accepts again.
    case removeDevice(status: Int, reason: String, unregisteredAt: Date? = nil)
    /// Refused for good (a malformed request, a wrong topic): not tried again.
    case failed(status: Int?, error: String)
    /// Past its use before it could be sent.
    case dropped
}

/// What recording a batch of outcomes did, for the metrics.
public struct PushRecordSummary: Sendable, Hashable {
    public var sent = 0
    public var retried = 0
    public var failed = 0
    public var dropped = 0
    public var devicesRemoved = 0
    /// The notices given up this time after being retried (attempts used up, or no time left),
    /// each with the reason: what the worker reports loudly, since nobody else will.
    public var givenUp: [(noticeID: Int64, reason: String)] = []

    public init() {}

    public static func == (lhs: PushRecordSummary, rhs: PushRecordSummary) -> Bool {
        (lhs.sent, lhs.retried, lhs.failed, lhs.dropped, lhs.devicesRemoved) == (rhs.sent, rhs.retried, rhs.failed, rhs.dropped, rhs.devicesRemoved)
            && lhs.givenUp.map(\.noticeID) == rhs.givenUp.map(\.noticeID) && lhs.givenUp.map(\.reason) == rhs.givenUp.map(\.reason)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sent)
        hasher.combine(retried)
        hasher.combine(failed)
        hasher.combine(dropped)
        hasher.combine(devicesRemoved)
        for notice in givenUp {
            hasher.combine(notice.noticeID)
            hasher.combine(notice.reason)
        }
    }
}
