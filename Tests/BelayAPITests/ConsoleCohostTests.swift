import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A host's co-hosts and cancelling in the console: the host names and removes co-hosts by
/// handle with the API's rules (a host or admin the host may see), a co-host manages the
/// meetup but names no one, and cancelling tells the domain.
@Suite(.serialized) struct ConsoleCohostTests {
    @Test func aHostAddsAndRemovesACohostWhoThenManagesTheMeetupAndNamesNoOne() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let meetup = try fixture.meetup(capacity: 10, startsIn: 3_600, host: club.host)
        let minho = try fixture.domain.users.createUser(NewUser(handle: "minho", displayName: "Minho Lee", email: "minho@example.com", role: .host))
        let bora = try fixture.domain.users.createUser(NewUser(handle: "bora", displayName: "Bora"))
        for user in [minho, bora] { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: user.id, by: user.actorForTests) }
        let host = try club.signedInHost()
        #expect(host.get("/console/meetups/\(meetup.id)").text.contains("href=\"/console/meetups/\(meetup.id)/cohosts\""))
        let empty = host.get("/console/meetups/\(meetup.id)/cohosts")
        #expect(empty.status == 200)
        #expect(empty.text.contains("No co-hosts."))

        // Refusals on the form, with what was typed.
        let unknown = host.post("/console/meetups/\(meetup.id)/cohosts", [("handle", "@nobody<1>")])
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("value=\"@nobody&lt;1&gt;\"") && unknown.text.contains("No member you can add has this handle."))
        let member = host.post("/console/meetups/\(meetup.id)/cohosts", [("handle", "bora")])
        #expect(member.status == 403)
        #expect(member.text.contains("value=\"bora\"") && member.text.contains("id=\"handle-error\""))
        let themself = host.post("/console/meetups/\(meetup.id)/cohosts", [("handle", "jisoo")])
        #expect(themself.status == 422)
        #expect(try fixture.domain.meetups.cohosts(meetupID: meetup.id).isEmpty)

        let added = host.post("/console/meetups/\(meetup.id)/cohosts", [("handle", "@minho")])
        #expect(added.status == 200, "\(added.text)")
        #expect(added.text.contains("Co-host added.") && added.text.contains("@minho"))
        #expect(try fixture.domain.meetups.cohosts(meetupID: meetup.id) == [minho.id])

        // The co-host manages the meetup and sees its co-hosts, but names no one.
        let cohost = ConsoleClient(fixture)
        try cohost.signIn(email: "minho@example.com", smtp: club.smtp, mailNumber: 2)
        #expect(cohost.get("/console/meetups/\(meetup.id)").status == 200)
        #expect(cohost.get("/console").text.contains("href=\"/console/meetups/\(meetup.id)\""), "co-hosted meetups are on the co-host's list")
        let seen = cohost.get("/console/meetups/\(meetup.id)/cohosts")
        #expect(seen.status == 200)
        #expect(!seen.text.contains("action=\"/console/meetups/\(meetup.id)/cohosts\""))
        #expect(cohost.post("/console/meetups/\(meetup.id)/cohosts", [("handle", "jisoo")]).status == 404)
        #expect(cohost.post("/console/meetups/\(meetup.id)/cohosts/\(minho.id)/remove", []).status == 404)

        let removed = host.post("/console/meetups/\(meetup.id)/cohosts/\(minho.id)/remove", [])
        #expect(removed.status == 303)
        #expect(try fixture.domain.meetups.cohosts(meetupID: meetup.id).isEmpty)
        #expect(cohost.get("/console/meetups/\(meetup.id)").status == 404, "a removed co-host no longer manages it")
        #expect(cohost.get("/console/meetups/\(meetup.id)/cohosts").status == 404)
        #expect(!cohost.get("/console").text.contains("href=\"/console/meetups/\(meetup.id)\""))
    }

    @Test func cancellingFromTheDoorListCancelsTheMeetupForItsHostOnly() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let meetup = try fixture.meetup(capacity: 10, startsIn: 3_600, host: club.host)
        let theirs = try fixture.meetup(capacity: 10, startsIn: 3_600, host: fixture.host)
        let host = try club.signedInHost()
        #expect(host.get("/console/meetups/\(meetup.id)").text.contains("action=\"/console/meetups/\(meetup.id)/cancel\""))
        #expect(host.post("/console/meetups/\(theirs.id)/cancel", []).status == 404)
        #expect(host.post("/console/meetups/\(meetup.id)/cancel", [], csrf: "").status == 403)
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).status == .scheduled)
        let cancelled = host.post("/console/meetups/\(meetup.id)/cancel", [])
        #expect(cancelled.status == 303)
        #expect(try fixture.domain.meetups.meetup(id: meetup.id).status == .cancelled)
        #expect(try fixture.domain.meetups.meetup(id: theirs.id).status == .scheduled)
        #expect(host.get("/console/meetups/\(meetup.id)").text.contains("cancelled"))
    }
}
