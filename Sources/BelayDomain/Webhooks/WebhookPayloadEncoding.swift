import Foundation

/// Writes the `data` of a webhook payload: the same JSON representation of a meetup,
/// attendance or reward as the API answers with. BelayRepresentations provides the real one (`APIWebhookPayloads`); the
/// domain's own (`WebhookIdentifiersEncoding`) writes only ids, for tests of the domain.
///
/// Called inside the write transaction of the change; it must not touch the database.
public protocol WebhookPayloadEncoding: Sendable {
    func data(meetup: Meetup) -> [UInt8]
    func data(attendance: Attendance) -> [UInt8]
    func data(reward: Reward) -> [UInt8]
    /// `{"user_id": …, "ticks": [...]}`.
    func data(ticks: [Tick], memberID: Int64) -> [UInt8]
}

/// The domain's stand-in: `{"id":…}` plus the ids that place the object.
public struct WebhookIdentifiersEncoding: WebhookPayloadEncoding {
    public init() {}

    public func data(meetup: Meetup) -> [UInt8] {
        Array("{\"id\":\(meetup.id),\"status\":\"\(meetup.status.rawValue)\"}".utf8)
    }

    public func data(attendance: Attendance) -> [UInt8] {
        Array("{\"id\":\(attendance.id),\"meetup_id\":\(attendance.meetupID),\"user_id\":\(attendance.memberID),\"status\":\"\(attendance.status.rawValue)\"}".utf8)
    }

    public func data(reward: Reward) -> [UInt8] {
        Array("{\"id\":\(reward.id),\"meetup_id\":\(reward.meetupID),\"user_id\":\(reward.memberID)}".utf8)
    }

    public func data(ticks: [Tick], memberID: Int64) -> [UInt8] {
        Array("{\"user_id\":\(memberID),\"ticks\":[\(ticks.map { "{\"id\":\($0.id)}" }.joined(separator: ","))]}".utf8)
    }
}
