import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// A host's recurring series in the console: the list, a weekly series made from a weekday, a
/// time and a number of weeks (refusals shown on the form with what was typed), and cancelling
/// the rest of one, through the same domain service and permission rule as the API.
@Suite(.serialized) struct ConsoleSeriesTests {
    /// The fields of a good form: Tuesdays 19:00–21:00 in Seoul for four weeks.
    static let tuesdays: [(String, String)] = [
        ("title", "Tuesday bouldering"), ("place_name", "The Climb Gangnam"), ("weekday", "3"), ("start_time", "19:00"),
        ("end_time", "21:00"), ("weeks", "4"), ("time_zone", "Asia/Seoul"), ("capacity", "12"),
    ]

    static func replacing(_ name: String, with value: String) -> [(String, String)] {
        tuesdays.map { $0.0 == name ? (name, value) : $0 }
    }

    @Test func aHostMakesAWeeklySeriesSeesItListedAndCancelsTheRestOfIt() throws {
        let club = try ConsoleFixture()
        let fixture = club.fixture
        let host = try club.signedInHost()
        let empty = host.get("/console/series")
        #expect(empty.status == 200)
        #expect(empty.text.contains("No series yet.") && empty.text.contains("href=\"/console/series/new\""))
        #expect(host.get("/console").text.contains("href=\"/console/series\""), "the meetups page leads to the series")
        let form = host.get("/console/series/new")
        #expect(form.status == 200)
        #expect(form.text.contains("<option value=\"3\" selected>Tuesday</option>") || form.text.contains("<option value=\"3\">Tuesday</option>"))

        // Refusals on the form, beside their field, with what was typed kept.
        let weeks = host.post("/console/series", Self.replacing("weeks", with: "1"))
        #expect(weeks.status == 422)
        #expect(weeks.text.contains("id=\"weeks-error\"") && weeks.text.contains("A number of weeks from 2 to 104."))
        #expect(weeks.text.contains("value=\"Tuesday bouldering\"") && weeks.text.contains("value=\"1\""))
        let time = host.post("/console/series", Self.replacing("end_time", with: "9pm"))
        #expect(time.status == 422)
        #expect(time.text.contains("id=\"end_time-error\"") && time.text.contains("value=\"9pm\""))
        let backwards = host.post("/console/series", Self.replacing("end_time", with: "18:00"))
        #expect(backwards.status == 422, "the domain refuses an end before the start")
        #expect(backwards.text.contains("id=\"end_time-error\"") && backwards.text.contains("value=\"18:00\""))
        let untitled = host.post("/console/series", Self.replacing("title", with: ""))
        #expect(untitled.status == 422)
        #expect(untitled.text.contains("id=\"title-error\"") && untitled.text.contains("value=\"The Climb Gangnam\""))
        #expect(host.post("/console/series", Self.tuesdays, csrf: "").status == 403)
        #expect(try fixture.domain.meetups.series(managerID: nil).isEmpty, "no refused form made a series")

        // Made: the next Tuesday (the clock is Sunday 2026-11-29 19:00 in Seoul) and three more.
        let made = host.post("/console/series", Self.tuesdays)
        #expect(made.status == 303, "\(made.text)")
        let location = try #require(made.headers["Location"])
        let seriesID = try #require(Int64(location.replacingOccurrences(of: "/console/series/", with: "")))
        let meetups = try fixture.domain.meetups.seriesMeetups(seriesID: seriesID)
        #expect(meetups.count == 4)
        #expect(meetups.first?.startsAt == Date(timeIntervalSince1970: 1_796_119_200), "Tuesday 2026-12-01 19:00 in Seoul")
        #expect(meetups.map(\.startsAt.timeIntervalSince1970) == (0..<4).map { 1_796_119_200 + Double($0) * 604_800 })
        #expect(meetups.allSatisfy { $0.hostID == club.host.id && $0.capacity == 12 && $0.endsAt.timeIntervalSince($0.startsAt) == 7_200 })
        let listed = host.get("/console/series")
        #expect(listed.text.contains("href=\"/console/series/\(seriesID)\">Tuesday bouldering</a>") && listed.text.contains("4 / 4"))
        #expect(listed.text.contains("Every Tuesday at 7:00"), "\(listed.text)")

        // Another host's series is not there, and its pages answer like nothing.
        let theirs = try fixture.domain.meetups.createSeries(NewMeetup(
            title: "Their Thursdays", placeName: "Elsewhere", startsAt: fixture.clock.now().addingTimeInterval(86_400),
            endsAt: fixture.clock.now().addingTimeInterval(90_000), timeZone: "Asia/Seoul", capacity: 8, hostID: fixture.host.id),
            repeat: .weekly, until: fixture.clock.now().addingTimeInterval(30 * 86_400), by: fixture.host.user.actorForTests)
        #expect(!host.get("/console/series").text.contains("Their Thursdays"))
        #expect(host.get("/console/series/\(theirs[0].id)").status == 404)
        #expect(host.post("/console/series/\(theirs[0].id)/cancel-rest", [("from", String(theirs[1].id))]).status == 404)
        #expect(host.get("/console/series/\(meetups[1].id)").status == 404, "a later meetup's id is no series")
        #expect(try fixture.domain.meetups.seriesMeetups(seriesID: theirs[0].id).allSatisfy { $0.status == .scheduled })

        // Cancelling the rest: a meetup of another series is refused on the form; from the third on cancels two.
        let page = host.get("/console/series/\(seriesID)")
        #expect(page.status == 200)
        #expect(page.text.contains("action=\"/console/series/\(seriesID)/cancel-rest\""))
        let wrong = host.post("/console/series/\(seriesID)/cancel-rest", [("from", String(theirs[1].id))])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("Choose a scheduled meetup of this series.") && wrong.text.contains("id=\"from-error\""))
        #expect(host.post("/console/series/\(seriesID)/cancel-rest", [("from", String(meetups[2].id))], csrf: "").status == 403)
        let cancelled = host.post("/console/series/\(seriesID)/cancel-rest", [("from", String(meetups[2].id))])
        #expect(cancelled.status == 303)
        #expect(cancelled.headers["Location"] == "/console/series/\(seriesID)?cancelled=2")
        let after = try fixture.domain.meetups.seriesMeetups(seriesID: seriesID)
        #expect(after.map(\.status) == [.scheduled, .scheduled, .cancelled, .cancelled])
        let shown = host.get("/console/series/\(seriesID)?cancelled=2")
        #expect(shown.text.contains("Meetups cancelled: 2"))
        #expect(host.get("/console/series").text.contains("2 / 4"))
    }

    @Test func theSeriesPagesSpeakTheClubsLanguage() throws {
        let club = try ConsoleFixture(locale: "ko_KR")
        let host = try club.signedInHost()
        let form = host.get("/console/series/new")
        #expect(form.text.contains("<h1>새 반복 모임</h1>") && form.text.contains(">화요일</option>"))
        let refused = host.post("/console/series", Self.replacing("weeks", with: "200"))
        #expect(refused.text.contains("2에서 104 사이의 주 수를 입력하세요."))
        // At a gym, with no place typed: the meetups are placed at the gym.
        let gym = club.fixture.post("/v1/gyms", as: club.fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(gym["id"]?.intValue)
        #expect(host.get("/console/series/new").text.contains("<option value=\"\(gymID)\">"))
        let made = host.post("/console/series", Self.replacing("place_name", with: "") + [("gym_id", String(gymID))])
        #expect(made.status == 303, "\(made.text)")
        let madeLocation = try #require(made.headers["Location"])
        let seriesID = try #require(Int64(madeLocation.replacingOccurrences(of: "/console/series/", with: "")))
        #expect(try club.fixture.domain.meetups.seriesMeetups(seriesID: seriesID).allSatisfy { $0.gymID == Int64(gymID) && !$0.placeName.isEmpty })
        #expect(host.get("/console/series").text.contains("매주 화요일 오후 7:00"))
    }
}
