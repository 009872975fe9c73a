@testable import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The domain tells each change once to the subscribers registered in `DomainServices`;
/// webhooks and notices hear it beside each other, neither through the other.
@Suite struct ChangeFeedTests {
    let settings = BuiltInSettings.domain {
        $0.webhooks.allowPrivateAddresses = true
        $0.push.platforms = Set(DevicePlatform.allCases)
    }
    let fixture: DomainFixture

    init() throws {
        fixture = try DomainFixture(settings: settings)
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/meetups", events: [.meetupCancelled], by: .commandLine)
    }

    /// A meetup with one member going and one waiting, each with a phone, and one who left
    /// before (with a phone too).
    private func meetupWithPhones() throws -> (meetup: Meetup, told: Set<Int64>) {
        let meetup = try fixture.meetup(capacity: 1)
        var told: Set<Int64> = []
        for name in ["going", "waiting", "gone"] {
            let member = try fixture.member()
            let phone = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(name)-\(meetup.id)", appID: "club.belay.app"),
                                                         userID: member.id, sessionID: nil)
            let actor = Actor.user(member.id, role: .member)
            if name == "gone" {
                _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor)
                _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: actor)
            } else {
                told.insert(phone.id)
            }
        }
        // Joined after the one who left: going first, then waiting.
        for member in try fixture.pool.read({ db in
            try db.query("SELECT user_id FROM devices WHERE token NOT LIKE 'gone-%' ORDER BY id", []) { try $0.get("user_id", as: Int64.self) }
        }) {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member, by: .user(member, role: .member))
        }
        return (meetup, told)
    }

    private func cancel(_ meetup: Meetup, subscribers: (WebhookEmitter, PushNoticeWriter) -> [any ChangeSubscriber]) throws
        -> (notified: Set<Int64>, events: [String]) {
        let emitter = WebhookEmitter(encoder: WebhookIdentifiersEncoding())
        let feed = ChangeFeed(subscribers: subscribers(emitter, PushNoticeWriter(policy: settings.push)))
        let now = fixture.clock.now()
        return try fixture.pool.write { db in
            try MeetupService.cancelInTransaction(meetup, events: feed, now: now, in: db)
            let notified = try db.query("SELECT device_id FROM push_notices WHERE kind = 'meetup_cancelled'", []) { try $0.get("device_id", as: Int64.self) }
            let events = try db.query("SELECT e.type FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id WHERE d.subject = ?", ["meetup:\(meetup.id)"]) { try $0.get("type", as: String.self) }
            return (Set(notified), events)
        }
    }

    @Test func aCancellationTellsTheMembersItSentHomeThroughTheNoticeWriterAlone() throws {
        let (meetup, told) = try meetupWithPhones()
        let heard = try cancel(meetup) { _, notices in [notices] }
        #expect(heard.notified == told, "those going and waiting, not the one who had left")
        #expect(heard.events.isEmpty, "no webhook without the emitter subscribed")
    }

    @Test func aCancellationGoesToWebhooksThroughTheEmitterAlone() throws {
        let (meetup, _) = try meetupWithPhones()
        let heard = try cancel(meetup) { emitter, _ in [emitter] }
        #expect(heard.notified.isEmpty, "no notice without the notice writer subscribed")
        #expect(heard.events == ["meetup.cancelled"])
    }

    @Test func theMembersSentHomeFromAHugeWaitlistAreFoundWhateverTheEnginesCapOnParameters() throws {
        let (_, told) = try meetupWithPhones()
        let owners = try fixture.pool.read { db in
            try db.query("SELECT user_id FROM devices WHERE token NOT LIKE 'gone-%' ORDER BY id", []) { try $0.get("user_id", as: Int64.self) }
        }
        // More members than PostgreSQL binds in one statement (65,535), the ones with phones
        // last and in the reverse order of their devices.
        let ids = Array(Int64(1_000_000)..<Int64(1_070_000)) + owners.reversed()
        let now = fixture.clock.now()
        let found = try fixture.pool.read { db in
            try DeviceRepository.recipients(.members(ids), kind: .meetupCancelled, platforms: settings.push.platforms, now: now, in: db).map(\.id)
        }
        #expect(found == told.sorted())
    }

    @Test func theDomainRegistersBothSubscribers() throws {
        let (meetup, told) = try meetupWithPhones()
        _ = try fixture.domain.meetups.cancel(id: meetup.id, by: fixture.hostActor)
        let (notified, events) = try fixture.pool.read { db in
            (Set(try db.query("SELECT device_id FROM push_notices WHERE kind = 'meetup_cancelled'", []) { try $0.get("device_id", as: Int64.self) }),
             try db.query("SELECT e.type FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id WHERE d.subject = ?", ["meetup:\(meetup.id)"]) { try $0.get("type", as: String.self) })
        }
        #expect(notified == told)
        #expect(events == ["meetup.cancelled"])
    }
}
