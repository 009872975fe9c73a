import BelayCore
import BelayStorage
import Foundation

/// Webhook endpoints (registered by admins), their delivery logs, and the delivery queue
/// the background worker drains.
///
/// Events are queued by the other services in their own transactions (see
/// `WebhookEmitter`); this service only hands them out. Each endpoint's deliveries go one at
/// a time: those about one subject (`WebhookSubject`: a member, a meetup) in the order the
/// events happened, the subjects taking turns, so that a flood about one subject holds back
/// another's next event by at most one delivery per subject with events waiting (plus a
/// batch already claimed). A worker can only claim the first pending delivery of an
/// endpoint by turn, and only while no other worker holds it. A worker that dies
/// mid-attempt loses nothing: its lease runs out (or is ended at once when its process is
/// known to be gone) and the delivery is sent again, with the same `webhook-id`.
public final class WebhookService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource
    private let policy: WebhookPolicy
    private let emitter: WebhookEmitter

    init(pool: any DatabaseStore, clock: any TimeSource, policy: WebhookPolicy, emitter: WebhookEmitter) {
        self.pool = pool
        self.clock = clock
        self.policy = policy
        self.emitter = emitter
    }

    /// The settings deliveries follow.
    public var settings: WebhookPolicy { policy }

    // MARK: Endpoints

    /// Registers an endpoint with a fresh `whsec_` secret.
    /// - Parameter events: the types it receives; empty for every type.
    /// - Throws: `DomainError`: `not_permitted` (admins only), `invalid_input` (field `url`)
    ///   for a URL that is not http(s) or points at a private address that is not allowed.
    public func add(url: String, description: String = "", events: Set<WebhookEventType> = [], by actor: Actor) throws -> WebhookEndpoint {
        try Self.requireAdmin(actor)
        let url = try WebhookAddressRule.validated(url, allowPrivateAddresses: policy.allowPrivateAddresses)
        try TextRule.webhookDescription.check(description)
        let now = clock.now()
        let secret = Self.newSecret()
        return try domainCall {
            try pool.write { db in
                let id = try WebhookRepository.insertEndpoint(url: url, description: description,
                                                              eventTypes: WebhookEventType.storedList(events.subtracting([.webhookTest])),
                                                              secret: secret, now: now, in: db)
                return try WebhookRepository.endpoint(id: id, in: db)!
            }
        }
    }

    /// Every endpoint not removed, oldest first.
    /// - Throws: `DomainError.notPermitted` (admins only).
    public func endpoints(by actor: Actor) throws -> [WebhookEndpoint] {
        try Self.requireAdmin(actor)
        return try domainCall { try pool.read { try WebhookRepository.endpoints(in: $0) } }
    }

    /// One endpoint.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`.
    public func endpoint(id: Int64, by actor: Actor) throws -> WebhookEndpoint {
        try Self.requireAdmin(actor)
        return try domainCall { try pool.read { try Self.require(id, in: $0) } }
    }

    /// Removes an endpoint: nothing more is sent to it. Its log is kept.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`.
    public func remove(id: Int64, by actor: Actor) throws {
        try Self.requireAdmin(actor)
        let now = clock.now()
        try domainCall {
            try pool.write { db in
                _ = try Self.require(id, in: db)
                try WebhookRepository.remove(id: id, now: now, in: db)
            }
        }
    }

    /// Gives the endpoint a new secret. The old one keeps signing too (a second signature in
    /// `webhook-signature`) for `rotationGraceSeconds`, so the receiver can switch over.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`.
    public func rotateSecret(id: Int64, by actor: Actor) throws -> WebhookEndpoint {
        try Self.requireAdmin(actor)
        let now = clock.now()
        let secret = Self.newSecret()
        return try domainCall {
            try pool.write { db in
                _ = try Self.require(id, in: db)
                try WebhookRepository.rotate(id: id, secret: secret, previousUntil: now.addingTimeInterval(Double(policy.rotationGraceSeconds)),
                                             now: now, in: db)
                return try Self.require(id, in: db)
            }
        }
    }

    /// Enables a disabled endpoint; what waited for it is sent, in order, from now.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`.
    public func enable(id: Int64, by actor: Actor) throws -> WebhookEndpoint {
        try Self.requireAdmin(actor)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                _ = try Self.require(id, in: db)
                try WebhookRepository.enable(id: id, now: now, in: db)
                return try Self.require(id, in: db)
            }
        }
    }

    /// Queues a `webhook.test` event for this endpoint only (a subject of its own: it takes the
    /// next turn, whatever else is queued).
    /// - Returns: its delivery, to follow in the log.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`, `invalid_input` when the
    ///   endpoint is disabled (enable it first).
    public func sendTest(id: Int64, by actor: Actor) throws -> WebhookDelivery {
        try Self.requireAdmin(actor)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let endpoint = try Self.require(id, in: db)
                guard endpoint.isEnabled else {
                    throw DomainError.invalid("id", "Webhook \(id) is disabled (\(endpoint.disabledReason ?? "by an admin")); enable it first with `belay webhooks enable \(id)`")
                }
                // To this endpoint whatever events it takes: a test is asked of it by name.
                let deliveryID = try emitter.emitTest(to: id, now: now, in: db,
                                                      data: Array("{\"endpoint_id\":\(id),\"message\":\"This is a test event from Belay.\"}".utf8))
                guard let delivery = try WebhookRepository.delivery(id: deliveryID, in: db) else {
                    throw DomainError(.webhookNotFound, "The test delivery to webhook \(id) was not recorded; try again")
                }
                return delivery
            }
        }
    }

    /// Sends one of the endpoint's deliveries again (a receiver that was down, or lost what it
    /// got): the same event with the same `webhook-id` (receivers that keep ids see a repeat),
    /// queued after what is already pending about its subject, with a fresh round of attempts.
    /// A delivery still pending is left as it is.
    /// - Returns: the delivery, pending.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found` (also for a delivery of
    ///   another endpoint), `invalid_input` when the endpoint is disabled (enable it first).
    public func redeliver(deliveryID: Int64, endpointID: Int64, by actor: Actor) throws -> WebhookDelivery {
        try Self.requireAdmin(actor)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                let endpoint = try Self.require(endpointID, in: db)
                guard let delivery = try WebhookRepository.delivery(id: deliveryID, in: db), delivery.endpointID == endpointID else {
                    throw DomainError(.webhookNotFound, "Webhook \(endpointID) has no delivery \(deliveryID); list them with GET /v1/webhooks/\(endpointID)/deliveries")
                }
                guard endpoint.isEnabled else {
                    throw DomainError.invalid("id", "Webhook \(endpointID) is disabled (\(endpoint.disabledReason ?? "by an admin")); enable it first with `belay webhooks enable \(endpointID)`")
                }
                _ = try WebhookRepository.requeue(deliveryID: deliveryID, endpointID: endpointID, now: now, in: db)
                return try WebhookRepository.delivery(id: deliveryID, in: db) ?? delivery
            }
        }
    }

    /// An endpoint's delivery log, newest first.
    /// - Throws: `DomainError`: `not_permitted`, `webhook_not_found`, a bad limit or cursor.
    public func deliveries(endpointID: Int64, limit: Int = 50, cursor: String? = nil, by actor: Actor) throws -> Page<WebhookDelivery> {
        try Self.requireAdmin(actor)
        let limit = try validatedLimit(limit, maximum: 500)
        let listName = "webhook-deliveries-\(endpointID)"
        let before = try cursor.map { try Cursor.decode($0, list: listName).id } ?? Int64.max
        let rows = try domainCall {
            try pool.read { db in
                _ = try Self.require(endpointID, in: db)
                return try WebhookRepository.deliveries(endpointID: endpointID, beforeID: before, limit: limit + 1, in: db)
            }
        }
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(list: listName, key: 0, id: $0.id).encoded } : nil
        return Page(items: page, nextCursor: next)
    }

    // MARK: The delivery queue

    /// Claims the next due delivery for one attempt, held by `owner` for `leaseSeconds`.
    /// - Returns: nil when nothing is due.
    /// - Throws: `DomainError.storageFailure`.
    public func claim(owner: String) throws -> WebhookAttempt? {
        try claim(owner: owner, limit: 1).first
    }

    /// Claims the next due delivery and up to `limit - 1` more of the same endpoint right
    /// behind it, in the order they must be sent, all held by `owner` for `leaseSeconds`;
    /// give back with `release` those not attempted.
    /// - Returns: empty when nothing is due.
    /// - Throws: `DomainError.storageFailure`.
    public func claim(owner: String, limit: Int) throws -> [WebhookAttempt] {
        let now = clock.now()
        let leaseUntil = now.addingTimeInterval(Double(policy.leaseSeconds))
        let startBy = leaseUntil.addingTimeInterval(-Double(policy.attemptSeconds))
        // A locked write: the head is locked (SKIP LOCKED), and no other worker can take the
        // deliveries behind it, as only an endpoint's head is ever claimed.
        return try domainCall {
            try pool.lockedWrite { db in
                guard let head = try WebhookRepository.claim(owner: owner, leaseUntil: leaseUntil, now: now, in: db) else { return [] }
                let ids = try WebhookRepository.claimFollowers(of: head, owner: owner, leaseUntil: leaseUntil, now: now,
                                                               limit: limit, in: db)
                return try WebhookRepository.attempts(ids: ids, owner: owner, secretsAt: now, startBy: startBy, in: db)
            }
        }
    }

    /// How many deliveries a worker claims at once (`WebhookPolicy.batchSize`).
    public var batchSize: Int { policy.batchSize }

    /// Gives back claimed deliveries that were not attempted, uncounted, for the next claim.
    /// - Throws: `DomainError.storageFailure`.
    public func release(_ attempts: [WebhookAttempt]) throws {
        guard !attempts.isEmpty else { return }
        try domainCall {
            try pool.write { db in
                for attempt in attempts { try WebhookRepository.release(deliveryID: attempt.deliveryID, owner: attempt.leaseOwner, in: db) }
            }
        }
    }

    /// Whether a delivery is due now (one statement, outside any transaction: cheap to ask
    /// after every commit that queued one, before `claim`).
    public func hasDueDelivery() throws -> Bool {
        let now = clock.now()
        return try domainCall { try pool.readSingleStatement { try WebhookRepository.hasDue(now: now, in: $0) } }
    }

    /// Records how an attempt went. A failure is retried after the back-off, until the last
    /// attempt; an endpoint that has failed for `disableAfterSeconds` since its last success,
    /// or that answered 410 Gone, is disabled (with the reason shown in its listing).
    /// - Returns: what happens next; `nil` when the lease was lost (the delivery was taken
    ///   over after its lease ran out): the result is dropped.
    /// - Throws: `DomainError.storageFailure`.
    @discardableResult
    public func report(_ attempt: WebhookAttempt, _ result: WebhookAttemptResult) throws -> WebhookAttemptOutcome? {
        try report([(attempt, result)])[0]
    }

    /// Records how several attempts went, in one transaction (see `report(_:_:)`).
    /// - Returns: each attempt's outcome, in order.
    /// - Throws: `DomainError.storageFailure`.
    public func report(_ results: [(WebhookAttempt, WebhookAttemptResult)]) throws -> [WebhookAttemptOutcome?] {
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                // A run of successes by one owner (a batch is mostly that) is marked in one
                // statement; a failure on its own. In the order given, as one at a time would.
                var outcomes = [WebhookAttemptOutcome?](repeating: nil, count: results.count)
                var run: [Int] = []
                func markRun() throws {
                    guard let first = run.first else { return }
                    let marked = try WebhookRepository.markDelivered(run.map { (results[$0].0.deliveryID, results[$0].1.statusCode) },
                                                                     owner: results[first].0.leaseOwner, now: now, in: db)
                    for endpointID in Set(marked.map(\.endpointID)) { try WebhookRepository.markHealthy(id: endpointID, in: db) }
                    let markedIDs = Set(marked.map(\.id))
                    for index in run where markedIDs.contains(results[index].0.deliveryID) { outcomes[index] = .delivered }
                    run = []
                }
                for (index, (attempt, result)) in results.enumerated() {
                    if result.succeeded {
                        if let first = run.first, results[first].0.leaseOwner != attempt.leaseOwner { try markRun() }
                        run.append(index)
                    } else {
                        try markRun()
                        outcomes[index] = try recordFailure(attempt, result, now: now, in: db)
                    }
                }
                try markRun()
                return outcomes
            }
        }
    }

    private func recordFailure(_ attempt: WebhookAttempt, _ result: WebhookAttemptResult, now: Date, in db: Database) throws -> WebhookAttemptOutcome? {
        guard let held = try WebhookRepository.heldAttempts(deliveryID: attempt.deliveryID, owner: attempt.leaseOwner, in: db) else {
            return nil
        }
        let error = String((result.error ?? "the endpoint answered HTTP \(result.statusCode ?? 0)").prefix(2_000))
        let failingSince = try WebhookRepository.markFailing(id: held.endpointID, now: now, in: db)
        var disableReason: String?
        if result.statusCode == 410 {
            disableReason = "the endpoint answered 410 Gone on \(WebhookEmitter.timestamp(now))"
        } else if now.timeIntervalSince(failingSince) >= Double(policy.disableAfterSeconds) {
            disableReason = "every attempt failed from \(WebhookEmitter.timestamp(failingSince)) to \(WebhookEmitter.timestamp(now)); last error: \(error)"
        }
        let gaveUp = held.attempts >= policy.maxAttempts
        let retryAt = gaveUp ? nil : now.addingTimeInterval(policy.retryDelay(afterAttempt: held.attempts))
        try WebhookRepository.markAttemptFailed(deliveryID: attempt.deliveryID, statusCode: result.statusCode, error: error,
                                                retryAt: retryAt, in: db)
        if let disableReason {
            try WebhookRepository.disable(id: held.endpointID, reason: disableReason, now: now, in: db)
            return .endpointDisabled(reason: disableReason)
        }
        return retryAt.map { .willRetry(at: $0) } ?? .gaveUp
    }

    /// Owners holding a delivery now (to find workers of processes that are gone).
    public func runningOwners() throws -> [String] {
        let now = clock.now()
        return try domainCall { try pool.read { try WebhookRepository.runningOwners(now: now, in: $0) } }
    }

    /// Ends the leases `owner` holds, so its deliveries can be claimed at once: for owners
    /// known to be dead.
    /// - Returns: how many leases were ended.
    @discardableResult
    public func expireLeases(owner: String) throws -> Int {
        let now = clock.now()
        return try domainCall { try pool.write { try WebhookRepository.expireLeases(owner: owner, now: now, in: $0) } }
    }

    /// How many deliveries are in each state.
    public func counts() throws -> [WebhookDeliveryStatus: Int] {
        try domainCall { try pool.read { try WebhookRepository.counts(in: $0) } }
    }

    // MARK: Rules

    /// `whsec_` and 24 random bytes in base64, as Standard Webhooks secrets are written.
    static func newSecret() -> String { "whsec_" + Data(Crypto.randomBytes(24)).base64EncodedString() }

    static func requireAdmin(_ actor: Actor) throws {
        guard actor.isAdmin else { throw DomainError(.notPermitted, "Only admins manage webhooks") }
    }

    static func require(_ id: Int64, in db: Database) throws -> WebhookEndpoint {
        guard let endpoint = try WebhookRepository.endpoint(id: id, in: db) else {
            throw DomainError(.webhookNotFound, "No webhook endpoint has id \(id); run `belay webhooks list` to see them")
        }
        return endpoint
    }
}
