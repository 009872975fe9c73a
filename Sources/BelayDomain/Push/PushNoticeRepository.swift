import BelayCore
import BelayStorage
import Foundation

/// SQL for the push notice outbox. A claimed notice stays `pending` with `next_attempt_at`
/// moved to the end of its lease: a worker that dies mid-attempt loses nothing, the notice is
/// due again when the lease runs out.
enum PushNoticeRepository {
    /// Queues a notice at its kind's priority; nil when the device already has one with `collapseID`.
    static func insert(deviceID: Int64, kind: NoticeKind, collapseID: String, payload: [UInt8], expiresAt: Date, now: Date,
                       in db: Database) throws -> Int64? {
        try db.queryOne("""
            INSERT INTO push_notices (device_id, kind, priority, collapse_id, payload, expires_at, status, next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)
            ON CONFLICT (device_id, collapse_id) DO NOTHING
            RETURNING id
            """, [deviceID, kind.rawValue, kind.priority.rawValue, collapseID, Data(payload), expiresAt, now, now]) {
            try $0.get("id", as: Int64.self)
        }
    }

    /// A claimed notice whose kind this build does not know (written by a newer Belay, or by
    /// hand): it is ended `failed` instead of being sent, and reported.
    struct UnknownKind {
        let noticeID: Int64
        let deviceID: Int64
        let kind: String
        /// The kinds this build sends.
        let known: NoticeKinds

        /// What the log says of it.
        var message: String {
            "push: notice \(noticeID) to device \(deviceID) was not sent: its kind \(JSONOutput.quoted(kind)) is not one this build of Belay knows (\(known.all.map(\.rawValue).joined(separator: ", "))); it is marked failed. A newer Belay wrote it: run that version, or delete the notice."
        }
    }

    /// Claims up to `limit` due notices (of `only`, when given) for `owner` until `leaseUntil`:
    /// the highest priority first (the lowest number), oldest due first within a priority, read
    /// in that order from `push_notices_due_by_priority`, and returned in that order, so that a
    /// batch's streams start with its most pressing notices. A notice of a kind this build does
    /// not know is never sent as another kind: it is ended `failed` in the same transaction and
    /// returned in `unknown`.
    static func claim(owner: String, leaseUntil: Date, now: Date, limit: Int, only: [Int64]? = nil, kinds: NoticeKinds,
                      in db: Database) throws -> (deliveries: [PushDelivery], unknown: [UnknownKind]) {
        let chosen = only.map { " AND id IN (\(Array(repeating: "?", count: $0.count).joined(separator: ", ")))" } ?? ""
        let ids = try db.query("""
            UPDATE push_notices SET lease_owner = ?, lease_expires_at = ?, next_attempt_at = ?, attempts = attempts + 1
            WHERE id IN (SELECT id FROM push_notices WHERE status = 'pending' AND next_attempt_at <= ?\(chosen)
                         ORDER BY priority, next_attempt_at, id LIMIT ?\(db.dialect.skippingLockedRows(of: "push_notices")))
            RETURNING id
            """, [owner, leaseUntil, leaseUntil, now] + (only ?? []) + [limit]) { try $0.get("id", as: Int64.self) }
        guard !ids.isEmpty else { return ([], []) }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        var unknown: [UnknownKind] = []
        let deliveries = try db.query("""
            SELECT n.id, n.kind, n.collapse_id, n.payload, n.expires_at, n.attempts, n.created_at, n.lease_owner,
                   d.id AS device_id, d.platform, d.token, d.app_id, d.environment
            FROM push_notices n JOIN devices d ON d.id = n.device_id
            WHERE n.id IN (\(placeholders)) ORDER BY n.priority, n.id
            """, ids) { row -> PushDelivery? in
            let word = try row.get("kind", as: String.self)
            guard let kind = kinds.named(word) else {
                unknown.append(UnknownKind(noticeID: try row.get("id"), deviceID: try row.get("device_id"), kind: word, known: kinds))
                return nil
            }
            return PushDelivery(noticeID: try row.get("id"), deviceID: try row.get("device_id"), platform: try row.get("platform"),
                                token: try row.get("token"), appID: try row.get("app_id"), environment: try row.get("environment"),
                                kind: kind, collapseID: try row.get("collapse_id"), payload: Array(try row.get("payload", as: Data.self)),
                                expiresAt: try row.get("expires_at"), attempt: try row.get("attempts"), createdAt: try row.get("created_at"),
                                leaseOwner: try row.get("lease_owner"))
        }.compactMap { $0 }
        for notice in unknown {
            _ = try finish(id: notice.noticeID, owner: owner, status: "failed", statusCode: nil,
                           error: "kind \(JSONOutput.quoted(notice.kind)) is unknown to this build of Belay; not sent", now: now, in: db)
        }
        return (deliveries, unknown)
    }

    /// Ends a notice held by `owner` with `status`; false when the lease was lost.
    static func finish(id: Int64, owner: String, status: String, statusCode: Int?, error: String?, now: Date, in db: Database) throws -> Bool {
        try db.queryOne("""
            UPDATE push_notices SET status = ?, last_status_code = ?, last_error = ?, sent_at = CASE WHEN ? = 'sent' THEN ? END,
                lease_owner = NULL, lease_expires_at = NULL
            WHERE id = ? AND lease_owner = ? AND status = 'pending' RETURNING id
            """, [status, statusCode, error, status, now, id, owner]) { try $0.get("id", as: Int64.self) } != nil
    }

    /// Puts a notice held by `owner` back in the queue until `retryAt`.
    static func retry(id: Int64, owner: String, at retryAt: Date, statusCode: Int?, error: String, in db: Database) throws {
        try db.execute("""
            UPDATE push_notices SET next_attempt_at = ?, last_status_code = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL
            WHERE id = ? AND lease_owner = ? AND status = 'pending'
            """, [retryAt, statusCode, error, id, owner])
    }

    /// When the next pending notice is due, or nil when none is pending: the earliest of each
    /// priority's first entry in `push_notices_due_by_priority` (one index step each; a plain
    /// `min` over the index, led by the priority, would read every pending notice).
    static func nextDue(in db: Database) throws -> Date? {
        let firsts = NoticePriority.allCases.map { _ in
            "SELECT (SELECT next_attempt_at FROM push_notices WHERE status = 'pending' AND priority = ? ORDER BY next_attempt_at LIMIT 1) AS due"
        }
        return try db.queryOne("SELECT min(due) AS due FROM (\(firsts.joined(separator: " UNION ALL "))) AS firsts",
                               NoticePriority.allCases.map(\.rawValue)) {
            try $0.get("due", as: Date?.self)
        } ?? nil
    }

    /// Deletes up to `limit` finished notices created before `cutoff`; returns how many.
    static func prune(before cutoff: Date, limit: Int, in db: Database) throws -> Int {
        try db.query("""
            DELETE FROM push_notices WHERE id IN (SELECT id FROM push_notices WHERE status <> 'pending' AND created_at < ? LIMIT ?)
            RETURNING id
            """, [cutoff, limit]) { try $0.get("id", as: Int64.self) }.count
    }
}
