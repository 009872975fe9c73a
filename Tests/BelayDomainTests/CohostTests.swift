import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Co-hosts have the host's rights on a meetup, and only on that one; only its host and
/// admins name them.
@Suite struct CohostTests {
    let fixture: DomainFixture
    let cohost: User
    let stranger: User

    init() throws {
        fixture = try DomainFixture()
        cohost = try fixture.domain.users.createUser(NewUser(handle: "cohost", displayName: "Co Host", role: .host))
        stranger = try fixture.domain.users.createUser(NewUser(handle: "stranger", displayName: "Other Host", role: .host))
    }

    private func actor(_ user: User) -> Actor { .user(user.id, role: user.role) }

    @Test func aCohostManagesTheMeetupAsItsHostDoes() throws {
        let meetup = try fixture.meetup(startsIn: 600)
        let member = try fixture.member()
        let meetups = fixture.domain.meetups
        // Before: refused like any other host.
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(cohost)) } == .notPermitted)
        #expect(refusal { _ = try meetups.currentCheckInCode(meetupID: meetup.id, by: actor(cohost)) } == .notPermitted)

        // A host names only someone they can see: one who joined one of their meetups.
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: fixture.hostActor) } == .userNotFound)
        let earlier = try fixture.meetup(startsIn: 1_200)
        _ = try fixture.domain.attendance.join(meetupID: earlier.id, memberID: cohost.id, by: actor(cohost))
        #expect(try meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: fixture.hostActor) == [cohost.id])
        #expect(try meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: fixture.hostActor) == [cohost.id], "twice is harmless")
        #expect(try meetups.isManaged(meetupID: meetup.id, by: actor(cohost)))
        #expect(try !meetups.isManaged(meetupID: meetup.id, by: actor(stranger)))

        // Adding a member by id, like any naming of a user, needs one the co-host may see.
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(cohost)) } == .userNotFound)
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(member))
        _ = try fixture.domain.attendance.leave(meetupID: meetup.id, memberID: member.id, by: actor(cohost))
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(cohost))
        _ = try meetups.currentCheckInCode(meetupID: meetup.id, by: actor(cohost))
        var changes = MeetupChanges()
        changes.title = "Renamed by the co-host"
        #expect(try meetups.update(id: meetup.id, changes, by: actor(cohost)).title == "Renamed by the co-host")
        let result = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: actor(cohost))
        let reward = try #require(result.reward)
        #expect(try fixture.domain.rewards.reward(id: reward.id, visibleTo: actor(cohost)).id == reward.id)
        #expect(try fixture.domain.rewards.rewards(memberID: member.id, hostedBy: cohost.id).items.map(\.id) == [reward.id])
        #expect(try fixture.domain.users.user(id: member.id, visibleTo: actor(cohost)).id == member.id)
        _ = try fixture.domain.checkIns.undoCheckIn(meetupID: meetup.id, memberID: member.id, by: actor(cohost))

        // Another host still sees nothing of it.
        #expect(refusal { _ = try fixture.domain.rewards.reward(id: reward.id, visibleTo: actor(stranger)) } == .rewardNotFound)
        #expect(try fixture.domain.rewards.rewards(memberID: member.id, includeRevoked: true, hostedBy: stranger.id).items.isEmpty)
        #expect(refusal { _ = try fixture.domain.users.user(id: member.id, visibleTo: actor(stranger)) } == .userNotFound)

        // Removed: the rights go with it.
        #expect(try meetups.removeCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine) == [])
        #expect(refusal { _ = try meetups.currentCheckInCode(meetupID: meetup.id, by: actor(cohost)) } == .notPermitted)
        #expect(refusal { _ = try meetups.update(id: meetup.id, changes, by: actor(cohost)) } == .notPermitted)
    }

    @Test func onlyTheHostOrAnAdminNamesCohostsAndOnlyHostsCanBeOne() throws {
        let meetup = try fixture.meetup()
        let meetups = fixture.domain.meetups
        try meetups.addCohost(meetupID: meetup.id, userID: cohost.id, by: .commandLine)
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: stranger.id, by: actor(cohost)) } == .notPermitted,
                "a co-host does not name co-hosts")
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: stranger.id, by: actor(stranger)) } == .notPermitted)
        let member = try fixture.member()
        // Unseen by the host, a member and a host are both unknown to them, like an id no user has.
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: member.id, by: fixture.hostActor) } == .userNotFound)
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: stranger.id, by: fixture.hostActor) } == .userNotFound)
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: actor(member))
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: member.id, by: fixture.hostActor) } == .notPermitted,
                "a member the host sees is named, and refused as a member")
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: fixture.host.id, by: fixture.hostActor) } == .invalidInput)
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: 9_999, by: fixture.hostActor) } == .userNotFound)
        #expect(refusal { try meetups.addCohost(meetupID: 9_999, userID: cohost.id, by: .commandLine) } == .meetupNotFound)
        // Handing the meetup over stays with admins.
        var changes = MeetupChanges()
        changes.hostID = cohost.id
        #expect(refusal { _ = try meetups.update(id: meetup.id, changes, by: actor(cohost)) } == .notPermitted)
        _ = try meetups.cancel(id: meetup.id, by: actor(cohost))
        #expect(refusal { try meetups.addCohost(meetupID: meetup.id, userID: stranger.id, by: .commandLine) } == .meetupCancelled)
        #expect(try meetups.cohosts(meetupID: meetup.id) == [cohost.id])
    }
}
