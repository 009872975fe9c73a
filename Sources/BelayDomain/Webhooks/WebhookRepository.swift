import BelayStorage
import Foundation

/// SQL for webhook endpoints, the event outbox and deliveries.
enum WebhookRepository {

    static let endpointColumns = """
        id, url, description, event_types, secret, previous_secret, previous_secret_expires_at, failing_since,
        disabled_at, disabled_reason, created_at, updated_at
        """

    static func decodeEndpoint(_ row: Row) throws -> WebhookEndpoint {
        let types = try row.get("event_types", separatedBy: ",", as: WebhookEventType.self)
        return WebhookEndpoint(id: try row.get("id"), url: try row.get("url"), description: try row.get("description"),
                               eventTypes: Set(types), secret: try row.get("secret"), previousSecret: try row.get("previous_secret"),
                               previousSecretExpiresAt: try row.get("previous_secret_expires_at"),
                               failingSince: try row.get("failing_since"), disabledAt: try row.get("disabled_at"),
                               disabledReason: try row.get("disabled_reason"), createdAt: try row.get("created_at"),
                               updatedAt: try row.get("updated_at"))
    }

    static func insertEndpoint(url: String, description: String, eventTypes: String, secret: String, now: Date,
                               in db: Database) throws -> Int64 {
        return try db.insertReturningID("""
            INSERT INTO webhook_endpoints (url, description, event_types, secret, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """, [url, description, eventTypes, secret, now, now])
    }

    /// An endpoint that was not removed.
    static func endpoint(id: Int64, in db: Database) throws -> WebhookEndpoint? {
        try db.queryOne("SELECT \(endpointColumns) FROM webhook_endpoints WHERE id = ? AND removed_at IS NULL", [id], decodeEndpoint)
    }

    static func endpoints(in db: Database) throws -> [WebhookEndpoint] {
        try db.query("SELECT \(endpointColumns) FROM webhook_endpoints WHERE removed_at IS NULL ORDER BY id", [], decodeEndpoint)
    }

    /// Enabled endpoints with the event types they want ('' for all), for the outbox.
    /// The condition on a `webhook_endpoints` row that it takes events of the type bound at
    /// `type`: enabled, and subscribed to every type (no `event_types`) or to this one; only
    /// the endpoint bound at `only` when that is not NULL.
    static func subscribed(to type: String, only: String, in db: Database) -> String {
        """
        disabled_at IS NULL AND removed_at IS NULL AND (\(only) IS NULL OR id = \(only))
        AND (event_types = '' OR \(db.dialect.position(of: "',' || \(type) || ','", in: "',' || event_types || ','")) > 0)
        """
    }

    /// The endpoints that take events of `type` (only `endpointID` when given), in id order.
    static func subscribers(to type: String, only endpointID: Int64?, in db: Database) throws -> [Int64] {
        try db.query("SELECT id FROM webhook_endpoints WHERE \(subscribed(to: "?1", only: "?2", in: db)) ORDER BY id",
                     [type, endpointID]) { try $0.get("id") }
    }

    static func remove(id: Int64, now: Date, in db: Database) throws {
        try db.execute("UPDATE webhook_endpoints SET removed_at = ?, updated_at = ? WHERE id = ?", [now, now, id])
    }

    static func rotate(id: Int64, secret: String, previousUntil: Date, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = ?, secret = ?, updated_at = ?
            WHERE id = ?
            """, [previousUntil, secret, now, id])
    }

    static func disable(id: Int64, reason: String, now: Date, in db: Database) throws {
        try db.execute("UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ?",
                       [now, reason, now, id])
    }

    /// Enables the endpoint and makes the head of its queue due now.
    static func enable(id: Int64, now: Date, in db: Database) throws {
        try db.execute("""
            UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL, updated_at = ?
            WHERE id = ?
            """, [now, id])
        try db.execute("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at > ?",
                       [now, id, now])
        try WorkNotification.send(.webhookDeliveries, in: db)
    }

    static func markFailing(id: Int64, now: Date, in db: Database) throws -> Date {
        try db.execute("UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE id = ?", [now, id])
        return try db.scalar("SELECT failing_since FROM webhook_endpoints WHERE id = ?", [id], as: Date.self) ?? now
    }

    static func markHealthy(id: Int64, in db: Database) throws {
        try db.execute("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL", [id])
    }

    // MARK: Outbox

    /// The turn of a new delivery about the subject bound at `subject` to the endpoint named
    /// by the SQL expression `endpoint`: one after the subject's last pending delivery to it,
    /// else the turn its queue is at (its first pending delivery's), else 0. Each is the first
    /// entry of one of the partial indexes of pending deliveries, in the order that index keeps.
    static func nextTurn(endpoint: String, subject: String) -> String {
        """
        coalesce((SELECT p.turn + 1 FROM webhook_deliveries p
                  WHERE p.endpoint_id = \(endpoint) AND p.subject = \(subject) AND p.status = 'pending' ORDER BY p.turn DESC LIMIT 1),
                 (SELECT p.turn FROM webhook_deliveries p WHERE p.endpoint_id = \(endpoint) AND p.status = 'pending'
                  ORDER BY p.turn LIMIT 1),
                 0)
        """
    }

    /// Writes the event and one pending delivery of it to each of `endpointIDs`, about
    /// `subject` (see `WebhookSubject`), the event's insert feeding the deliveries'
    /// (`Database.queryFeeding`: one statement and one round trip on PostgreSQL).
    /// - Returns: the delivery ids.
    static func insertEvent(messageID: String, type: String, body: [UInt8], subject: String, now: Date,
                            deliveringTo endpointIDs: [Int64], in db: Database) throws -> [Int64] {
        try WorkNotification.send(.webhookDeliveries, in: db)
        let endpoints = "[" + endpointIDs.map { "[\($0)]" }.joined(separator: ",") + "]"
        let deliveries = """
            INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at, created_at, subject, turn)
            SELECT endpoints.id, event.id, 'pending', 0, ?4, ?4, ?5, \(nextTurn(endpoint: "endpoints.id", subject: "?5"))
            FROM (\(db.dialect.integerRows(ofJSON: "?6", columns: ["id"]))) AS endpoints, event
            ORDER BY endpoints.id
            RETURNING id
            """
        return try db.queryFeeding("INSERT INTO webhook_events (message_id, type, body, created_at) VALUES (?1, ?2, ?3, ?4)",
                                   returning: ["id"], as: "event", into: deliveries,
                                   [messageID, type, Data(body), now, subject, endpoints]) { try $0.get("id", as: Int64.self) }.get()
    }

    /// The event that `build` makes (its `webhook-id`, payload and subject; nil: nothing is
    /// queued) and a pending delivery of it to each endpoint that takes events of `type` (only
    /// `endpointID` when given), written by statements that also find the endpoints: nothing is
    /// written, and no worker woken, when none takes it. The engine chooses whether to ask
    /// first (`Database.queryFeeding(…when:…)`): SQLite does, and builds the event only when
    /// some endpoint takes it; PostgreSQL builds it first and sends one statement for later,
    /// which costs the write no round trip of its own.
    static func insertEventForSubscribers(type: String, only endpointID: Int64?, now: Date, in db: Database,
                                          event build: () throws -> (messageID: String, body: [UInt8], subject: String)?) throws {
        let subscribers = "SELECT id FROM webhook_endpoints WHERE \(subscribed(to: "?1", only: "?2", in: db))"
        let deliveries = """
            INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, next_attempt_at, created_at, subject, turn)
            SELECT subscriber.id, event.id, 'pending', 0, ?3, ?3, ?6, \(nextTurn(endpoint: "subscriber.id", subject: "?6"))
            FROM (\(subscribers)) AS subscriber, event
            ORDER BY subscriber.id
            RETURNING id
            """
        let queued = try db.queryFeeding("INSERT INTO webhook_events (message_id, type, body, created_at) SELECT ?4, ?1, ?5, ?3",
                                         returning: ["id"], as: "event", into: deliveries, when: subscribers, [type, endpointID, now],
                                         then: { try build().map { [$0.messageID, Data($0.body), $0.subject] } }) {
            try $0.get("id", as: Int64.self)
        }
        queued.whenAnswered { ids in
            if case let .success(ids) = ids, !ids.isEmpty { try? WorkNotification.send(.webhookDeliveries, in: db) }
        }
    }

    // MARK: Deliveries

    static let deliveryColumns = """
        d.id, d.endpoint_id, d.event_id, ev.message_id, ev.type, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at,
        d.last_status_code, d.last_error, d.delivered_at, d.created_at
        """

    static func decodeDelivery(_ row: Row) throws -> WebhookDelivery {
        let status: WebhookDeliveryStatus = try row.get("status")
        return WebhookDelivery(id: try row.get("id"), endpointID: try row.get("endpoint_id"), eventID: try row.get("event_id"),
                               messageID: try row.get("message_id"), eventType: try row.get("type"), status: status,
                               attempts: try row.get("attempts"), nextAttemptAt: status == .pending ? try row.get("next_attempt_at") : nil,
                               lastAttemptAt: try row.get("last_attempt_at"), lastStatusCode: try row.get("last_status_code"),
                               lastError: try row.get("last_error"), deliveredAt: try row.get("delivered_at"),
                               createdAt: try row.get("created_at"))
    }

    static func delivery(id: Int64, in db: Database) throws -> WebhookDelivery? {
        try db.queryOne("SELECT \(deliveryColumns) FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE d.id = ?",
                        [id], decodeDelivery)
    }

    /// An endpoint's deliveries, newest first, before `beforeID`.
    static func deliveries(endpointID: Int64, beforeID: Int64, limit: Int, in db: Database) throws -> [WebhookDelivery] {
        try db.query("""
            SELECT \(deliveryColumns) FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
            WHERE d.endpoint_id = ? AND d.id < ? ORDER BY d.id DESC LIMIT ?
            """, [endpointID, beforeID, limit], decodeDelivery)
    }

    /// Queues a delivery that is over (delivered or given up) again, as it was (the same
    /// event and `webhook-id`), with a fresh round of attempts, after whatever is already
    /// pending about its subject.
    /// - Returns: false when it is still pending (it will be sent anyway).
    static func requeue(deliveryID: Int64, endpointID: Int64, now: Date, in db: Database) throws -> Bool {
        try db.execute("""
            UPDATE webhook_deliveries
            SET status = 'pending', attempts = 0, next_attempt_at = ?1, lease_owner = NULL, lease_expires_at = NULL, delivered_at = NULL,
                turn = \(nextTurn(endpoint: "?2", subject: "webhook_deliveries.subject"))
            WHERE id = ?3 AND endpoint_id = ?2 AND status <> 'pending'
            """, [now, endpointID, deliveryID])
        guard db.changes > 0 else { return false }
        try WorkNotification.send(.webhookDeliveries, in: db)
        return true
    }

    /// The head of the queue of the endpoint `e`: its first pending delivery by (turn, id).
    static let queueHead = """
        (SELECT p.id FROM webhook_deliveries p WHERE p.endpoint_id = e.id AND p.status = 'pending' ORDER BY p.turn, p.id LIMIT 1)
        """

    /// Claims the due head of one endpoint's queue (its first pending delivery by turn, so
    /// each endpoint gets the events of one subject in order, subjects taking turns, one
    /// delivery at a time).
    static func claim(owner: String, leaseUntil: Date, now: Date, in db: Database) throws -> Int64? {
        try db.queryOne("""
            UPDATE webhook_deliveries SET lease_owner = ?1, lease_expires_at = ?2, attempts = attempts + 1, last_attempt_at = ?3
            WHERE id = (SELECT h.id
                        FROM (SELECT \(queueHead) AS id
                              FROM webhook_endpoints e WHERE e.disabled_at IS NULL AND e.removed_at IS NULL) heads
                        JOIN webhook_deliveries h ON h.id = heads.id
                        WHERE h.next_attempt_at <= ?3 AND (h.lease_expires_at IS NULL OR h.lease_expires_at <= ?3)
                        ORDER BY h.next_attempt_at, h.id LIMIT 1\(db.dialect.skippingLockedRows(of: "h")))
            RETURNING id
            """, [owner, leaseUntil, now]) { try $0.get("id") }
    }

    /// After `claim` leased the head `headID` of its endpoint's queue: leases the pending
    /// deliveries right behind it in (turn, id) order, up to `limit` in all, stopping at the
    /// first that is not due or is held by another worker, so that none is sent before one
    /// ahead of it.
    /// - Returns: the ids leased, the head first, in the order they are to be sent.
    static func claimFollowers(of headID: Int64, owner: String, leaseUntil: Date, now: Date, limit: Int,
                               in db: Database) throws -> [Int64] {
        guard limit > 1,
              let head: (endpointID: Int64, turn: Int64) = try db.queryOne("SELECT endpoint_id, turn FROM webhook_deliveries WHERE id = ?",
                                                                           [headID], { (try $0.get("endpoint_id"), try $0.get("turn")) })
        else { return [headID] }
        let queue: [(id: Int64, ready: Bool)] = try db.query("""
            SELECT id, next_attempt_at <= ?5 AND (lease_expires_at IS NULL OR lease_expires_at <= ?5) AS ready
            FROM webhook_deliveries
            WHERE endpoint_id = ?1 AND status = 'pending' AND (turn > ?2 OR (turn = ?2 AND id > ?3))
            ORDER BY turn, id LIMIT ?4
            """, [head.endpointID, head.turn, headID, limit - 1, now]) { (try $0.get("id"), try $0.get("ready")) }
        let followers = queue.prefix(while: { $0.ready }).map(\.id)
        guard !followers.isEmpty else { return [headID] }
        try db.execute("""
            UPDATE webhook_deliveries SET lease_owner = ?2, lease_expires_at = ?3, attempts = attempts + 1, last_attempt_at = ?4
            WHERE id IN (SELECT id FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id"]))) AS follower) AND status = 'pending'
            """, ["[" + followers.map { "[\($0)]" }.joined(separator: ",") + "]", owner, leaseUntil, now])
        return [headID] + followers
    }

    /// Gives back a delivery claimed by `owner` but never attempted: the claim's attempt is
    /// not counted.
    static func release(deliveryID: Int64, owner: String, in db: Database) throws {
        try db.execute("""
            UPDATE webhook_deliveries
            SET lease_owner = NULL, lease_expires_at = NULL, attempts = attempts - 1,
                last_attempt_at = CASE WHEN attempts = 1 THEN NULL ELSE last_attempt_at END
            WHERE id = ? AND lease_owner = ? AND status = 'pending'
            """, [deliveryID, owner])
    }

    /// The pending deliveries `ids` (all queued for one endpoint), in the order they are to
    /// be sent, as attempts held by `owner` (after `claim` and `claimFollowers`).
    static func attempts(ids: [Int64], owner: String, secretsAt now: Date, startBy: Date, in db: Database) throws -> [WebhookAttempt] {
        guard let firstID = ids.first,
              let endpointID = try db.scalar("SELECT endpoint_id FROM webhook_deliveries WHERE id = ?", [firstID], as: Int64.self),
              let endpoint = try endpoint(id: endpointID, in: db) else { return [] }
        let secrets = endpoint.signingSecrets(at: now)
        return try db.query("""
            SELECT d.id, ev.message_id, ev.type, ev.body, d.attempts
            FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id
            WHERE d.id IN (SELECT id FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id"]))) AS held)
              AND d.endpoint_id = ?2 AND d.status = 'pending' AND d.lease_owner = ?3
            ORDER BY d.turn, d.id
            """, ["[" + ids.map { "[\($0)]" }.joined(separator: ",") + "]", endpointID, owner]) { row in
            WebhookAttempt(deliveryID: try row.get("id"), endpointID: endpointID, url: endpoint.url, secrets: secrets,
                           messageID: try row.get("message_id"), eventType: try row.get("type"),
                           body: Array(try row.get("body", as: Data.self)), attempt: try row.get("attempts"),
                           leaseOwner: owner, startBy: startBy)
        }
    }

    /// The delivery's attempt count while `owner` holds it; nil when it does not.
    static func heldAttempts(deliveryID: Int64, owner: String, in db: Database) throws -> (endpointID: Int64, attempts: Int)? {
        try db.queryOne("SELECT endpoint_id, attempts FROM webhook_deliveries WHERE id = ? AND status = 'pending' AND lease_owner = ?",
                        [deliveryID, owner]) { (try $0.get("endpoint_id"), try $0.get("attempts")) }
    }

    /// Marks delivered those of `deliveries` (id and the status code it was answered with)
    /// that `owner` still holds, in one statement.
    /// - Returns: the ids marked, with their endpoints; an id missing had its lease taken over.
    static func markDelivered(_ deliveries: [(id: Int64, statusCode: Int?)], owner: String, now: Date,
                              in db: Database) throws -> [(id: Int64, endpointID: Int64)] {
        guard !deliveries.isEmpty else { return [] }
        let list = "[" + deliveries.map { "[\($0.id),\($0.statusCode.map(String.init) ?? "null")]" }.joined(separator: ",") + "]"
        return try db.query("""
            UPDATE webhook_deliveries
            SET status = 'succeeded', lease_owner = NULL, lease_expires_at = NULL, last_status_code = done.status_code,
                last_error = NULL, delivered_at = ?3
            FROM (\(db.dialect.integerRows(ofJSON: "?1", columns: ["id", "status_code"]))) AS done
            WHERE webhook_deliveries.id = done.id AND webhook_deliveries.status = 'pending' AND webhook_deliveries.lease_owner = ?2
            RETURNING webhook_deliveries.id, webhook_deliveries.endpoint_id
            """, [list, owner, now]) { (try $0.get("id"), try $0.get("endpoint_id")) }
    }

    static func markAttemptFailed(deliveryID: Int64, statusCode: Int?, error: String, retryAt: Date?, in db: Database) throws {
        if let retryAt {
            try db.execute("""
                UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, last_status_code = ?, last_error = ?,
                                              next_attempt_at = ?
                WHERE id = ?
                """, [statusCode, error, retryAt, deliveryID])
        } else {
            try db.execute("""
                UPDATE webhook_deliveries SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL, last_status_code = ?,
                                              last_error = ?
                WHERE id = ?
                """, [statusCode, error, deliveryID])
        }
    }

    /// Whether some endpoint's head delivery is due at `now` and not held.
    static func hasDue(now: Date, in db: Database) throws -> Bool {
        // Each head is looked up by its id, one endpoint at a time (a subquery per endpoint rather
        // than a join), so that the plan reads one row per endpoint whatever the server believes
        // of the table's size: a join planned while the table looked empty read all of it.
        try db.scalar("""
            SELECT 1 FROM (SELECT (SELECT h.id FROM webhook_deliveries h
                                   WHERE h.id = \(queueHead)
                                     AND h.next_attempt_at <= ?1 AND (h.lease_expires_at IS NULL OR h.lease_expires_at <= ?1)) AS due
                           FROM webhook_endpoints e WHERE e.disabled_at IS NULL AND e.removed_at IS NULL) heads
            WHERE due IS NOT NULL
            LIMIT 1
            """, [now], as: Int.self) != nil
    }

    static func runningOwners(now: Date, in db: Database) throws -> [String] {
        try db.query("""
            SELECT DISTINCT lease_owner FROM webhook_deliveries
            WHERE status = 'pending' AND lease_owner IS NOT NULL AND lease_expires_at > ? ORDER BY 1
            """, [now]) { try $0.get("lease_owner") }
    }

    static func expireLeases(owner: String, now: Date, in db: Database) throws -> Int {
        try db.execute("""
            UPDATE webhook_deliveries SET lease_expires_at = ?
            WHERE status = 'pending' AND lease_owner = ? AND lease_expires_at > ?
            """, [now, owner, now])
        return db.changes
    }

    static func counts(in db: Database) throws -> [WebhookDeliveryStatus: Int] {
        var counts: [WebhookDeliveryStatus: Int] = [:]
        for (status, count) in try db.query("SELECT status, count(*) AS count FROM webhook_deliveries GROUP BY status", [], {
            (try $0.get("status", as: WebhookDeliveryStatus.self), try $0.get("count", as: Int.self))
        }) {
            counts[status] = count
        }
        return counts
    }

    // MARK: Retention

    /// One batch of `WebhookRetention`: of the `limit` deliveries after id `after`, deletes
    /// those created before `cutoff` that are done (or whose endpoint was removed), then
    /// their events that no delivery refers to any more. Ids grow with time, so the walk
    /// ends at the first batch reaching the cutoff.
    static func pruneBatch(after: Int64, limit: Int, before cutoff: Date,
                           in db: Database) throws -> (deliveries: Int, events: Int, lastID: Int64?, reachedCutoff: Bool) {
        let rows: [(id: Int64, eventID: Int64, createdAt: Date, prunable: Bool)] = try db.query("""
            SELECT d.id, d.event_id, d.created_at, (d.status <> 'pending' OR e.removed_at IS NOT NULL) AS prunable
            FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
            WHERE d.id > ?1 ORDER BY d.id LIMIT ?2
            """, [after, limit]) { (try $0.get("id"), try $0.get("event_id"), try $0.get("created_at"), try $0.get("prunable")) }
        let doomed = rows.filter { $0.prunable && $0.createdAt < cutoff }
        var events = 0, deleted = 0
        if !doomed.isEmpty {
            func list(_ ids: some Sequence<Int64>) -> String { "[" + ids.map { "[\($0)]" }.joined(separator: ",") + "]" }
            let idRows = db.dialect.integerRows(ofJSON: "?1", columns: ["id"])
            try db.execute("DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM (\(idRows)) AS doomed)", [list(doomed.map(\.id))])
            deleted = db.changes
            // Through the (endpoint_id, event_id) index: endpoints are few.
            let candidates = Set(doomed.map(\.eventID))
            let referenced: [Int64] = try db.query("""
                SELECT DISTINCT event_id FROM webhook_deliveries
                WHERE endpoint_id IN (SELECT id FROM webhook_endpoints) AND event_id IN (SELECT id FROM (\(idRows)) AS candidate)
                """, [list(candidates)]) { try $0.get("event_id") }
            let orphaned = candidates.subtracting(referenced).sorted()
            if !orphaned.isEmpty {
                try db.execute("DELETE FROM webhook_events WHERE id IN (SELECT id FROM (\(idRows)) AS doomed)", [list(orphaned)])
                events = db.changes
            }
        }
        return (deleted, events, rows.last?.id, rows.count < limit || (rows.last.map { $0.createdAt >= cutoff } ?? true))
    }
}
