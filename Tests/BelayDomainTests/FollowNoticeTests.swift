import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// A new meetup tells the members who follow its host or gym through the push outbox: once a
/// day per host (or gym), the rest folded into the next notice; never its host, never a member
/// blocked either way, never for a private meetup, and not when the member switched it off.
@Suite struct FollowNoticeTests {
    let fixture: DomainFixture

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
        })
    }

    private func phone(_ member: User) throws {
        _ = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(member.handle)-phone", appID: "club.belay.app", locale: .en),
                                             userID: member.id, sessionID: nil)
    }

    /// The new-meetup notices queued so far, by member handle: their bodies.
    private func told() throws -> [String: [String]] {
        let rows: [(String, JSONValue)] = try fixture.pool.read { db in
            try db.query("""
                SELECT u.handle, n.payload FROM push_notices n JOIN devices d ON d.id = n.device_id JOIN users u ON u.id = d.user_id
                WHERE n.kind = 'new_meetup' ORDER BY n.id
                """, []) { (try $0.get("handle"), shownNotice(kind: "new_meetup", payload: try $0.get("payload"))) }
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.compactMap { $0.1["body"]?.stringValue } }
    }

    @Test func oneNoticeADayPerHostTheRestFoldedIntoTheNext() throws {
        let (ana, ben, cat, dan) = (try fixture.member("ana"), try fixture.member("ben"), try fixture.member("cat"), try fixture.member("dan"))
        for member in [ana, ben, cat, dan, fixture.host] { try phone(member) }
        for member in [ana, ben, cat, dan] {
            _ = try fixture.domain.meetups.follow(.host(fixture.host.id), by: .user(member.id, role: .member))
        }
        _ = try fixture.domain.meetups.follow(.host(ana.id), by: fixture.hostActor)
        _ = try fixture.domain.safety.block(fixture.host.id, by: ben.id)  // ben blocked the host
        _ = try fixture.domain.push.updateSettings(userID: cat.id, [(kind: .newMeetup, enabled: false)])  // cat switched it off

        _ = try fixture.meetup(startsIn: 86_400, title: "First")
        _ = try fixture.meetup(startsIn: 90_000, title: "Second")
        _ = try fixture.meetup(startsIn: 93_600, title: "Third")
        var notices = try told()
        #expect(notices["ana"]?.count == 1 && notices["dan"]?.count == 1, "\(notices)")
        #expect(notices["ana"]?.first?.hasPrefix("First: ") == true)
        #expect(notices["ben"] == nil && notices["cat"] == nil && notices["host"] == nil, "\(notices)")

        // A private meetup tells nobody and folds nothing.
        var invite = NewMeetup(title: "Invite only", placeName: "Home wall", startsAt: fixture.clock.now().addingTimeInterval(86_400),
                               endsAt: fixture.clock.now().addingTimeInterval(90_000), timeZone: "Asia/Seoul", capacity: 4, hostID: fixture.host.id)
        invite.visibility = .private
        _ = try fixture.domain.meetups.create(invite, by: fixture.hostActor)

        fixture.clock.advance(by: 86_400)
        _ = try fixture.meetup(startsIn: 86_400, title: "Fourth")
        notices = try told()
        #expect(notices["ana"]?.count == 2)
        #expect(notices["ana"]?.last?.contains("(and 2 more since your last notice)") == true, "\(notices)")
    }
}
