import BelayCore
import BelayAPI
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// A host's series and a meetup's rewards in Chromium, in Korean: a series form refused and
/// then made at a gym, the rest of the series cancelled, and the rewards of an evening with
/// stickers drawn by the real renderer; every page checked for accessibility and kept as a
/// screenshot with `BELAY_CONSOLE_SCREENSHOTS`.
@Suite(.serialized) struct ConsoleSeriesBrowserTests {
    @Test func aHostMakesASeriesAtAGymAndCancelsItsRest() throws {
        let served = try ConsoleBrowserTests.Served()
        defer { served.stop() }
        let fixture = served.fixture
        let gym = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(gym["id"]?.intValue)
        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-series"))
        defer { page.close() }
        try served.signIn(page)

        // A series whose number of weeks is refused, then made at the gym.
        try page.navigate(served.base + "/console/series/new")
        _ = try page.evaluate("""
            document.getElementById('title').value = '화요일 저녁 볼더링';
            document.getElementById('gym_id').value = '\(gymID)';
            document.getElementById('weekday').value = '3';
            document.getElementById('weeks').value = '200';
            document.querySelector('main form').submit(); 1
            """)
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('weeks-error') ? 'refused' : ''", timeout: 10) { $0 == "refused" } == "refused")
        #expect(try page.evaluate("document.getElementById('title').value") as? String == "화요일 저녁 볼더링", "what was typed is kept")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "the refused series form")
        // Tall enough to show the refused field beside the message at the top.
        try page.setViewport(width: 1280, height: 1400)
        try ConsoleAdminBrowserTests.keep(page, "series-new-error")
        try page.setViewport(width: 1280, height: 860)
        _ = try page.evaluate("document.getElementById('weeks').value = '8'; document.querySelector('main form').submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('from') ? 'made' : ''", timeout: 10) { $0 == "made" } == "made")

        // The rest cancelled from the sixth meetup on.
        _ = try page.evaluate("var s = document.getElementById('from'); s.selectedIndex = 5; s.form.submit(); 1")
        #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('series-notice') ? document.getElementById('series-notice').textContent : ''", timeout: 10) { !$0.isEmpty } == "취소한 모임 수: 3")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "a series")
        try ConsoleAdminBrowserTests.keep(page, "series")
        try page.navigate(served.base + "/console/series")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "the series list")
        try ConsoleAdminBrowserTests.keep(page, "series-list")
        // The refused form's 422 is the answer it expects; nothing else may be logged.
        #expect(page.messages.filter { !$0.contains("favicon.ico") && !$0.contains("status of 422") } == [], "console and log: \(page.messages)")
    }

    @Test func aHostLooksAtAnEveningsRewardsWithTheirStickers() throws {
        let served = try ConsoleBrowserTests.Served(realStickers: true)
        defer { served.stop() }
        let fixture = served.fixture
        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-rewards"))
        defer { page.close() }
        try served.signIn(page)

        // Three members checked in, their stickers drawn by the real renderer.
        let meetup = try fixture.meetup(capacity: 12, startsIn: 600, host: served.club.host, place: "더클라임 강남점")
        for (index, name) in ["김보라", "서다미", "Alex Kim"].enumerated() {
            let member = try fixture.domain.users.createUser(NewUser(handle: "climber\(index + 1)", displayName: name))
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: member.actorForTests)
            _ = try fixture.domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host),
                                                    by: served.club.host.user.actorForTests)
        }
        try fixture.renderJobs(count: 3)
        try page.navigate(served.base + "/console/meetups/\(meetup.id)/rewards")
        #expect(try page.waitFor("Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).length + ''", timeout: 10) { $0 == "3" } == "3")
        #expect(try ConsoleBrowserTests.accessibilityProblems(page) == [], "rewards")
        try ConsoleAdminBrowserTests.keep(page, "rewards")
        #expect(page.messages.filter { !$0.contains("favicon.ico") } == [], "console and log: \(page.messages)")
    }
}
