import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The webhook outbox and delivery queue: events written with the change, per-endpoint
/// order, back-off, disabling after a day, leases, and the admin's endpoint operations.
@Suite struct WebhookServiceTests {
    static let admin = Actor.commandLine

    /// A fixture whose webhooks may reach private addresses, with `change` made to the policy.
    private func fixture(_ change: (inout WebhookPolicy) -> Void = { _ in }) throws -> DomainFixture {
        try DomainFixture(settings: BuiltInSettings.domain {
            $0.webhooks.allowPrivateAddresses = true
            change(&$0.webhooks)
        })
    }

    private func drain(_ fixture: DomainFixture, owner: String = "test:1:w", answer: (WebhookAttempt) -> WebhookAttemptResult = { _ in
        WebhookAttemptResult(statusCode: 204, error: nil)
    }) throws -> [WebhookAttempt] {
        var sent: [WebhookAttempt] = []
        while let attempt = try fixture.domain.webhooks.claim(owner: owner) {
            sent.append(attempt)
            try fixture.domain.webhooks.report(attempt, answer(attempt))
        }
        return sent
    }

    private func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func eventsAreQueuedWithTheChangeOnlyForEndpointsThatWantThem() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let everything = try webhooks.add(url: "https://hooks.example.com/all", by: Self.admin)
        let checkIns = try webhooks.add(url: "https://hooks.example.com/check-ins", events: [.checkInCreated], by: Self.admin)
        #expect(everything.secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(everything.secret.dropFirst(6)))?.count == 24)

        let meetup = try fixture.meetup(capacity: 1, startsIn: 600)
        let first = try fixture.member(), second = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: first.id, by: .user(first.id, role: .member))
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: second.id, by: .user(second.id, role: .member))
        _ = try fixture.checkedIn(first, at: meetup)

        let sent = try drain(fixture)
        let forAll = sent.filter { $0.endpointID == everything.id }.map(\.eventType)
        #expect(forAll == ["meetup.created", "attendance.joined", "attendance.joined", "check_in.created"])
        let forCheckIns = sent.filter { $0.endpointID == checkIns.id }
        #expect(forCheckIns.map(\.eventType) == ["check_in.created"])
        let payload = try json(try #require(forCheckIns.first).body)
        #expect(payload["type"] as? String == "check_in.created")
        #expect((payload["timestamp"] as? String)?.hasSuffix("Z") == true)
        let data = try #require(payload["data"] as? [String: Any])
        #expect(data["user_id"] as? Int == Int(first.id))
        #expect(data["status"] as? String == "checked_in")
        // One event, one id, whichever endpoint receives it.
        let checkInIDs = Set(sent.filter { $0.eventType == "check_in.created" }.map(\.messageID))
        #expect(checkInIDs.count == 1)
        // An id starts with its event's instant, so ids made later sort later in the outbox's
        // unique index, and ends in 64 random bits.
        for attempt in sent {
            let id = attempt.messageID
            #expect(id.count == 4 + 12 + 16 && id.hasPrefix("msg_") && id.dropFirst(4).allSatisfy(\.isHexDigit), "\(id)")
            let milliseconds = try #require(UInt64(id.dropFirst(4).prefix(12), radix: 16))
            let timestamp = try #require(try json(attempt.body)["timestamp"] as? String)
            let instant = try #require(RFC3339.parse(timestamp)).date
            #expect(milliseconds == UInt64((instant.timeIntervalSince1970 * 1000).rounded()), "\(id) for \(timestamp)")
        }
        let inOrder = sent.filter { $0.endpointID == everything.id }.map { $0.messageID.prefix(16) }
        #expect(inOrder == inOrder.sorted())
    }

    @Test func aRefusedChangeQueuesNothingAndAClubWithoutEndpointsWritesNoEvents() throws {
        let fixture = try fixture()
        let meetup = try fixture.meetup()
        #expect(try fixture.pool.read { try $0.scalar("SELECT count(*) FROM webhook_events", as: Int.self) } == 0)
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", by: Self.admin)
        let member = try fixture.member()
        #expect(refusal { _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member)) } == .notAttending)
        #expect(try drain(fixture).isEmpty)
    }

    @Test func aCheckInNoEnabledEndpointWantsWritesNoEvent() throws {
        // On PostgreSQL a check-in's event is written by the statement that finds its
        // subscribers: it must find none here, and write nothing.
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let rewards = try webhooks.add(url: "https://hooks.example.com/rewards", events: [.rewardReady], by: Self.admin)
        let disabled = try webhooks.add(url: "https://hooks.example.com/all", by: Self.admin)
        try fixture.pool.write { try $0.execute("UPDATE webhook_endpoints SET disabled_at = 1 WHERE id = ?", [disabled.id]) }
        let meetup = try fixture.meetup(startsIn: 600)
        _ = try fixture.checkedIn(try fixture.member(), at: meetup)
        let written = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM webhook_events WHERE type = 'check_in.created'", as: Int.self) }
        #expect(written == 0)
        #expect(try drain(fixture).allSatisfy { $0.endpointID == rewards.id && $0.eventType == "reward.ready" })
    }

    @Test func eachEndpointGetsItsEventsInOrderAndAFailureHoldsBackTheRest() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let slow = try webhooks.add(url: "https://slow.example.com/", by: Self.admin)
        let quick = try webhooks.add(url: "https://quick.example.com/", by: Self.admin)
        _ = try fixture.meetup()
        _ = try fixture.meetup()

        // The slow endpoint's first delivery fails: its second waits; the other endpoint goes on.
        var sent: [(Int64, String, Int)] = []
        let first = try drain(fixture) { attempt in
            sent.append((attempt.endpointID, attempt.messageID, attempt.attempt))
            return attempt.endpointID == slow.id ? WebhookAttemptResult(statusCode: 500, error: nil) : WebhookAttemptResult(statusCode: 200, error: nil)
        }
        #expect(first.filter { $0.endpointID == quick.id }.count == 2)
        #expect(first.filter { $0.endpointID == slow.id }.count == 1)
        let log = try webhooks.deliveries(endpointID: slow.id, by: Self.admin).items
        #expect(log.map(\.status) == [.pending, .pending])
        let failed = try #require(log.last)
        #expect(failed.attempts == 1)
        #expect(failed.lastStatusCode == 500)
        #expect(failed.lastError == "the endpoint answered HTTP 500")
        #expect(failed.nextAttemptAt == fixture.clock.now().addingTimeInterval(10))

        // Nothing is due before the back-off ends; then the same message goes again, then the next.
        fixture.clock.advance(by: 9)
        #expect(try webhooks.claim(owner: "test:1:w") == nil)
        fixture.clock.advance(by: 1)
        let second = try drain(fixture)
        #expect(second.map(\.messageID) == [failed.messageID, log[0].messageID])
        #expect(second.map(\.attempt) == [2, 1])
        #expect(try webhooks.deliveries(endpointID: slow.id, by: Self.admin).items.allSatisfy { $0.status == .succeeded })
    }

    @Test func aFloodAboutOneMemberDoesNotHoldBackAnotherMembersCheckIn() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        _ = try webhooks.add(url: "https://hooks.example.com/", by: Self.admin)
        let meetup = try fixture.meetup(startsIn: 0)
        let flooder = try fixture.member(), member = try fixture.member()
        let flooderActor = Actor.user(flooder.id, role: .member)
        func flood(_ cycles: Int) throws {
            for _ in 0..<cycles {
                _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: flooder.id, by: flooderActor)
                _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: flooder.id, by: flooderActor)
            }
        }
        // 300 events about one member are queued, then another member joins and checks in.
        try flood(150)
        _ = try fixture.checkedIn(member, at: meetup)
        var sent: [WebhookAttempt] = []
        while true {
            let batch = try webhooks.claim(owner: "test:1:w", limit: webhooks.batchSize)
            guard !batch.isEmpty else { break }
            sent += batch
            _ = try webhooks.report(batch.map { ($0, WebhookAttemptResult(statusCode: 204, error: nil)) })
        }
        #expect(sent.count == 1 + 300 + 2)
        let types = sent.map(\.eventType)
        // The meetup, the flood's first, the member's join, the flood's second, the check-in.
        let checkIn = try #require(types.firstIndex(of: "check_in.created"))
        #expect(checkIn <= 4, "the check-in was delivery \(checkIn + 1) of \(sent.count): \(types.prefix(8))")
        // Each member's events still arrive in the order they happened.
        let ofMember = sent.filter { String(decoding: $0.body, as: UTF8.self).contains("\"user_id\":\(member.id),") }.map(\.eventType)
        #expect(ofMember == ["attendance.joined", "check_in.created"])
        let ofFlooder = sent.filter { String(decoding: $0.body, as: UTF8.self).contains("\"user_id\":\(flooder.id),") }.map(\.deliveryID)
        #expect(ofFlooder.count == 300 && ofFlooder == ofFlooder.sorted())
        #expect(sent.filter { $0.eventType.hasPrefix("attendance.") && ofFlooder.contains($0.deliveryID) }.map(\.eventType)
                == Array(repeating: ["attendance.joined", "attendance.left"], count: 150).flatMap { $0 })

        // Behind a batch already claimed, another member's event waits for that batch only.
        try flood(150)
        let inFlight = try webhooks.claim(owner: "test:1:w", limit: webhooks.batchSize)
        #expect(inFlight.count == webhooks.batchSize)
        let late = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: late.id, by: .user(late.id, role: .member))
        _ = try webhooks.report(inFlight.map { ($0, WebhookAttemptResult(statusCode: 204, error: nil)) })
        let next = try webhooks.claim(owner: "test:1:w", limit: webhooks.batchSize)
        let lateJoin = next.firstIndex { String(decoding: $0.body, as: UTF8.self).contains("\"user_id\":\(late.id),") }
        #expect(lateJoin.map { $0 <= 1 } == true, "\(String(describing: lateJoin)) of \(next.map(\.eventType).prefix(4))")
        try webhooks.release(next)
    }

    @Test func aBatchIsTheHeadOfOneEndpointsQueueInOrderAndWhatIsGivenBackIsNotCounted() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let endpoint = try webhooks.add(url: "https://hooks.example.com/", events: [.meetupCreated], by: Self.admin)
        for _ in 0..<5 { _ = try fixture.meetup() }
        let batch = try webhooks.claim(owner: "test:1:a", limit: 3)
        #expect(batch.count == 3)
        #expect(batch.map(\.deliveryID) == batch.map(\.deliveryID).sorted())
        #expect(batch.allSatisfy { $0.endpointID == endpoint.id && $0.attempt == 1 && $0.startBy > fixture.clock.now() })
        // While the head is held, no other worker may send what comes after it.
        #expect(try webhooks.claim(owner: "test:1:b", limit: 10).isEmpty)

        // The first goes, the second fails, the third was never tried and is given back.
        let outcomes = try webhooks.report([(batch[0], WebhookAttemptResult(statusCode: 204, error: nil)),
                                            (batch[1], WebhookAttemptResult(statusCode: 500, error: nil))])
        #expect(outcomes.count == 2)
        #expect(outcomes[0] == .delivered)
        guard case .willRetry? = outcomes[1] else {
            Issue.record("expected a retry, got \(String(describing: outcomes[1]))")
            return
        }
        try webhooks.release([batch[2]])
        let log = try webhooks.deliveries(endpointID: endpoint.id, by: Self.admin).items
        let released = try #require(log.first { $0.id == batch[2].deliveryID })
        #expect(released.attempts == 0 && released.status == .pending)
        // The failed one holds back the rest until its retry; then all four go, in order.
        #expect(try webhooks.claim(owner: "test:1:b", limit: 10).isEmpty)
        fixture.clock.advance(by: 10)
        let rest = try webhooks.claim(owner: "test:1:b", limit: 10)
        #expect(rest.map(\.deliveryID) == [batch[1].deliveryID, batch[2].deliveryID] + log.map(\.id).filter { $0 > batch[2].deliveryID }.sorted())
        #expect(rest.map(\.attempt) == [2, 1, 1, 1])
        // Successes reported together are each recorded with the status they were answered with.
        let codes = [200, 201, 202, 204]
        let delivered = try webhooks.report(zip(rest, codes).map { ($0, WebhookAttemptResult(statusCode: $1, error: nil)) })
        #expect(delivered == Array(repeating: .delivered, count: 4))
        let final = try webhooks.deliveries(endpointID: endpoint.id, by: Self.admin).items
        #expect(rest.map { attempt in final.first { $0.id == attempt.deliveryID }?.lastStatusCode } == codes)
        #expect(final.filter { delivery in rest.contains { $0.deliveryID == delivery.id } }
            .allSatisfy { $0.status == .succeeded && $0.deliveredAt == fixture.clock.now() })
    }

    @Test func retriesBackOffThreefoldAndAnEndpointFailingForADayIsDisabled() throws {
        // More attempts than a day holds, so the endpoint is disabled before the delivery is given up.
        let fixture = try fixture { $0.maxAttempts = 20 }
        let webhooks = fixture.domain.webhooks
        let endpoint = try webhooks.add(url: "https://down.example.com/", by: Self.admin)
        _ = try fixture.meetup()
        var delays: [TimeInterval] = []
        var outcome: WebhookAttemptOutcome?
        var messageID = ""
        while true {
            let attempt = try #require(try webhooks.claim(owner: "test:1:w"))
            messageID = attempt.messageID
            outcome = try webhooks.report(attempt, WebhookAttemptResult(statusCode: nil, error: "connection refused"))
            guard case let .willRetry(at)? = outcome else { break }
            delays.append(at.timeIntervalSince(fixture.clock.now()))
            fixture.clock.set(at)
        }
        #expect(delays == [10, 30, 90, 270, 810, 2_430, 7_290, 21_870, 65_610])
        #expect(fixture.clock.now().timeIntervalSince(DomainFixture.start) >= 86_400)
        guard case let .endpointDisabled(reason)? = outcome else {
            Issue.record("expected the endpoint to be disabled, got \(String(describing: outcome))")
            return
        }
        #expect(reason.contains("connection refused"))
        let disabled = try webhooks.endpoint(id: endpoint.id, by: Self.admin)
        #expect(!disabled.isEnabled)
        #expect(disabled.disabledReason == reason)
        // The delivery is kept for when the endpoint is back; nothing goes out meanwhile.
        fixture.clock.advance(by: 86_400)
        #expect(try webhooks.claim(owner: "test:1:w") == nil)
        #expect(refusal { _ = try webhooks.sendTest(id: endpoint.id, by: Self.admin) } == .invalidInput)
        _ = try fixture.meetup()
        _ = try webhooks.enable(id: endpoint.id, by: Self.admin)
        let resumed = try drain(fixture)
        #expect(resumed.map(\.messageID) == [messageID], "the waiting delivery goes; events while disabled are not queued for it")
        #expect(try webhooks.endpoint(id: endpoint.id, by: Self.admin).failingSince == nil)
    }

    @Test func theLastAttemptGivesUpAndTheNextDeliveryGoes() throws {
        let fixture = try fixture { $0.maxAttempts = 2; $0.retryBaseSeconds = 1 }
        let webhooks = fixture.domain.webhooks
        _ = try webhooks.add(url: "https://flaky.example.com/", by: Self.admin)
        _ = try fixture.meetup()
        _ = try fixture.meetup()
        let one = try #require(try webhooks.claim(owner: "o:1:a"))
        #expect(try webhooks.report(one, WebhookAttemptResult(statusCode: 502, error: nil)) == .willRetry(at: fixture.clock.now().addingTimeInterval(1)))
        fixture.clock.advance(by: 1)
        let again = try #require(try webhooks.claim(owner: "o:1:a"))
        #expect(again.messageID == one.messageID)
        #expect(try webhooks.report(again, WebhookAttemptResult(statusCode: 502, error: nil)) == .gaveUp)
        let next = try #require(try webhooks.claim(owner: "o:1:a"))
        #expect(next.messageID != one.messageID)
    }

    @Test func a410GoneDisablesAtOnce() throws {
        let fixture = try fixture()
        let endpoint = try fixture.domain.webhooks.add(url: "https://gone.example.com/", by: Self.admin)
        _ = try fixture.meetup()
        let attempt = try #require(try fixture.domain.webhooks.claim(owner: "o:1:a"))
        let outcome = try fixture.domain.webhooks.report(attempt, WebhookAttemptResult(statusCode: 410, error: nil))
        guard case .endpointDisabled? = outcome else { Issue.record("got \(String(describing: outcome))"); return }
        #expect(try fixture.domain.webhooks.endpoint(id: endpoint.id, by: Self.admin).disabledReason?.contains("410 Gone") == true)
    }

    @Test func aHeldDeliveryIsNotClaimedTwiceUntilItsLeaseEnds() throws {
        let fixture = try fixture { $0.leaseSeconds = 40 }
        let webhooks = fixture.domain.webhooks
        _ = try webhooks.add(url: "https://hooks.example.com/", by: Self.admin)
        _ = try fixture.meetup()
        _ = try fixture.meetup()
        let held = try #require(try webhooks.claim(owner: "host:1:webhook-0"))
        #expect(try webhooks.claim(owner: "host:2:webhook-0") == nil, "the next event waits for the one in flight")
        #expect(try webhooks.runningOwners() == ["host:1:webhook-0"])
        // Its owner died: the lease is ended and the same message goes again, with the same id.
        #expect(try webhooks.expireLeases(owner: "host:1:webhook-0") == 1)
        let retaken = try #require(try webhooks.claim(owner: "host:2:webhook-0"))
        #expect(retaken.messageID == held.messageID)
        #expect(retaken.attempt == 2)
        // The dead owner's late answer is dropped.
        #expect(try webhooks.report(held, WebhookAttemptResult(statusCode: 200, error: nil)) == nil)
        #expect(try webhooks.report(retaken, WebhookAttemptResult(statusCode: 200, error: nil)) == .delivered)
        // A lease that ran out on its own frees the delivery too.
        let next = try #require(try webhooks.claim(owner: "host:2:webhook-0"))
        fixture.clock.advance(by: 41)
        #expect(try webhooks.claim(owner: "host:3:webhook-0")?.messageID == next.messageID)
    }

    @Test func privateAddressesAndBadURLsAreRefusedUnlessAllowed() throws {
        let strict = try DomainFixture()
        for url in ["http://127.0.0.1:8080/", "http://localhost/hook", "http://10.1.2.3/", "http://192.168.0.10/",
                    "http://172.20.0.1/", "http://169.254.169.254/latest/meta-data", "http://[::1]:9000/", "http://[fe80::1]/",
                    "http://[fd00::5]/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/", "http://100.64.0.1/"] {
            #expect(refusal { _ = try strict.domain.webhooks.add(url: url, by: Self.admin) } == .invalidInput, "\(url)")
        }
        for url in ["ftp://hooks.example.com/", "hooks.example.com", "https://user:pw@hooks.example.com/", ""] {
            #expect(refusal { _ = try strict.domain.webhooks.add(url: url, by: Self.admin) } == .invalidInput, "\(url)")
        }
        #expect(try strict.domain.webhooks.add(url: "https://93.184.215.14/hook", by: Self.admin).url == "https://93.184.215.14/hook")
        #expect(try fixture().domain.webhooks.add(url: "http://127.0.0.1:9/", by: Self.admin).url == "http://127.0.0.1:9/")
    }

    @Test func onlyAdminsManageWebhooks() throws {
        let fixture = try fixture()
        #expect(refusal { _ = try fixture.domain.webhooks.add(url: "https://x.example.com/", by: fixture.hostActor) } == .notPermitted)
        #expect(refusal { _ = try fixture.domain.webhooks.endpoints(by: fixture.hostActor) } == .notPermitted)
        #expect(refusal { _ = try fixture.domain.webhooks.endpoint(id: 99, by: Self.admin) } == .webhookNotFound)
        #expect(refusal { _ = try WebhookEventType.parseList("check_in.created,meetup.exploded") } == .invalidInput)
        #expect(try WebhookEventType.parseList(" check_in.created , meetup.created") == [.checkInCreated, .meetupCreated])
        #expect(try WebhookEventType.parseList("*").isEmpty)
    }

    @Test func rotationSignsWithBothSecretsForTheGracePeriodAndRemovalStopsDeliveries() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let endpoint = try webhooks.add(url: "https://hooks.example.com/", by: Self.admin)
        let rotated = try webhooks.rotateSecret(id: endpoint.id, by: Self.admin)
        #expect(rotated.secret != endpoint.secret)
        _ = try fixture.meetup()
        #expect(try #require(try webhooks.claim(owner: "o:1:a")).secrets == [rotated.secret, endpoint.secret])
        fixture.clock.advance(by: 86_401)
        #expect(try webhooks.endpoint(id: endpoint.id, by: Self.admin).signingSecrets(at: fixture.clock.now()) == [rotated.secret])

        let test = try webhooks.sendTest(id: endpoint.id, by: Self.admin)
        #expect(test.eventType == "webhook.test")
        try webhooks.remove(id: endpoint.id, by: Self.admin)
        #expect(try webhooks.endpoints(by: Self.admin).isEmpty)
        #expect(refusal { try webhooks.remove(id: endpoint.id, by: Self.admin) } == .webhookNotFound)
        fixture.clock.advance(by: 3_600)
        #expect(try webhooks.claim(owner: "o:1:a") == nil)
    }

    /// A test event is asked of one endpoint by name, so it goes there whatever events the
    /// endpoint takes (it crashed the server's writer when none matched).
    @Test func aTestEventReachesAnEndpointThatTakesOtherEventsOnly() throws {
        let fixture = try fixture()
        let webhooks = fixture.domain.webhooks
        let endpoint = try webhooks.add(url: "https://hooks.example.com/", events: [.checkInCreated], by: Self.admin)
        let test = try webhooks.sendTest(id: endpoint.id, by: Self.admin)
        #expect(test.eventType == "webhook.test")
        let claimed = try #require(try webhooks.claim(owner: "o:1:a"))
        #expect(claimed.endpointID == endpoint.id)
        #expect(String(decoding: claimed.body, as: UTF8.self).contains("\"type\":\"webhook.test\""))
    }

    @Test func aRewardBecomingReadyIsAnEventOnceAndUndoingACheckInIsOne() throws {
        let fixture = try fixture()
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", events: [.rewardReady, .checkInUndone], by: Self.admin)
        let meetup = try fixture.meetup(startsIn: 600)
        let member = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        let result = try fixture.checkedIn(member, at: meetup)
        let reward = try #require(result.reward)
        // The second render (a new template) points the ready reward at its new images, without a second event.
        for version in 1...2 {
            let output = RenderOutput(stickerHash: "a\(version)", stickerPath: "a\(version).png", storyHash: "b\(version)",
                                      storyPath: "b\(version).png", templateVersion: version)
            try fixture.domain.renderJobs.enqueue(rewardID: reward.id, reason: .rerender)
            let job = try #require(try fixture.domain.renderJobs.claim(owner: "r:1:a").first)
            let ready = try fixture.domain.renderJobs.complete(jobID: job.id, owner: "r:1:a", output: output)
            #expect(ready.renderStatus == .ready)
            #expect(ready.images?.stickerHash == "a\(version)")
            #expect(ready.images?.templateVersion == version)
        }
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: .commandLine)
        let sent = try drain(fixture)
        #expect(sent.map(\.eventType) == ["reward.ready", "check_in.undone"])
        let data = try #require(try json(sent[0].body)["data"] as? [String: Any])
        #expect(data["id"] as? Int == Int(reward.id))
    }
}
