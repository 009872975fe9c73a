import BelayCore
import BelayStorage
import Foundation

/// Members' devices and their choices of notices, the notices that fall due with time
/// (reminders, check-in open, an offer about to run out, a project about to come down), and the outbox the delivery workers
/// claim from and report to.
///
/// Threading: safe from any thread.
public final class PushService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    public let policy: PushPolicy
    private let writer: PushNoticeWriter
    private let checkInOpensMinutesBefore: Int
    private let projectEndingDays: Int

    init(pool: any DatabaseStore, clock: any TimeSource, writer: PushNoticeWriter, checkInPolicy: CheckInPolicy,
         logbook: LogbookPolicy = LogbookPolicy()) {
        self.projectEndingDays = logbook.projectEndingDays
        self.pool = pool
        self.clock = clock
        self.policy = writer.policy
        self.writer = writer
        self.checkInOpensMinutesBefore = checkInPolicy.opensMinutesBeforeStart
    }

    // MARK: Devices

    /// Registers a device for the member on the session that asks (`sessionID` nil for an
    /// admin-made token). A token registered before is updated and now belongs to this member
    /// only; notices still waiting for its previous member are dropped.
    /// - Throws: `DomainError` `invalid_input` naming the field (`token`, `app_id`).
    public func register(_ registration: DeviceRegistration, userID: Int64, sessionID: Int64?) throws -> Device {
        let token = registration.token.trimmingCharacters(in: .whitespaces)
        guard (1...4_096).contains(token.utf8.count), token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw DomainError.invalid("token", "`token` is the push token the platform gave the app (APNs device token in hex, or the FCM registration token): 1 to 4096 printable ASCII characters without spaces")
        }
        guard (1...255).contains(registration.appID.utf8.count),
              registration.appID.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || ".-_".unicodeScalars.contains($0) }) else {
            throw DomainError.invalid("app_id", "`app_id` is the app's bundle id or Android package name, such as club.belay.app: letters, digits, '.', '-' and '_'")
        }
        var cleaned = registration
        cleaned.token = token
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                if let existing = try DeviceRepository.find(platform: cleaned.platform, token: token, in: db), existing.userID != userID {
                    try DeviceRepository.dropPendingNotices(deviceID: existing.id, in: db)
                }
                let id = try DeviceRepository.upsert(cleaned, userID: userID, sessionID: sessionID, now: now, in: db)
                guard let device = try DeviceRepository.find(id: id, in: db) else {
                    throw DomainError(.storageFailure, "Device \(id) disappeared while it was registered")
                }
                return device
            }
        }
    }

    /// The member's registered devices, oldest first.
    public func devices(userID: Int64) throws -> [Device] {
        try domainCall { try pool.read { db in try DeviceRepository.list(userID: userID, in: db) } }
    }

    /// A member's devices as `actor` may see them: their own, or anyone's for an admin.
    /// - Throws: `DomainError` `not_permitted` for anyone else, `user_not_found`.
    public func devices(userID: Int64, by actor: Actor) throws -> [Device] {
        try Self.requireAdminOrSelf(userID, actor)
        return try devices(userID: userID)
    }

    /// Queues a test notice to every device of a member, as `queueTest(userID:)`, asked by
    /// `actor`: the member themself or an admin.
    /// - Throws: `DomainError` `not_permitted` for anyone else.
    public func queueTest(userID: Int64, by actor: Actor) throws -> [Int64] {
        try Self.requireAdminOrSelf(userID, actor)
        return try queueTest(userID: userID)
    }

    private static func requireAdminOrSelf(_ userID: Int64, _ actor: Actor) throws {
        guard actor.isAdmin || actor.userID == userID else {
            throw DomainError(.notPermitted, "Only admins see and test another member's devices")
        }
    }

    /// Removes one of the member's devices (the app signing out of notices on that phone).
    /// - Throws: `DomainError` `device_not_found` when the member has no device `id`.
    public func removeDevice(id: Int64, userID: Int64) throws {
        try domainCall {
            try pool.write { db in
                guard let device = try DeviceRepository.find(id: id, in: db), device.userID == userID else {
                    throw DomainError(.deviceNotFound, "You have no device with id \(id); list them with GET /v1/me/devices")
                }
                try DeviceRepository.delete(id: id, in: db)
            }
        }
    }

    // MARK: Choices

    /// Whether each switchable kind of notice is on for the member (a personal best only when
    /// they switched it on).
    public func settings(userID: Int64) throws -> [(kind: NoticeKind, enabled: Bool)] {
        let choices = try domainCall { try pool.read { db in try DeviceRepository.choices(userID: userID, in: db) } }
        return policy.kinds.switchable.map { ($0, choices[$0.rawValue] ?? $0.isOnByDefault) }
    }

    /// The switchable kind named `name`, as a member names it in `PUT /v1/me/notifications`.
    /// - Throws: `DomainError` `invalid_input` naming `name` when no kind a member can switch is so named.
    public func switchableKind(named name: String) throws -> NoticeKind {
        guard let kind = policy.kinds.named(name), kind.isSwitchable else {
            throw DomainError.invalid(name, "`\(name.prefix(40))` is not a kind of notice a member can switch; the kinds are \(switchableNames).")
        }
        return kind
    }

    private var switchableNames: String { policy.kinds.switchable.map(\.rawValue).joined(separator: ", ") }

    /// Switches kinds of notice on or off; kinds not named stay as they are.
    /// - Returns: every switchable kind and whether it is on.
    /// - Throws: `DomainError` `invalid_input` naming a kind that is always sent (a test, a
    ///   moderator's notice) or that this build does not send.
    public func updateSettings(userID: Int64, _ changes: [(kind: NoticeKind, enabled: Bool)]) throws -> [(kind: NoticeKind, enabled: Bool)] {
        if let fixed = changes.first(where: { !$0.kind.isSwitchable || policy.kinds.named($0.kind.rawValue) == nil }) {
            throw DomainError.invalid(fixed.kind.rawValue, "\(fixed.kind.rawValue) notices cannot be switched; the kinds are \(switchableNames)")
        }
        try domainCall {
            try pool.write { db in
                for change in changes { try DeviceRepository.setEnabled(change.enabled, kind: change.kind, userID: userID, in: db) }
            }
        }
        return try settings(userID: userID)
    }

    /// Tells a member a notice of `kind` that no change of Belay's causes (one a deployment or
    /// a test declared beside Belay's own): one notice per device that wants the kind, in the
    /// device's language, none twice with one `collapseID`.
    /// - Parameters:
    ///   - path: what its link opens, after `server.public_base_url`.
    ///   - ids: what the app reads beside the words (`("meetup_id", 7)`).
    ///   - facts: what its words are made of, in each language it is told in.
    /// - Returns: the notices queued (none when no device wants it).
    /// - Throws: `DomainError` `invalid_input` when this Belay does not send `kind` (`PushPolicy.kinds`).
    public func tell(_ kind: NoticeKind, memberID: Int64, collapseID: String, expiresAt: Date, path: String,
                     ids: [(String, JSONValue)] = [], facts: @escaping (MemberLocale) -> NoticeFacts) throws -> [Int64] {
        guard policy.kinds.named(kind.rawValue) != nil else {
            throw DomainError.invalid("kind", "\(kind.rawValue) is not a kind of notice this Belay sends (PushPolicy.kinds)")
        }
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                try writer.tell(kind, memberID: memberID, collapseID: collapseID, expiresAt: expiresAt, path: path, ids: ids, now: now, in: db,
                                facts: facts)
            }
        }
    }

    /// Queues a test notice to every device of the member, whatever they switched off.
    /// - Returns: the notices queued (none when the member has no device).
    public func queueTest(userID: Int64) throws -> [Int64] {
        let now = clock.now()
        return try domainCall { try pool.write { db in try writer.test(userID: userID, now: now, in: db) } }
    }

    /// Queues a test notice to every device of the member, as `queueTest`, held already by
    /// `owner` for the policy's lease (in the same transaction), so that no running server's
    /// worker, woken by the queueing, sends it first: `belay push test` sends it itself and
    /// prints each service's answer.
    /// - Returns: the notices, claimed by `owner`.
    public func queueTest(userID: Int64, heldBy owner: String) throws -> [PushDelivery] {
        let now = clock.now()
        return try domainCall {
            try pool.lockedWrite { db in
                let ids = try writer.test(userID: userID, now: now, in: db)
                guard !ids.isEmpty else { return [] }
                return try PushNoticeRepository.claim(owner: owner, leaseUntil: now.addingTimeInterval(Double(policy.leaseSeconds)),
                                                      now: now, limit: ids.count, only: ids, kinds: policy.kinds, in: db).deliveries
            }
        }
    }

    // MARK: Notices that fall due with time

    /// Queues what time has made due: reminders `reminderMinutesBefore` a meetup starts, the
    /// opening of check-in, the warning before an offer runs out, and a problem a member tried
    /// and has not sent coming down within `logbook.project_ending_days`. Each is queued once per
    /// meetup start (or offer end, or member and problem), so a meetup that moves is reminded again.
    /// - Returns: how many notices were queued.
    @discardableResult
    public func queueScheduled(limit: Int = 500) throws -> Int {
        let now = clock.now()
        var queued = 0
        try domainCall {
            if policy.reminderMinutesBefore > 0 {
                let horizon = now.addingTimeInterval(Double(policy.reminderMinutesBefore) * 60)
                queued += try queueMeetups(.reminder, sql: "m.starts_at > ? AND m.starts_at <= ?", [now, horizon], limit: limit, now: now)
            }
            let opensWithin = now.addingTimeInterval(Double(checkInOpensMinutesBefore) * 60)
            queued += try queueMeetups(.checkInOpen, sql: "m.starts_at <= ? AND m.ends_at > ?", [opensWithin, now], limit: limit, now: now)
            if policy.offerWarningMinutes > 0 {
                let warnFrom = now.addingTimeInterval(Double(policy.offerWarningMinutes) * 60)
                let offers = try pool.read { db in
                    try db.query("""
                        SELECT a.id, a.offer_expires_at FROM attendances a
                        WHERE a.status = 'waitlisted' AND a.offer_expires_at > ? AND a.offer_expires_at <= ?
                          AND NOT EXISTS (SELECT 1 FROM push_schedule_marks k WHERE k.kind = ? AND k.subject_id = a.id AND k.due_at = a.offer_expires_at)
                        ORDER BY a.offer_expires_at LIMIT ?
                        """, [now, warnFrom, NoticeKind.waitlistOfferExpiring.rawValue, limit]) {
                        (try $0.get("id", as: Int64.self), try $0.get("offer_expires_at", as: Date.self))
                    }
                }
                for (id, endsAt) in offers {
                    try pool.write { db in
                        guard try mark(.waitlistOfferExpiring, subject: id, dueAt: endsAt, in: db) else { return }
                        try writer.attendance(.offerExpiring, id: id, now: now, in: db)
                    }
                    queued += 1
                }
            }
            if projectEndingDays > 0 { queued += try queueProjectsEnding(limit: limit, now: now) }
        }
        return queued
    }

    /// Tells each member who tried a current problem, and has not sent it, a few days before its
    /// expected removal. A member and problem are marked by the member's first attempt there.
    private func queueProjectsEnding(limit: Int, now: Date) throws -> Int {
        // A day in any zone is within a day of the day in UTC; each gym's own day is checked below.
        let utcToday = CalendarDay(now, in: .gmt)
        let earliest = utcToday.adding(days: -1)
        let latest = utcToday.adding(days: projectEndingDays + 1)
        let once = Date(timeIntervalSince1970: 0)
        let due = try pool.read { db in
            try db.query("""
                SELECT a.id AS tick_id, a.user_id, a.problem_id, p.expected_removal_on, g.time_zone FROM problems p
                JOIN gyms g ON g.id = p.gym_id
                JOIN ticks a ON a.problem_id = p.id AND a.style = 'attempt'
                WHERE p.removed_on IS NULL AND p.expected_removal_on >= ? AND p.expected_removal_on <= ?
                  AND NOT EXISTS (SELECT 1 FROM ticks e WHERE e.problem_id = a.problem_id AND e.user_id = a.user_id
                                                         AND (e.style <> 'attempt' OR e.id < a.id))
                  AND NOT EXISTS (SELECT 1 FROM push_schedule_marks k WHERE k.kind = ? AND k.subject_id = a.id AND k.due_at = ?)
                ORDER BY p.expected_removal_on, a.id LIMIT ?
                """, [earliest.description, latest.description, NoticeKind.projectEnding.rawValue, once, limit]) { row in
                (tick: try row.get("tick_id", as: Int64.self), member: try row.get("user_id", as: Int64.self),
                 problem: try row.get("problem_id", as: Int64.self), removal: try row.get("expected_removal_on", as: String.self),
                 zone: try row.get("time_zone", as: String.self))
            }
        }
        var queued = 0
        for row in due {
            guard let removal = CalendarDay(row.removal) else { continue }
            let today = CalendarDay(now, in: TimeZone(identifier: row.zone) ?? .gmt)
            let days = removal.daysSinceEpoch - today.daysSinceEpoch
            // Not yet within the gym's own horizon: its turn comes on a later pass.
            if days > projectEndingDays { continue }
            try pool.write { db in
                guard try mark(.projectEnding, subject: row.tick, dueAt: once, in: db) else { return }
                // A day already past in the gym's zone is only marked: the problem came down.
                guard days >= 0, let problem = try ProblemRepository.find(id: row.problem, in: db) else { return }
                try writer.projectEnding(problem, memberID: row.member, removalDay: removal, now: now, in: db)
                queued += 1
            }
        }
        return queued
    }

    private func queueMeetups(_ notice: MeetupNotice, sql condition: String, _ arguments: [any DatabaseValueConvertible], limit: Int,
                              now: Date) throws -> Int {
        let due = try pool.read { db in
            try db.query("""
                SELECT m.id, m.starts_at FROM meetups m
                WHERE m.status = 'scheduled' AND \(condition)
                  AND NOT EXISTS (SELECT 1 FROM push_schedule_marks k WHERE k.kind = ? AND k.subject_id = m.id AND k.due_at = m.starts_at)
                ORDER BY m.starts_at LIMIT ?
                """, arguments + [notice.kind.rawValue, limit]) { (try $0.get("id", as: Int64.self), try $0.get("starts_at", as: Date.self)) }
        }
        for (id, startsAt) in due {
            try pool.write { db in
                guard try mark(notice.kind, subject: id, dueAt: startsAt, in: db), let meetup = try MeetupRepository.find(id: id, in: db),
                      meetup.status == .scheduled else { return }
                try writer.meetup(notice, meetup, now: now, in: db)
            }
        }
        return due.count
    }

    /// Records that `kind` was queued for `subject` due at `dueAt`; false when it already was.
    private func mark(_ kind: NoticeKind, subject: Int64, dueAt: Date, in db: Database) throws -> Bool {
        try db.queryOne("""
            INSERT INTO push_schedule_marks (kind, subject_id, due_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING subject_id
            """, [kind.rawValue, subject, dueAt]) { try $0.get("subject_id", as: Int64.self) } != nil
    }

    // MARK: The outbox

    /// Claims up to `limit` due notices (of `only`, when given) for one worker, held for the
    /// policy's lease. A notice of a kind this build does not know (a newer Belay wrote it) is
    /// never sent as another kind: it is marked failed, and `skipped` gets a line saying so.
    public func claim(owner: String, limit: Int, only: [Int64]? = nil,
                      skipped: (String) -> Void = { _ in }) throws -> [PushDelivery] {
        let now = clock.now()
        if let only, only.isEmpty { return [] }
        let claimed = try domainCall {
            try pool.lockedWrite { db in
                try PushNoticeRepository.claim(owner: owner, leaseUntil: now.addingTimeInterval(Double(policy.leaseSeconds)), now: now,
                                               limit: max(1, min(limit, 500)), only: only, kinds: policy.kinds, in: db)
            }
        }
        for notice in claimed.unknown { skipped(notice.message) }
        return claimed.deliveries
    }

    /// Records what became of claimed notices, in one transaction: sent, retried after a
    /// back-off (or the service's `Retry-After`), given up after the last attempt, dropped,
    /// or the device removed.
    public func record(_ results: [(PushDelivery, PushOutcome)]) throws -> PushRecordSummary {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                var summary = PushRecordSummary()
                for (delivery, outcome) in results {
                    let id = delivery.noticeID, owner = delivery.leaseOwner
                    switch outcome {
                    case let .sent(status):
                        if try PushNoticeRepository.finish(id: id, owner: owner, status: "sent", statusCode: status, error: nil, now: now, in: db) {
                            summary.sent += 1
                        }
                    case .dropped:
                        if try PushNoticeRepository.finish(id: id, owner: owner, status: "dropped", statusCode: nil,
                                                           error: "past its use before it could be sent", now: now, in: db) {
                            summary.dropped += 1
                        }
                    case let .failed(status, error):
                        _ = try PushNoticeRepository.finish(id: id, owner: owner, status: "failed", statusCode: status, error: error, now: now, in: db)
                        summary.failed += 1
                    case let .removeDevice(status, reason, unregisteredAt):
                        _ = try PushNoticeRepository.finish(id: id, owner: owner, status: "failed", statusCode: status, error: reason, now: now, in: db)
                        if try DeviceRepository.delete(id: delivery.deviceID, registeredBefore: unregisteredAt, in: db) { summary.devicesRemoved += 1 }
                        summary.failed += 1
                    case let .retry(after, status, error):
                        let retryAt = now.addingTimeInterval(after ?? policy.retryDelay(afterAttempt: delivery.attempt))
                        if delivery.attempt >= policy.maxAttempts || retryAt >= delivery.expiresAt {
                            let reason = delivery.attempt >= policy.maxAttempts ? "\(error) (gave up after \(delivery.attempt) attempts)" : "\(error) (its next try would be past its use)"
                            if try PushNoticeRepository.finish(id: id, owner: owner, status: "failed", statusCode: status, error: reason, now: now, in: db) {
                                summary.givenUp.append((id, reason))
                            }
                            summary.failed += 1
                        } else {
                            try PushNoticeRepository.retry(id: id, owner: owner, at: retryAt, statusCode: status, error: error, in: db)
                            summary.retried += 1
                        }
                    }
                }
                return summary
            }
        }
    }

    /// When the next pending notice is due (nil: none is pending).
    public func nextDue() throws -> Date? {
        try domainCall { try pool.read { db in try PushNoticeRepository.nextDue(in: db) } }
    }

    /// Deletes finished notices older than the policy's retention, up to `limit`.
    @discardableResult
    public func prune(limit: Int = 10_000) throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Double(policy.retentionDays) * 86_400)
        return try domainCall { try pool.write { db in try PushNoticeRepository.prune(before: cutoff, limit: limit, in: db) } }
    }
}
