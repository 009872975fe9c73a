import BelayCore
import BelayStorage
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes webhook events into the outbox inside the transaction of the change that caused
/// them: one `webhook_events` row with the exact payload and one pending delivery per
/// enabled endpoint that wants the type. When no endpoint wants it, nothing is written, so a
/// club without webhooks pays one small query, and the payload is built only where building
/// it costs less than asking first (on PostgreSQL, for an event whose payload reads nothing).
///
/// It subscribes to the domain's `ChangeEvent`s beside the notice writer, and decides which
/// event type each change is and what its `data` says; `webhook.test` alone is queued by
/// calling it directly (`WebhookService`).
final class WebhookEmitter: ChangeSubscriber {
    let encoder: any WebhookPayloadEncoding

    init(encoder: any WebhookPayloadEncoding) {
        self.encoder = encoder
    }

    func changed(_ event: ChangeEvent, now: Date, in db: Database) throws {
        switch event {
        case let .attendanceJoined(attendanceID, _, _, _, _): try attendance(.attendanceJoined, id: attendanceID, now: now, in: db)
        case let .attendancePromoted(promoted, _, _): try attendance(.attendancePromoted, promoted, now: now, in: db)
        case let .attendanceLeft(attendanceID): try attendance(.attendanceLeft, id: attendanceID, now: now, in: db)
        case let .checkedIn(checkedIn): try attendance(.checkInCreated, checkedIn, now: now, in: db)
        case let .checkInUndone(attendanceID): try attendance(.checkInUndone, id: attendanceID, now: now, in: db)
        case .waitlistOffered: break
        case let .offerExpired(attendanceID): try attendance(.attendanceOfferExpired, id: attendanceID, now: now, in: db)
        case let .meetupCreated(meetup, _): try self.meetup(.meetupCreated, id: meetup.id, now: now, in: db)
        case let .seriesCreated(meetupIDs): for id in meetupIDs { try self.meetup(.meetupCreated, id: id, now: now, in: db) }
        case let .meetupUpdated(meetup, _): try self.meetup(.meetupUpdated, id: meetup.id, now: now, in: db)
        case let .meetupPageChanged(meetupID): try self.meetup(.meetupUpdated, id: meetupID, now: now, in: db)
        case let .meetupCompleted(meetupID): try self.meetup(.meetupCompleted, id: meetupID, now: now, in: db)
        case let .meetupCancelled(meetup, _): try self.meetup(.meetupCancelled, id: meetup.id, now: now, in: db)
        case let .rewardReady(rewardID): try reward(.rewardReady, id: rewardID, now: now, in: db)
        case let .ticksLogged(memberID, created, _):
            // Private ticks are the member's own: never sent out.
            let shared = created.filter { $0.visibility != .private }
            guard !shared.isEmpty else { return }
            try emit(.tickCreated, subject: .member(memberID), now: now, buildReadsNothing: true, in: db) {
                encoder.data(ticks: shared, memberID: memberID)
            }
        case let .accountDeleted(userID):
            try emit(.userDeleted, subject: .member(userID), now: now, buildReadsNothing: true, in: db) { Array("{\"id\":\(userID)}".utf8) }
        case let .reportFiled(reportID, subjectType, subjectID, reason):
            try emit(.reportCreated, subject: .reported(subjectType, subjectID), now: now, buildReadsNothing: true, in: db) {
                var json = JSONOutput()
                json.object { json in
                    json.member("id", reportID)
                    json.member("subject_type", subjectType.rawValue)
                    json.member("subject_id", subjectID)
                    json.member("reason", reason.rawValue)
                }
                return json.bytes
            }
        case let .contentHidden(subjectType, subjectID, automatically):
            try emit(.contentHidden, subject: .reported(subjectType, subjectID), now: now, buildReadsNothing: true, in: db) {
                var json = JSONOutput()
                json.object { json in
                    json.member("subject_type", subjectType.rawValue)
                    json.member("subject_id", subjectID)
                    json.member("automatic", automatically)
                }
                return json.bytes
            }
        case let .memberSuspended(memberID, until):
            try emit(.memberSuspended, subject: .member(memberID), now: now, buildReadsNothing: true, in: db) {
                var json = JSONOutput()
                json.object { json in
                    json.member("id", memberID)
                    json.member("until", until.map { RFC3339.string(from: $0, fraction: .none) })
                }
                return json.bytes
            }
        case .moderated: break
        }
    }

    /// Queues an event about a meetup, read in the transaction.
    func meetup(_ type: WebhookEventType, id: Int64, now: Date, in db: Database) throws {
        try emit(type, subject: .meetup(id), now: now, in: db) { try MeetupRepository.find(id: id, in: db).map(encoder.data(meetup:)) }
    }

    /// Queues an event about an attendance, read in the transaction.
    func attendance(_ type: WebhookEventType, id: Int64, now: Date, in db: Database) throws {
        try emitEvent(type, now: now, in: db) {
            try AttendanceRepository.find(id: id, in: db).map { (.member($0.memberID), encoder.data(attendance: $0)) }
        }
    }

    /// Queues an event about an attendance the caller has just written and holds as it reads.
    func attendance(_ type: WebhookEventType, _ attendance: Attendance?, now: Date, in db: Database) throws {
        try emitEvent(type, now: now, buildReadsNothing: true, in: db) { attendance.map { (.member($0.memberID), encoder.data(attendance: $0)) } }
    }

    /// Queues an event about a reward, read in the transaction.
    func reward(_ type: WebhookEventType, id: Int64, now: Date, in db: Database) throws {
        try emitEvent(type, now: now, in: db) {
            try RewardRepository.find(id: id, in: db).map { (.member($0.memberID), encoder.data(reward: $0)) }
        }
    }

    /// Queues `type` about `subject` with the `data` that `build` writes (nil: the subject is
    /// gone, nothing is queued) for every subscribed endpoint, or only `endpointID` when given.
    /// - Parameter buildReadsNothing: `build` only encodes what the caller holds. The event is
    ///   then written by the statements that find the subscribers, and the engine decides
    ///   whether to ask for them before building it (`WebhookRepository.insertEventForSubscribers`);
    ///   otherwise the subscribers are read first and it is built only when some endpoint wants it.
    func emit(_ type: WebhookEventType, subject: WebhookSubject, now: Date, only endpointID: Int64? = nil,
              buildReadsNothing: Bool = false, in db: Database, data build: () throws -> [UInt8]?) throws {
        try emitEvent(type, now: now, only: endpointID, buildReadsNothing: buildReadsNothing, in: db) { try build().map { (subject, $0) } }
    }

    /// `emit` for an event whose subject is known once it is read: `build` gives both.
    func emitEvent(_ type: WebhookEventType, now: Date, only endpointID: Int64? = nil, buildReadsNothing: Bool = false,
                   in db: Database, event build: () throws -> (subject: WebhookSubject, data: [UInt8])?) throws {
        if buildReadsNothing {
            try WebhookRepository.insertEventForSubscribers(type: type.rawValue, only: endpointID, now: now, in: db) {
                try build().map { (Self.messageID(at: now), Self.body(type, now: now, data: $0.data), $0.subject.key) }
            }
            return
        }
        let subscribers = try WebhookRepository.subscribers(to: type.rawValue, only: endpointID, in: db)
        guard !subscribers.isEmpty, let event = try build() else { return }
        _ = try WebhookRepository.insertEvent(messageID: Self.messageID(at: now), type: type.rawValue,
                                              body: Self.body(type, now: now, data: event.data), subject: event.subject.key,
                                              now: now, deliveringTo: subscribers, in: db)
    }

    /// Queues a `webhook.test` event for the endpoint `endpointID` alone, whichever event types
    /// it subscribes to.
    /// - Returns: the id of its delivery.
    func emitTest(to endpointID: Int64, now: Date, in db: Database, data: [UInt8]) throws -> Int64 {
        let ids = try WebhookRepository.insertEvent(messageID: Self.messageID(at: now), type: WebhookEventType.webhookTest.rawValue,
                                                    body: Self.body(.webhookTest, now: now, data: data),
                                                    subject: WebhookSubject.endpoint(endpointID).key, now: now,
                                                    deliveringTo: [endpointID], in: db)
        guard let id = ids.first else { throw DomainError(.webhookNotFound, "Webhook \(endpointID) took no test delivery") }
        return id
    }

    /// The payload: the type, the timestamp, and `data`.
    static func body(_ type: WebhookEventType, now: Date, data: [UInt8]) -> [UInt8] {
        var body = Array("{\"type\":\"\(type.rawValue)\",\"timestamp\":\"\(timestamp(now))\",\"data\":".utf8)
        body += data
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// A new `webhook-id`: `msg_`, the instant in milliseconds as 12 hex digits, then 64 random
    /// bits. Ids made later sort later, so the outbox's unique index on them grows at its end
    /// instead of at a random page per event (which made every group commit write a page per
    /// check-in); the random part keeps ids from several nodes apart.
    static func messageID(at instant: Date) -> String {
        // To the nearest millisecond, as the payload's timestamp is written.
        let milliseconds = UInt64(max(0, (instant.timeIntervalSince1970 * 1000).rounded()))
        let time = String(milliseconds, radix: 16)
        return "msg_" + String(repeating: "0", count: max(0, 12 - time.count)) + time + Crypto.hex(Crypto.randomBytes(8))
    }

    /// RFC 3339 in UTC with milliseconds, e.g. `2026-12-01T09:30:00.250Z`.
    static func timestamp(_ instant: Date) -> String { RFC3339.string(from: instant, fraction: .milliseconds) }
}
