import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Push notices in the domain: which member's devices are told what, in which language, once;
/// devices that go with their session or account; notices that fall due on the clock; and the
/// outbox's claims, retries and drops (on the run's engine).
@Suite struct PushNoticeTests {
    let fixture: DomainFixture
    var push: PushService { fixture.domain.push }

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.waitlist.claimMinutes = 30
            $0.push.publicBaseURL = "https://club.example"
            // As if APNs and FCM were configured: devices of both platforms are told.
            $0.push.platforms = Set(DevicePlatform.allCases)
        })
    }

    private func device(_ member: User, _ token: String, platform: DevicePlatform = .ios, locale: MemberLocale? = nil,
                        session: Int64? = nil) throws -> Device {
        try push.register(DeviceRegistration(platform: platform, token: token, appID: "club.belay.app", locale: locale),
                          userID: member.id, sessionID: session)
    }

    /// Every notice queued, oldest first: its device, kind, collapse id, expiry and payload.
    private func notices() throws -> [(device: Int64, kind: String, collapseID: String, expiresAt: Date, payload: JSONValue)] {
        try fixture.pool.read { db in
            try db.query("SELECT device_id, kind, collapse_id, expires_at, payload FROM push_notices ORDER BY id", []) { row in
                (try row.get("device_id"), try row.get("kind"), try row.get("collapse_id"), try row.get("expires_at"),
                 shownNotice(kind: try row.get("kind"), payload: try row.get("payload")))
            }
        }
    }

    private func join(_ member: User, _ meetup: Meetup) throws {
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
    }

    private func leave(_ member: User, _ meetup: Meetup) throws {
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
    }

    @Test func waitlistNoticesSayWhatHappenedInTheMembersLanguageAndZone() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 86_400, title: "Night session")
        let (ana, ben) = (try fixture.member("ana"), try fixture.member("ben"))
        let benPhone = try device(ben, "ben-phone", locale: .en)
        try join(ana, meetup)
        try join(ben, meetup)
        try leave(ana, meetup)
        let offer = try #require(try notices().first { $0.kind == "waitlist_offer" })
        #expect(offer.device == benPhone.id)
        #expect(offer.payload["title"]?.stringValue == "A place is yours to claim")
        // Offered at 10:00 Seoul time for 30 minutes: "claim by 10:30" in the meetup's zone.
        #expect(offer.payload["body"]?.stringValue == "Night session, Mon 30 Nov, 10:00: claim by 10:30", "\(offer.payload)")
        #expect(offer.expiresAt == fixture.clock.now().addingTimeInterval(1_800), "of no use once the offer ends")
        #expect(offer.payload["link"]?.stringValue == "https://club.example/meetups/\(meetup.id)")

        // Five minutes before it runs out: the warning, once.
        fixture.clock.advance(by: 25 * 60)
        #expect(try push.queueScheduled() == 1)
        #expect(try push.queueScheduled() == 0)
        #expect(try notices().filter { $0.kind == "waitlist_offer_expiring" }.map { $0.payload["title"]?.stringValue } == ["5 minutes left to claim your place"])
        // Unclaimed, it runs out.
        fixture.clock.advance(by: 6 * 60)
        _ = try fixture.domain.attendance.expireOffers()
        #expect(try notices().last?.kind == "waitlist_offer_expired")
    }

    @Test func aPromotionAChangeAndACancellationTellTheMembersWhoAreComing() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 3_600, title: "Morning")
        let (ana, ben, cat) = (try fixture.member("ana"), try fixture.member("ben"), try fixture.member("cat"))
        _ = try device(ana, "ana-phone", locale: .ja)
        let benPhone = try device(ben, "ben-phone")
        _ = try device(cat, "cat-phone", locale: .en)
        try join(ana, meetup)
        try join(ben, meetup)
        // Within the cutoff the next in line goes at once.
        try leave(ana, meetup)
        let promoted = try #require(try notices().first { $0.kind == "waitlist_promoted" })
        #expect(promoted.device == benPhone.id)
        #expect(promoted.payload["title"]?.stringValue == "참가 확정: Morning", "the club's language when the member set none")

        // A new title alone tells nobody; a new time does.
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(title: "Morning climb"), by: fixture.hostActor)
        #expect(try notices().filter { $0.kind == "meetup_changed" }.isEmpty)
        let later = meetup.startsAt.addingTimeInterval(1_800)
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(startsAt: later, endsAt: later.addingTimeInterval(7_200)), by: fixture.hostActor)
        let changed = try notices().filter { $0.kind == "meetup_changed" }
        #expect(changed.map(\.device) == [benPhone.id], "ana left; cat never joined")
        #expect(changed.first?.payload["body"]?.stringValue?.contains("11:30") == true, "\(changed)")

        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        #expect(try notices().filter { $0.kind == "meetup_cancelled" }.map(\.device) == [benPhone.id], "told before the attendances end")
    }

    @Test func remindersAndCheckInOpenFallDueOnTheClockAndAgainWhenTheMeetupMoves() throws {
        let meetup = try fixture.meetup(capacity: 5, startsIn: 4 * 3_600, title: "Crag day")
        let ana = try fixture.member("ana")
        let phone = try device(ana, "ana-phone", locale: .en)
        try join(ana, meetup)
        #expect(try push.queueScheduled() == 0, "four hours ahead")
        fixture.clock.advance(by: 2 * 3_600 + 60)
        #expect(try push.queueScheduled() == 1)
        #expect(try push.queueScheduled() == 0, "once")
        let reminder = try #require(try notices().last)
        #expect(reminder.kind == "meetup_reminder" && reminder.device == phone.id)
        #expect(reminder.payload["title"]?.stringValue == "Crag day starts at 14:00")
        #expect(reminder.expiresAt == meetup.startsAt, "a reminder after the start is of no use")

        // A member who joins after the reminder went out gets it at once; nobody gets it twice.
        let ben = try fixture.member("ben")
        let benPhone = try device(ben, "ben-phone", locale: .en)
        try join(ben, meetup)
        #expect(try notices().filter { $0.kind == "meetup_reminder" }.map(\.device) == [phone.id, benPhone.id])
        #expect(try push.queueScheduled() == 0)

        // Moved later: reminded again for the new time.
        let moved = meetup.startsAt.addingTimeInterval(1_800)
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(startsAt: moved, endsAt: moved.addingTimeInterval(7_200)), by: fixture.hostActor)
        #expect(try push.queueScheduled() == 0, "14:30 is more than two hours ahead")
        fixture.clock.advance(by: 30 * 60)
        #expect(try push.queueScheduled() == 1)
        #expect(try notices().filter { $0.kind == "meetup_reminder" }.count == 4, "both members, for the new time")
        // Check-in opens 30 minutes before the start.
        fixture.clock.advance(by: 90 * 60)
        #expect(try push.queueScheduled() == 1)
        #expect(try notices().last?.kind == "check_in_open")
    }

    /// A flood queued first (thirty reminders) does not hold back what matters: the outbox
    /// claims a waitlist offer, then a cancellation, then the reminders, oldest first within a
    /// priority; when the next notice is due looks at every priority.
    @Test func theNoticeThatMattersIsClaimedBeforeAFloodQueuedEarlier() throws {
        let flood = try fixture.meetup(capacity: 40, startsIn: 100 * 60, title: "Flood")
        for index in 0..<30 {
            let member = try fixture.member("flood\(index)")
            _ = try device(member, "flood-phone-\(index)")
            try join(member, flood)
        }
        #expect(try push.queueScheduled() == 1, "the flood's reminders, 100 minutes ahead")
        let cancelled = try fixture.meetup(capacity: 5, startsIn: 5 * 3_600, title: "Cancelled")
        let cat = try fixture.member("cat")
        let catPhone = try device(cat, "cat-phone")
        try join(cat, cancelled)
        _ = try fixture.domain.meetups.cancel(id: cancelled.id, by: fixture.hostActor)
        let offered = try fixture.meetup(capacity: 1, startsIn: 86_400, title: "Offered")
        let (ana, ben) = (try fixture.member("ana"), try fixture.member("ben"))
        let benPhone = try device(ben, "ben-phone")
        try join(ana, offered)
        try join(ben, offered)
        try leave(ana, offered)
        #expect(try notices().map(\.kind).suffix(2) == ["meetup_cancelled", "waitlist_offer"], "queued after the reminders")

        let offer = try push.claim(owner: "a", limit: 1)
        #expect(offer.map(\.kind) == [.waitlistOffer] && offer.map(\.deviceID) == [benPhone.id])
        let cancellation = try push.claim(owner: "a", limit: 1)
        #expect(cancellation.map(\.kind) == [.meetupCancelled] && cancellation.map(\.deviceID) == [catPhone.id])
        let reminders = try fixture.pool.read { db in
            try db.query("SELECT id FROM push_notices WHERE kind = 'meetup_reminder' ORDER BY id", []) { try $0.get("id", as: Int64.self) }
        }
        #expect(reminders.count == 30)
        #expect(try push.claim(owner: "a", limit: 10).map(\.noticeID) == Array(reminders.prefix(10)), "first in, first out within a priority")
        #expect(try push.claim(owner: "a", limit: 100).map(\.noticeID) == Array(reminders.dropFirst(10)))

        // The reminders are held until their lease ends (60 s); the offer is retried in 30 s and
        // the cancellation in 10 s: the next due is the cancellation, whatever its priority.
        _ = try push.record([(offer[0], .retry(after: 30, status: 503, error: "APNs answered 503")),
                             (cancellation[0], .retry(after: 10, status: 503, error: "APNs answered 503"))])
        #expect(try push.nextDue() == fixture.clock.now().addingTimeInterval(10))
        // All due again: one batch, its most pressing notices first (its streams start in this order).
        fixture.clock.advance(by: Double(push.policy.leaseSeconds) + 1)
        let batch = try push.claim(owner: "b", limit: 100)
        #expect(batch.map(\.kind) == [.waitlistOffer, .meetupCancelled] + Array(repeating: .meetupReminder, count: 30))
        #expect(batch.dropFirst(2).map(\.noticeID) == reminders)
    }

    /// Each kind's priority as NoticeKind gives it is the one the README's table of notices says.
    @Test func theReadmeGivesEachKindItsPriority() throws {
        let readme = try String(contentsOf: BelayProcess.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for kind in NoticeKinds.belay.all where kind != .test {
            let row = readme.split(separator: "\n").first { $0.hasPrefix("| `\(kind.rawValue)` |") }
            let written = row?.split(separator: "|").last?.trimmingCharacters(in: .whitespaces)
            #expect(written == "\(kind.priority)", "README's row of \(kind.rawValue): \(row ?? "missing")")
        }
    }

    @Test func aSwitchedOffKindASignedOutSessionAndADeletedAccountTellNothing() throws {
        let meetup = try fixture.meetup(capacity: 5, startsIn: 86_400)
        let ana = try fixture.member("ana")
        let grant = try fixture.domain.accounts.signIn(ProvenIdentity(method: .google, subject: "g-ana", email: "ana@example.com", emailVerified: true),
                                                       device: DeviceDescription(name: "Ana's phone", platform: "android"))
        let member = grant.user
        let phone = try push.register(DeviceRegistration(platform: .android, token: "fcm-ana", appID: "club.belay.app"),
                                      userID: member.id, sessionID: grant.session.id)
        try join(member, meetup)
        _ = try push.updateSettings(userID: member.id, [(.meetupCancelled, false)])
        #expect(try push.settings(userID: member.id).first { $0.kind == .meetupCancelled }?.enabled == false)
        #expect(try push.settings(userID: member.id).first { $0.kind == .meetupChanged }?.enabled == true, "on until switched off")
        let moved = meetup.startsAt.addingTimeInterval(600)
        _ = try fixture.domain.meetups.update(id: meetup.id, MeetupChanges(startsAt: moved, endsAt: moved.addingTimeInterval(7_200)), by: fixture.hostActor)
        #expect(try notices().map(\.kind) == ["meetup_changed"])

        // Signing out removes the session's device and what waits for it.
        try fixture.domain.accounts.endSession(id: grant.session.id, userID: member.id)
        #expect(try push.devices(userID: member.id).isEmpty)
        #expect(try notices().isEmpty)
        #expect(throws: DomainError.self) { try push.removeDevice(id: phone.id, userID: member.id) }

        // Registered again (from an admin-made token) and the account deleted: gone with it.
        _ = try device(member, "fcm-ana", platform: .android)
        let again = try fixture.domain.accounts.signIn(ProvenIdentity(method: .google, subject: "g-ana", email: "ana@example.com", emailVerified: true),
                                                       device: DeviceDescription(name: "Ana's phone", platform: "android"))
        _ = try fixture.domain.accounts.deleteOwnAccount(userID: member.id, sessionID: again.session.id)
        #expect(try push.devices(userID: member.id).isEmpty)
        #expect(try push.settings(userID: member.id).allSatisfy { $0.enabled == $0.kind.isOnByDefault }, "the member's choices went too")
        _ = ana
    }

    @Test func aTokenRegisteredAgainMovesToTheLastMemberOnly() throws {
        let (ana, ben) = (try fixture.member("ana"), try fixture.member("ben"))
        let first = try device(ana, "shared-phone")
        let meetup = try fixture.meetup(capacity: 5, startsIn: 86_400)
        try join(ana, meetup)
        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        #expect(try notices().count == 1)
        let moved = try device(ben, "shared-phone", locale: .en)
        #expect(moved.id == first.id && moved.userID == ben.id && moved.locale == .en)
        #expect(try push.devices(userID: ana.id).isEmpty)
        #expect(try notices().isEmpty, "ana's notice does not reach ben")
        #expect(throws: DomainError.self) {
            try push.register(DeviceRegistration(platform: .ios, token: "has space", appID: "club.belay.app"), userID: ben.id, sessionID: nil)
        }
        #expect(throws: DomainError.self) {
            try push.register(DeviceRegistration(platform: .ios, token: "abc", appID: "club belay"), userID: ben.id, sessionID: nil)
        }
    }

    @Test func aTestNoticeIsHeldByTheOperatorsCommandFromTheMomentItIsQueued() throws {
        let ana = try fixture.member("ana")
        let phone = try device(ana, "ana-phone")
        let held = try push.queueTest(userID: ana.id, heldBy: "cli")
        #expect(held.map(\.deviceID) == [phone.id] && held.allSatisfy { $0.leaseOwner == "cli" && $0.kind == .test })
        // A running server's worker, woken by the queueing, finds nothing to send.
        #expect(try push.claim(owner: "server", limit: 10).isEmpty)
    }

    @Test func aNoticeOfAKindThisBuildDoesNotKnowIsSkippedAndLoggedNeverSentAsAnother() throws {
        let ana = try fixture.member("ana")
        _ = try device(ana, "ana-phone")
        let unknown = try #require(try push.queueTest(userID: ana.id).first)
        fixture.clock.advance(by: 1)
        let known = try #require(try push.queueTest(userID: ana.id).last)
        #expect(unknown != known)
        try fixture.pool.write { db in try db.execute("UPDATE push_notices SET kind = 'sticker_gift' WHERE id = ?", [unknown]) }
        var logged: [String] = []
        let claimed = try push.claim(owner: "a", limit: 10) { logged.append($0) }
        #expect(claimed.map(\.noticeID) == [known], "only the notice of a known kind goes out, as what it is")
        #expect(claimed.allSatisfy { $0.kind == .test })
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.contains("notice \(unknown)") == true && logged.first?.contains("\"sticker_gift\"") == true, "\(logged)")
        let row = try fixture.pool.read { db in
            try db.queryOne("SELECT status, last_error FROM push_notices WHERE id = ?", [unknown]) {
                (try $0.get("status", as: String.self), try $0.get("last_error", as: String?.self))
            }
        }
        #expect(row?.0 == "failed")
        #expect(row?.1?.contains("sticker_gift") == true, "\(String(describing: row))")
        fixture.clock.advance(by: Double(push.policy.leaseSeconds) + 1)
        #expect(try push.claim(owner: "b", limit: 10).map(\.noticeID) == [known], "never claimed again")
    }

    @Test func anAPNs410RemovesADeviceOnlyWhenItsTokenWasInvalidAfterTheRegistration() throws {
        let ana = try fixture.member("ana")
        let phone = try device(ana, "ana-phone")
        let registeredAt = fixture.clock.now()
        fixture.clock.advance(by: 60)
        _ = try push.queueTest(userID: ana.id)
        let first = try push.claim(owner: "a", limit: 10)
        // The token was last valid before the phone registered it (again): the phone stays.
        var summary = try push.record([(first[0], .removeDevice(status: 410, reason: "APNs answered 410 Unregistered",
                                                                unregisteredAt: registeredAt.addingTimeInterval(-1)))])
        #expect(summary.devicesRemoved == 0)
        #expect(try push.devices(userID: ana.id).map(\.id) == [phone.id])
        // Later than the registration: the phone goes.
        fixture.clock.advance(by: 1)
        _ = try push.queueTest(userID: ana.id)
        let second = try push.claim(owner: "a", limit: 10)
        summary = try push.record([(second[0], .removeDevice(status: 410, reason: "APNs answered 410 Unregistered",
                                                             unregisteredAt: registeredAt.addingTimeInterval(30)))])
        #expect(summary.devicesRemoved == 1)
        #expect(try push.devices(userID: ana.id).isEmpty)
    }

    @Test func theOutboxClaimsOnceRetriesDropsAndGivesUp() throws {
        let ana = try fixture.member("ana")
        let phone = try device(ana, "ana-phone")
        let ids = try push.queueTest(userID: ana.id)
        #expect(ids.count == 1)
        let claimed = try push.claim(owner: "a", limit: 10)
        #expect(claimed.map(\.noticeID) == ids)
        #expect(try push.claim(owner: "b", limit: 10).isEmpty, "held by a")
        // Service unavailable with Retry-After: due again after it, with the same collapse id.
        var summary = try push.record([(claimed[0], .retry(after: 120, status: 503, error: "APNs answered 503"))])
        #expect(summary.retried == 1)
        #expect(try push.claim(owner: "b", limit: 10).isEmpty)
        fixture.clock.advance(by: 121)
        let again = try push.claim(owner: "b", limit: 10)
        #expect(again.map(\.collapseID) == claimed.map(\.collapseID))
        #expect(again.first?.attempt == 2)
        // A lease lost (a worker that died) is taken over when it runs out.
        fixture.clock.advance(by: Double(push.policy.leaseSeconds) + 1)
        let takenOver = try push.claim(owner: "c", limit: 10)
        #expect(takenOver.first?.attempt == 3)
        summary = try push.record([(again[0], .sent(status: 200))])
        #expect(summary.sent == 0, "b's lease ended: its late answer is not recorded")
        summary = try push.record([(takenOver[0], .removeDevice(status: 410, reason: "APNs answered 410 Unregistered"))])
        #expect(summary.devicesRemoved == 1)
        #expect(try push.devices(userID: ana.id).isEmpty)
        _ = phone

        // The last attempt fails for good.
        let other = try device(ana, "ana-tablet")
        _ = try push.queueTest(userID: ana.id)
        for attempt in 1...push.policy.maxAttempts {
            fixture.clock.advance(by: 3_600)
            let batch = try push.claim(owner: "a", limit: 10)
            guard batch.count == 1 else { break }
            #expect(batch[0].attempt == attempt)
            _ = try push.record([(batch[0], .retry(after: 1, status: 500, error: "APNs answered 500"))])
        }
        let status = try fixture.pool.read { db in try db.scalar("SELECT status FROM push_notices WHERE device_id = ?", [other.id], as: String.self) }
        #expect(status == "failed")

        // Finished notices go after push.retention_days; pending ones stay.
        _ = try push.queueTest(userID: ana.id)
        #expect(try push.prune() == 0, "none is older than push.retention_days yet")
        fixture.clock.advance(by: Double(push.policy.retentionDays + 1) * 86_400)
        #expect(try push.prune() == 2, "the failed ones")
        #expect(try notices().map(\.kind) == ["test"], "the pending test notice stays")
    }
}
