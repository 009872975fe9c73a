import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// A co-host counts as the host for blocks: a member blocked either way by a co-host cannot
/// join (or claim an offered place), does not find the meetup in lists, searches, the feed or by
/// id, and is passed over on the waitlist; an offer made before a block is withdrawn at the
/// claim; and a member already going stays when the host changes or a co-host is added, the
/// attendee list showing the block of whoever runs the meetup now.
@Suite struct CohostBlockTests {
    let fixture: DomainFixture
    let cohost: User

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
            $0.waitlist = WaitlistPolicy(claimMinutes: 30, cutoffMinutes: 60)
        })
        cohost = try fixture.domain.users.createUser(NewUser(handle: "cohost", displayName: "Co Host", role: .host))
    }

    private func actor(_ member: User) -> Actor { .user(member.id, role: member.role) }

    private func listed(for viewer: User, _ search: MeetupSearch = MeetupSearch()) throws -> [Int64] {
        var query = MeetupQuery(limit: 50)
        query.search = search
        query.viewerID = viewer.id
        return try fixture.domain.meetups.list(query).items.map(\.id)
    }

    private func join(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(member)).attendance
    }

    private func attendance(_ member: User, _ meetup: Meetup) throws -> Attendance {
        try #require(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: member.id))
    }

    private func phone(_ members: User...) throws {
        for member in members {
            _ = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(member.handle)-phone", appID: "club.belay.app", locale: .en),
                                                 userID: member.id, sessionID: nil)
        }
    }

    /// The handles of the members a notice of `kind` was queued for.
    private func told(_ kind: NoticeKind) throws -> [String] {
        try fixture.pool.read { db in
            try db.query("""
                SELECT u.handle FROM push_notices n JOIN devices d ON d.id = n.device_id JOIN users u ON u.id = d.user_id
                WHERE n.kind = ? ORDER BY n.id
                """, [kind.rawValue]) { try $0.get("handle", as: String.self) }
        }
    }

    @Test func aMemberBlockedEitherWayByACohostIsKeptFromTheMeetupAsFromTheHostsOwn() throws {
        let gym = try fixture.domain.gyms.create(GymDraft(name: "The Climb Sinsa", location: (37.5163, 127.0201), timeZone: "Asia/Seoul"),
                                                 by: .commandLine)
        let start = fixture.clock.now().addingTimeInterval(86_400)
        let meetup = try fixture.domain.meetups.create(
            NewMeetup(title: "Sinsa evening", placeName: "", startsAt: start, endsAt: start.addingTimeInterval(7_200), timeZone: "",
                      capacity: 8, hostID: fixture.host.id, gymID: gym.id), by: fixture.hostActor)
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        let (shunned, blocker, bystander) = (try fixture.member("shunned"), try fixture.member("blocker"), try fixture.member("bystander"))
        for member in [shunned, blocker, bystander] { _ = try fixture.domain.meetups.follow(.gym(gym.id), by: actor(member)) }
        try fixture.domain.safety.block(shunned.id, by: cohost.id)  // the co-host blocked a member
        try fixture.domain.safety.block(cohost.id, by: blocker.id)  // a member blocked the co-host

        var search = MeetupSearch()
        search.gymID = gym.id
        for member in [shunned, blocker] {
            #expect(try listed(for: member) == [], "\(member.handle) lists a meetup its co-host is blocked with")
            #expect(try listed(for: member, search) == [], "\(member.handle) finds it at the gym")
            #expect(try fixture.domain.meetups.feed(memberID: member.id, near: nil, limit: 20, cursor: nil).items.isEmpty)
            #expect(refusal { _ = try fixture.domain.meetups.meetup(id: meetup.id, seenBy: actor(member)) } == .meetupNotFound)
            do {
                _ = try join(member, meetup)
                Issue.record("\(member.handle) joined across a co-host's block")
            } catch let error as DomainError {
                #expect(error.reason == .notPermitted)
                #expect(!error.message.contains("block"))
            }
        }
        #expect(try listed(for: bystander) == [meetup.id])
        #expect(try listed(for: bystander, search) == [meetup.id])
        #expect(try fixture.domain.meetups.feed(memberID: bystander.id, near: nil, limit: 20, cursor: nil).items.map(\.meetup.id) == [meetup.id])
        _ = try join(bystander, meetup)

        // Another meetup of the host, without that co-host, stays open to them.
        let elsewhere = try fixture.meetup(startsIn: 2 * 86_400)
        #expect(try listed(for: shunned) == [elsewhere.id])
        _ = try join(shunned, elsewhere)

        // Once the co-host steps down, or the block is lifted, the meetup is theirs to find again.
        _ = try fixture.domain.meetups.removeCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        #expect(try listed(for: shunned, search) == [meetup.id])
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        try fixture.domain.safety.unblock(cohost.id, by: blocker.id)
        _ = try join(blocker, meetup)
    }

    @Test func aCohostsBanKeepsTheMemberOutOfTheMeetupsTheyCohost() throws {
        let meetup = try fixture.meetup()
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        let banned = try fixture.member()
        try fixture.domain.safety.ban(banned.id, by: cohost.id)
        #expect(refusal { _ = try join(banned, meetup) } == .notPermitted)
        #expect(try listed(for: banned) == [meetup.id], "a ban is not a block: the meetup still shows")
    }

    @Test func anOfferMadeBeforeABlockIsWithdrawnAtTheClaimAndPassesToTheNext() throws {
        let meetup = try fixture.meetup(capacity: 1, startsIn: 3 * 86_400)
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        let (going, first, second, third) = (try fixture.member("going"), try fixture.member("first"), try fixture.member("second"),
                                             try fixture.member("third"))
        try phone(going, first, second, third)
        for member in [going, first, second, third] { _ = try join(member, meetup) }

        // The place freed goes to the first in line as an offer; then the co-host blocks them.
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: going.id, by: actor(going))
        #expect(try attendance(first, meetup).offerExpiresAt != nil)
        try fixture.domain.safety.block(first.id, by: cohost.id)
        do {
            _ = try fixture.domain.attendance.claim(meetupID: meetup.id, memberID: first.id, by: actor(first))
            Issue.record("an offer made before a block was claimed")
        } catch let error as DomainError {
            #expect(error.reason == .notPermitted)
            #expect(!error.message.contains("block"))
        }
        let withdrawn = try attendance(first, meetup)
        #expect(withdrawn.status == .waitlisted && withdrawn.offerExpiresAt == nil, "they stay in line, without the offer")
        #expect(try attendance(second, meetup).offerExpiresAt != nil, "the place passed to the next in line")
        #expect(try told(.waitlistOffer) == ["first", "second"])

        // The next one blocks the host after their offer: the same at their claim; the third gets it and claims it.
        try fixture.domain.safety.block(fixture.host.id, by: second.id)
        #expect(refusal { _ = try fixture.domain.attendance.claim(meetupID: meetup.id, memberID: second.id, by: actor(second)) } == .notPermitted)
        #expect(try fixture.domain.attendance.claim(meetupID: meetup.id, memberID: third.id, by: actor(third)).status == .going)
        #expect(try WaitlistOfferTests.invariant(fixture.pool, meetupID: meetup.id, capacity: 1).held == 1)
        #expect(try told(.waitlistOffer) == ["first", "second", "third"])
        #expect(try told(.waitlistPromoted).isEmpty)

        // Lifting the block puts them back in line where they were: the next place is offered to first.
        try fixture.domain.safety.unblock(first.id, by: cohost.id)
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: third.id, by: actor(third))
        #expect(try attendance(first, meetup).offerExpiresAt != nil)
    }

    @Test func withoutOffersThePlaceGoesPastAMemberBlockedByACohost() throws {
        let instant = try DomainFixture(settings: BuiltInSettings.domain { $0.waitlist = WaitlistPolicy(claimMinutes: 0, cutoffMinutes: 60) })
        let cohost = try instant.domain.users.createUser(NewUser(handle: "cohost", displayName: "Co Host", role: .host))
        let meetup = try instant.meetup(capacity: 1, startsIn: 3 * 86_400)
        _ = try instant.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        let (going, blocker, next) = (try instant.member("going"), try instant.member("blocker"), try instant.member("next"))
        for member in [going, blocker, next] {
            _ = try instant.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(member))
        }
        try instant.domain.safety.block(cohost.id, by: blocker.id)
        let left = try instant.domain.attendance.leave(meetupID: meetup.id, memberID: going.id, by: actor(going))
        #expect(left.promoted.map(\.memberID) == [next.id])
        #expect(try instant.domain.attendance.attendance(meetupID: meetup.id, memberID: blocker.id)?.status == .waitlisted)
    }

    @Test func aNewHostOrCohostLeavesThoseGoingAndTheAttendeeListShowsTheirBlocks() throws {
        let meetup = try fixture.meetup()
        let newHost = try fixture.domain.users.createUser(NewUser(handle: "newhost", displayName: "New Host", role: .host))
        let (shunnedByNewHost, shunnedByCohost, blockerOfCohost, plain) =
            (try fixture.member("a"), try fixture.member("b"), try fixture.member("c"), try fixture.member("d"))
        for member in [shunnedByNewHost, shunnedByCohost, blockerOfCohost, plain] { _ = try join(member, meetup) }
        try fixture.domain.safety.block(shunnedByNewHost.id, by: newHost.id)
        try fixture.domain.safety.block(shunnedByCohost.id, by: cohost.id)
        try fixture.domain.safety.block(cohost.id, by: blockerOfCohost.id)
        func flags() throws -> [String: Bool] {
            Dictionary(uniqueKeysWithValues: try fixture.domain.attendance.attendees(meetupID: meetup.id).items.map { ($0.handle, $0.blockedByHost) })
        }
        #expect(try flags() == ["a": false, "b": false, "c": false, "d": false])

        var changes = MeetupChanges()
        changes.hostID = newHost.id
        #expect(try fixture.domain.meetups.update(id: meetup.id, changes, by: .commandLine).hostID == newHost.id)
        #expect(try flags() == ["a": true, "b": false, "c": false, "d": false], "the new host's block shows")
        _ = try fixture.domain.meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        // The co-host's own block shows; the member's block of the co-host never does.
        #expect(try flags() == ["a": true, "b": true, "c": false, "d": false])
        let statuses = try fixture.domain.attendance.attendees(meetupID: meetup.id).items.map(\.attendance.status)
        #expect(statuses == [.going, .going, .going, .going], "nobody already going is removed")
        // Those going still see the meetup they attend.
        for member in [shunnedByNewHost, shunnedByCohost, blockerOfCohost] {
            #expect(try fixture.domain.meetups.meetup(id: meetup.id, seenBy: actor(member)).id == meetup.id)
        }
        _ = try fixture.domain.meetups.removeCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        #expect(try flags() == ["a": true, "b": false, "c": false, "d": false])
    }
}
