import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Members who blocked each other hear nothing of each other: no new-meetup notice of a host
/// blocked either way (followed as a host or through a gym, whoever made the block), no place
/// offered or given in a blocked host's meetup (the member stays in line, passed over), and a
/// blocked host can be neither followed nor seen among the member's follows.
@Suite struct BlockedNoticeTests {
    let fixture: DomainFixture

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
        })
    }

    private func phone(_ members: User...) throws {
        for member in members {
            _ = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(member.handle)-phone", appID: "club.belay.app", locale: .en),
                                                 userID: member.id, sessionID: nil)
        }
    }

    private func actor(_ member: User) -> Actor { .user(member.id, role: member.role) }

    /// The handles of the members a notice of `kind` was queued for.
    private func told(_ kind: NoticeKind) throws -> Set<String> {
        Set(try fixture.pool.read { db in
            try db.query("""
                SELECT u.handle FROM push_notices n JOIN devices d ON d.id = n.device_id JOIN users u ON u.id = d.user_id WHERE n.kind = ?
                """, [kind.rawValue]) { try $0.get("handle", as: String.self) }
        })
    }

    @Test func aNewMeetupTellsNoFollowerBlockedEitherWayWhetherTheyFollowTheHostOrTheGym() throws {
        let gym = try fixture.domain.gyms.create(GymDraft(name: "The Climb Gangnam", location: (37.4979, 127.0276), timeZone: "Asia/Seoul"),
                                                 by: .commandLine)
        let (blockedByHost, blockerOfHost, gymBlocker, gymFan, fan) =
            (try fixture.member("shunned"), try fixture.member("blocker"), try fixture.member("gymblocker"), try fixture.member("gymfan"),
             try fixture.member("fan"))
        try phone(blockedByHost, blockerOfHost, gymBlocker, gymFan, fan)
        for member in [blockedByHost, blockerOfHost, fan] {
            _ = try fixture.domain.meetups.follow(.host(fixture.host.id), by: actor(member))
        }
        for member in [gymBlocker, gymFan] { _ = try fixture.domain.meetups.follow(.gym(gym.id), by: actor(member)) }
        try fixture.domain.safety.block(blockedByHost.id, by: fixture.host.id)  // the host blocked a follower
        try fixture.domain.safety.block(fixture.host.id, by: blockerOfHost.id)  // a follower blocked the host
        try fixture.domain.safety.block(fixture.host.id, by: gymBlocker.id)  // a gym's follower blocked the host

        let start = fixture.clock.now().addingTimeInterval(86_400)
        _ = try fixture.domain.meetups.create(NewMeetup(title: "At the gym", placeName: "", startsAt: start, endsAt: start.addingTimeInterval(7_200),
                                                        timeZone: "", capacity: 8, hostID: fixture.host.id, gymID: gym.id), by: fixture.hostActor)
        #expect(try told(.newMeetup) == ["fan", "gymfan"])

        // Lifting the blocks lets the next day's meetup through to them.
        try fixture.domain.safety.unblock(blockedByHost.id, by: fixture.host.id)
        try fixture.domain.safety.unblock(fixture.host.id, by: blockerOfHost.id)
        try fixture.domain.safety.unblock(fixture.host.id, by: gymBlocker.id)
        fixture.clock.advance(by: 86_400)
        _ = try fixture.domain.meetups.create(NewMeetup(title: "Again", placeName: "", startsAt: start.addingTimeInterval(86_400),
                                                        endsAt: start.addingTimeInterval(93_600), timeZone: "", capacity: 8, hostID: fixture.host.id,
                                                        gymID: gym.id), by: fixture.hostActor)
        #expect(try told(.newMeetup) == ["fan", "gymfan", "shunned", "blocker", "gymblocker"])
    }

    @Test func aBlockedHostCannotBeFollowedAndLeavesTheFollowsTillTheBlockIsLifted() throws {
        let member = try fixture.member("climber")
        _ = try fixture.domain.meetups.follow(.host(fixture.host.id), by: actor(member))
        try fixture.domain.safety.block(member.id, by: fixture.host.id)
        #expect(try fixture.domain.meetups.follows(of: member.id).isEmpty, "the follows name a host who blocked the member")
        #expect(refusal { _ = try fixture.domain.meetups.follow(.host(fixture.host.id), by: actor(member)) } == .notPermitted)

        let other = try fixture.member("other")
        try fixture.domain.safety.block(fixture.host.id, by: other.id)
        #expect(refusal { _ = try fixture.domain.meetups.follow(.host(fixture.host.id), by: actor(other)) } == .notPermitted)

        try fixture.domain.safety.unblock(member.id, by: fixture.host.id)
        #expect(try fixture.domain.meetups.follows(of: member.id).map(\.subject) == [.host(fixture.host.id)])
    }

    @Test(arguments: [0, 30])
    func aWaitlistedMemberBlockedEitherWayWithTheHostIsPassedOverAndToldNothing(claimMinutes: Int) throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
            $0.waitlist = WaitlistPolicy(claimMinutes: claimMinutes, cutoffMinutes: 60)
        })
        let meetup = try fixture.meetup(capacity: 1, startsIn: 3 * 86_400)
        let (going, blocker, shunned, banned, next) =
            (try fixture.member("going"), try fixture.member("blocker"), try fixture.member("shunned"), try fixture.member("banned"),
             try fixture.member("next"))
        for member in [going, blocker, shunned, banned, next] {
            _ = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(member.handle)-phone", appID: "club.belay.app", locale: .en),
                                                 userID: member.id, sessionID: nil)
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        }
        try fixture.domain.safety.block(fixture.host.id, by: blocker.id)
        try fixture.domain.safety.block(shunned.id, by: fixture.host.id)
        try fixture.domain.safety.ban(banned.id, by: fixture.host.id)

        let left = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: going.id, by: .user(going.id, role: .member))
        let kind: NoticeKind = claimMinutes == 0 ? .waitlistPromoted : .waitlistOffer
        let notified = Set(try fixture.pool.read { db in
            try db.query("""
                SELECT u.handle FROM push_notices n JOIN devices d ON d.id = n.device_id JOIN users u ON u.id = d.user_id
                WHERE n.kind IN ('waitlist_promoted', 'waitlist_offer')
                """, []) { try $0.get("handle", as: String.self) }
        })
        #expect(notified == ["next"], "\(kind.rawValue) went to \(notified)")
        for member in [blocker, shunned, banned] {
            let attendance = try #require(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id))
            #expect(attendance.status == .waitlisted && attendance.offerExpiresAt == nil, "\(member.handle) was moved or offered a place")
        }
        let nextOne = try #require(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: next.id))
        #expect(claimMinutes == 0 ? nextOne.status == .going && left.promoted.map(\.memberID) == [next.id] : nextOne.offerExpiresAt != nil)
    }

    @Test func aFreePlaceAheadOfOnlyPassedOverMembersGoesToTheNextToJoin() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 3 * 86_400)
        let (going, blocker, late) = (try fixture.member("going"), try fixture.member("blocker"), try fixture.member("late"))
        for member in [going, blocker] {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(member))
        }
        try fixture.domain.safety.block(fixture.host.id, by: blocker.id)
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: going.id, by: actor(going))
        #expect(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: blocker.id)?.status == .waitlisted)
        let joined = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: late.id, by: actor(late)).attendance
        #expect(joined.status == .going, "the free place stayed empty behind a member passed over")
    }
}
