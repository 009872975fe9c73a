@testable import BelayDomain
import BelayCore
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// Blocks, host bans and terms, on the engine of the run.
@Suite struct SafetyServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var safety: SafetyService { fixture.domain.safety }

    func listed(for viewer: User) throws -> [Int64] {
        var query = MeetupQuery(limit: 50)
        query.viewerID = viewer.id
        return try fixture.domain.meetups.list(query).items.map(\.id)
    }

    @Test func aBlockHidesTheHostsMeetupsBothWaysAndRefusesJoiningWithoutSayingWhy() throws {
        let meetup = try fixture.meetup()
        let blocker = try fixture.member(), bystander = try fixture.member()
        #expect(try safety.block(fixture.host.id, by: blocker.id))
        #expect(try !safety.block(fixture.host.id, by: blocker.id))  // again: nothing changes
        #expect(try safety.hasBlocks(blocker.id))
        #expect(try safety.hasBlocks(fixture.host.id))
        #expect(try !safety.hasBlocks(bystander.id))
        #expect(try listed(for: blocker) == [])
        #expect(try listed(for: bystander) == [meetup.id])
        #expect(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.map(\.id) == [meetup.id])

        do {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: blocker.id, by: .user(blocker.id, role: .member))
            Issue.record("a member who blocked the host joined")
        } catch let error as DomainError {
            #expect(error.reason == .notPermitted)
            #expect(!error.message.contains("block"))
        }
        #expect(try safety.blocks(of: blocker.id).map(\.userID) == [fixture.host.id])
        #expect(try safety.blocks(of: fixture.host.id).isEmpty)  // never who blocked you

        // The other way: the host blocks a member, who can no longer join either.
        let other = try fixture.member()
        try safety.block(other.id, by: fixture.host.id)
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: other.id, by: .user(other.id, role: .member)) } == .notPermitted)
        #expect(try listed(for: other) == [])

        #expect(try safety.unblock(fixture.host.id, by: blocker.id))
        #expect(try listed(for: blocker) == [meetup.id])
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: blocker.id, by: .user(blocker.id, role: .member))
    }

    @Test func aMemberAlreadyGoingStaysAndTheHostSeesTheirOwnBlock() throws {
        let meetup = try fixture.meetup()
        let member = try fixture.member(), other = try fixture.member()
        for attendee in [member, other] {
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: attendee.id, by: .user(attendee.id, role: .member))
        }
        try safety.block(member.id, by: fixture.host.id)
        try safety.block(fixture.host.id, by: other.id)
        let attendees = try fixture.domain.attendance.attendees(meetupID: meetup.id).items
        #expect(attendees.map(\.attendance.memberID) == [member.id, other.id])
        #expect(attendees.map(\.blockedByHost) == [true, false])  // the member's own block never shows
    }

    @Test func aHostsBanKeepsTheMemberOutOfTheirMeetupsOnly() throws {
        let meetup = try fixture.meetup()
        let banned = try fixture.member()
        let otherHost = try fixture.domain.users.createUser(NewUser(handle: "otherhost", displayName: "Other", role: .host))
        let elsewhere = try fixture.domain.meetups.create(
            NewMeetup(title: "Crag day", placeName: "Bukhansan", startsAt: fixture.clock.now().addingTimeInterval(7_200),
                      endsAt: fixture.clock.now().addingTimeInterval(14_400), timeZone: "Asia/Seoul", capacity: 5, hostID: otherHost.id),
            by: .user(otherHost.id, role: .host))
        #expect(try safety.ban(banned.id, by: fixture.host.id))
        #expect(try safety.bans(of: fixture.host.id).map(\.userID) == [banned.id])
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: banned.id, by: .user(banned.id, role: .member)) } == .notPermitted)
        _ = try fixture.domain.attendance.join(meetupID: elsewhere.id, memberID: banned.id, by: .user(banned.id, role: .member))
        // A ban is not a block: the meetup still shows in their lists.
        #expect(try listed(for: banned).contains(meetup.id))
        #expect(try safety.unban(banned.id, by: fixture.host.id))
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: banned.id, by: .user(banned.id, role: .member))
    }

    @Test func blockingOneselfOrNobodyIsRefusedNamingTheField() throws {
        let member = try fixture.member()
        #expect(refusal { try safety.block(member.id, by: member.id) } == .invalidInput)
        #expect(refusal { try safety.block(999_999, by: member.id) } == .userNotFound)
        #expect(refusal { try safety.ban(member.id, by: member.id) } == .invalidInput)
        #expect(try safety.blocks(of: member.id).isEmpty)
    }

    @Test func deletingAnAccountTakesItsBlocksAndBansAway() throws {
        let member = try fixture.member()
        try safety.block(fixture.host.id, by: member.id)
        try safety.ban(member.id, by: fixture.host.id)
        _ = try fixture.domain.accounts.deleteAccount(userID: member.id)
        #expect(try !safety.hasBlocks(fixture.host.id))
        #expect(try safety.bans(of: fixture.host.id).isEmpty)
    }

    @Test func termsAreAskedUntilTheCurrentVersionIsAccepted() throws {
        let terms = try DomainFixture(settings: BuiltInSettings.domain {
            $0.moderation.termsVersion = "2026-12"
            $0.moderation.termsURL = "https://club.example/terms"
        }, importCatalog: false)
        let member = try terms.member()
        let localized = try DomainFixture(settings: BuiltInSettings.domain {
            $0.moderation.termsVersion = "2026-12"
            $0.moderation.termsURL = "https://club.example/{locale}/terms"
            $0.moderation.defaultLocale = .ko
        }, importCatalog: false)
        let korean = try localized.member(), english = try localized.member()
        _ = try localized.domain.accounts.updateProfile(userID: english.id, ProfileChange(locale: .en))
        #expect(try localized.domain.safety.termsToAccept(userID: korean.id)?.url == "https://club.example/ko/terms")
        #expect(try localized.domain.safety.termsToAccept(userID: english.id)?.url == "https://club.example/en/terms")
        let asked = try #require(try terms.domain.safety.termsToAccept(userID: member.id))
        #expect(asked.version == "2026-12")
        #expect(asked.url == "https://club.example/terms")
        #expect(refusal { _ = try terms.domain.safety.acceptTerms(userID: member.id, version: "2025-01") } == .invalidInput)
        let first = try terms.domain.safety.acceptTerms(userID: member.id, version: "2026-12")
        terms.clock.advance(by: 60)
        #expect(try terms.domain.safety.acceptTerms(userID: member.id, version: "2026-12") == first)  // the first time is kept
        #expect(try terms.domain.safety.termsToAccept(userID: member.id) == nil)
        #expect(try terms.domain.safety.termsAcceptances(userID: member.id).map(\.version) == ["2026-12"])
        // Without terms nothing is asked and nothing can be accepted.
        #expect(try safety.termsToAccept(userID: member.id) == nil)
        #expect(refusal { _ = try safety.acceptTerms(userID: member.id, version: "2026-12") } == .invalidInput)
    }

    /// Refuses any text containing "spam" (BelayText's `BlockedTerms` is tested on its own).
    struct SpamScreen: ContentScreen {
        func refuses(_ text: String) -> Bool { text.lowercased().contains("spam") }
    }

    @Test func blockedWordsAreRefusedNamingTheFieldAndNothingIsWritten() throws {
        let screened = try DomainFixture(settings: BuiltInSettings.domain { $0.contentScreen = SpamScreen() }, importCatalog: false)
        for (field, change) in [("title", { (m: inout NewMeetup) in m.title = "SPAM night" }),
                                ("description", { (m: inout NewMeetup) in m.description = "buy spam" }),
                                ("place_name", { (m: inout NewMeetup) in m.placeName = "Spam gym" })] {
            let start = screened.clock.now().addingTimeInterval(3_600)
            var meetup = NewMeetup(title: "Evening", placeName: "Gym", startsAt: start, endsAt: start.addingTimeInterval(3_600),
                                   timeZone: "Asia/Seoul", capacity: 5, hostID: screened.host.id)
            change(&meetup)
            do {
                _ = try screened.domain.meetups.create(meetup, by: screened.hostActor)
                Issue.record("\(field) passed")
            } catch let error as DomainError {
                #expect(error.reason == .contentRefused)
                #expect(error.field == field)
            }
        }
        #expect(try screened.domain.meetups.list(MeetupQuery(limit: 10)).items.isEmpty)
        let meetup = try screened.meetup()
        #expect(refusal { _ = try screened.domain.meetups.update(id: meetup.id, MeetupChanges(title: "Spam"), by: screened.hostActor) } == .contentRefused)
        #expect(try screened.domain.meetups.meetup(id: meetup.id).title == meetup.title)
        let member = try screened.member()
        #expect(refusal { _ = try screened.domain.accounts.updateProfile(userID: member.id, ProfileChange(displayName: "Spammer")) } == .contentRefused)
        #expect(refusal { _ = try screened.domain.accounts.updateProfile(userID: member.id, ProfileChange(handle: "spam_king")) } == .contentRefused)
        #expect(try screened.domain.accounts.profile(userID: member.id).user.displayName == member.displayName)
    }

    @Test func newMembersCannotPutLinksInDescriptions() throws {
        let fresh = try DomainFixture(settings: BuiltInSettings.domain { $0.moderation.newMemberDays = 7 }, importCatalog: false)
        let start = fresh.clock.now().addingTimeInterval(3_600)
        func meetup(_ description: String) -> NewMeetup {
            NewMeetup(title: "Evening", description: description, placeName: "Gym", startsAt: start, endsAt: start.addingTimeInterval(3_600),
                      timeZone: "Asia/Seoul", capacity: 5, hostID: fresh.host.id)
        }
        for link in ["see https://coins.example", "ＷＷＷ.coins.example", "join at bit.ly/abc", "coins.com"] {
            do {
                _ = try fresh.domain.meetups.create(meetup(link), by: fresh.hostActor)
                Issue.record("\(link) passed")
            } catch let error as DomainError {
                #expect(error.reason == .contentRefused, "\(link)")
                #expect(error.field == "description")
            }
        }
        // Ordinary text passes; an admin is not held; after seven days the host may link.
        _ = try fresh.domain.meetups.create(meetup("Bring chalk. Mr.Kim leads, 3.5 hours, e.g. V3-V5."), by: fresh.hostActor)
        _ = try fresh.domain.meetups.create(meetup("https://club.example/rules"), by: .commandLine)
        let made = try fresh.meetup()
        #expect(refusal { _ = try fresh.domain.meetups.update(id: made.id, MeetupChanges(description: "www.coins.example"), by: fresh.hostActor) }
                == .contentRefused)
        fresh.clock.advance(by: 7 * 86_400)
        _ = try fresh.domain.meetups.update(id: made.id, MeetupChanges(description: "www.club.example"), by: fresh.hostActor)
    }
}
