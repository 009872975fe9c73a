import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A meetup's rewards on the host's pages: who checked in, their hold, and a thumbnail of
/// their sticker served under the console's cookie, only to those who manage the meetup.
@Suite(.serialized) struct ConsoleRewardTests {
    @Test func theHostSeesWhoEarnedWhichHoldWithTheirStickerAndNobodyElseDoes() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let meetup = try fixture.meetup(capacity: 10, startsIn: 600, host: club.host)
        let bora = try fixture.domain.users.createUser(NewUser(handle: "bora", displayName: "Bora Han"))
        let dami = try fixture.domain.users.createUser(NewUser(handle: "dami", displayName: "Dami Seo"))
        for user in [bora, dami] { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: user.id, by: user.actorForTests) }
        let host = try club.signedInHost()
        #expect(host.get("/console/meetups/\(meetup.id)").text.contains("href=\"/console/meetups/\(meetup.id)/rewards\""))
        #expect(host.get("/console/meetups/\(meetup.id)/rewards").text.contains("No rewards yet"))

        // Bora's check-in is rendered; Dami's is still waiting for its sticker.
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: bora.id, proof: .host), by: club.host.user.actorForTests)
        try fixture.renderJobs(count: 1)
        fixture.application.workers.stop()
        _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: dami.id, proof: .host), by: club.host.user.actorForTests)
        let rewards = try fixture.domain.rewards.rewards(meetupID: meetup.id, visibleTo: club.host.user.actorForTests)
        #expect(rewards.count == 2)
        let rendered = try #require(rewards.first { $0.memberID == bora.id })
        let hash = try #require(rendered.images?.stickerHash)

        let page = host.get("/console/meetups/\(meetup.id)/rewards")
        #expect(page.status == 200)
        let sticker = "/console/rewards/\(rendered.id)/sticker/\(hash).png"
        #expect(page.text.contains("<img src=\"\(sticker)\""), "\(page.text)")
        #expect(page.text.contains("Bora Han") && page.text.contains("@bora") && page.text.contains(rendered.hold.name.replacingOccurrences(of: "'", with: "&#39;")))
        #expect(page.text.contains("Dami Seo") && page.text.contains("rendering"))
        #expect(page.text.components(separatedBy: "<img ").count == 2, "one thumbnail: the pending sticker has none")
        let image = host.get(sticker)
        #expect(image.status == 200)
        #expect(image.headers["Content-Type"] == "image/png")
        #expect(host.get("/console/rewards/\(rendered.id)/sticker/\(String(repeating: "0", count: 64)).png").status == 404)

        // Someone who does not manage the meetup sees neither the page nor the sticker.
        _ = try fixture.domain.users.createUser(NewUser(handle: "minho", displayName: "Minho Lee", email: "minho@example.com", role: .host))
        let other = ConsoleClient(fixture)
        try other.signIn(email: "minho@example.com", smtp: club.smtp, mailNumber: 2)
        #expect(other.get("/console/meetups/\(meetup.id)/rewards").status == 404)
        #expect(other.get(sticker).status == 404)
        #expect(ConsoleClient(fixture).get(sticker).status == 303, "no cookie: to the sign-in page")
    }
}
