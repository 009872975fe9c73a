import BelayCore
import BelayAPI
import BelayDomain
import BelayHTTP
import BelayTestSupport
import Foundation
import Testing

/// The host's pages in-process: their meetups, a new meetup, the door list and its forms, the
/// CSV, and what a host may not see.
@Suite(.serialized) struct ConsoleDoorListTests {
    @Test func theDoorListChecksInUndoesAddsAndRemovesThroughTheDomainsRules() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(capacity: 2, startsIn: 300, host: club.host)
        let hana = try club.fixture.member(name: "hana")
        let minjun = try club.fixture.member(name: "minjun")
        let third = try club.fixture.member(name: "seoyeon")
        for member in [hana, minjun] { #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        // A host adds only members they can see: one who joined another of their meetups.
        let earlier = try club.fixture.meetup(startsIn: 900, host: club.host)
        #expect(club.fixture.post("/v1/meetups/\(earlier.id)/join", as: third).status == 201)
        let stranger = try club.fixture.member(name: "stranger")
        let client = try club.signedInHost()

        let door = client.get("/console/meetups/\(meetup.id)")
        #expect(door.status == 200)
        #expect(door.text.contains("@hana") && door.text.contains("@minjun"))
        #expect(door.text.contains("0 of 2 checked in"))

        #expect(client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(hana.id))]).status == 303)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: hana.id)?.status == .checkedIn)
        #expect(client.get("/console/meetups/\(meetup.id)").text.contains("1 of 2 checked in"))

        // The script's way: the same form, answered with the list's new state.
        let undone = client.post("/console/meetups/\(meetup.id)/undo-check-in", [("user_id", String(hana.id))],
                                 headers: [("Accept", "application/json")])
        #expect(undone.status == 200)
        #expect(undone["counts"]?.stringValue?.hasPrefix("0 of 2 checked in") == true)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: hana.id)?.status == .going)

        // Full: a third member added by handle waits; removing one going promotes them.
        #expect(client.post("/console/meetups/\(meetup.id)/add", [("handle", "@seoyeon")]).status == 303)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: third.id)?.status == .waitlisted)
        #expect(client.post("/console/meetups/\(meetup.id)/remove", [("user_id", String(minjun.id))]).status == 303)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: third.id)?.status == .going)

        // A handle nobody has: the reason on the form, what was typed kept.
        let unknown = client.post("/console/meetups/\(meetup.id)/add", [("handle", "nobody<x>")])
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("role=\"alert\""))
        #expect(unknown.text.contains("value=\"nobody&lt;x&gt;\""))
        // A member the host may not see answers like a handle nobody has.
        let unseen = client.post("/console/meetups/\(meetup.id)/add", [("handle", stranger.user.handle)])
        #expect(unseen.status == 404)
        #expect(unseen.text.contains("No member you can add has the handle @\(stranger.user.handle)."))
        // A refusal of the domain: checking in a waitlisted or unknown member.
        let refused = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(minjun.id))])
        #expect((400...499).contains(refused.status))
        #expect(refused.text.contains("id=\"door-error\">") && !refused.text.contains("id=\"door-error\" hidden"))
        let noMember = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", "abc")])
        #expect(noMember.status == 422)

        // The state the script polls.
        let state = client.get("/console/meetups/\(meetup.id)/door.json")
        #expect(state.status == 200)
        #expect(state["rows_html"]?.stringValue?.contains("@seoyeon") == true)
        #expect(state["going"]?.intValue == 2)

        // The CSV the API gives, parsed.
        let csv = client.get("/console/meetups/\(meetup.id)/attendees.csv")
        #expect(csv.status == 200)
        #expect(csv.contentType == "text/csv; charset=utf-8")
        let lines = csv.text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.first?.first == "handle")
        #expect(Set(lines.dropFirst().map { $0[0] }) == ["hana", "seoyeon", "minjun"])
        #expect(lines.dropFirst().first { $0[0] == "minjun" }?[2] == "cancelled")
    }

    @Test func aLongDoorListShowsFiftyRowsAPageAndTheServerSearchesThemAll() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(capacity: 200, startsIn: 300, host: club.host)
        var members: [APIFixture.Member] = []
        for index in 1...120 {
            let member = try club.fixture.member(name: index == 97 ? "jiwoo" : "climber\(index)")
            #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
            members.append(member)
        }
        let client = try club.signedInHost()
        func rows(_ text: String) -> Int { text.components(separatedBy: "<tr data-search=").count - 1 }

        let first = client.get("/console/meetups/\(meetup.id)")
        #expect(first.status == 200)
        #expect(rows(first.text) == 50)
        #expect(first.text.contains("1–50 of 120"))
        #expect(first.text.contains("href=\"/console/meetups/\(meetup.id)?page=2\""))
        // The rows carry no form token: their buttons submit the page's three forms, which do.
        let token = try #require(first.text.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression).map { String(first.text[$0]) })
        #expect(first.text.components(separatedBy: token).count - 1 == 8, "three row forms, add, two kiosk forms, cancel and signing out")
        #expect(first.text.contains("<button type=\"submit\" form=\"door-check-in\" name=\"user_id\" value=\"\(members[0].id)\""))
        // The page is kept for a moment per session: a second session of the same host gets its own token.
        let laptop = try club.signedInHost(mailNumber: 2)
        let second = laptop.get("/console/meetups/\(meetup.id)")
        let secondToken = try #require(second.text.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression).map { String(second.text[$0]) })
        #expect(secondToken != token)
        #expect(!second.text.contains(token))
        #expect(laptop.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(members[1].id))], headers: [("Accept", "application/json")]).status == 200)
        #expect(client.get("/console/meetups/\(meetup.id)").text.contains("data-member=\"\(members[1].id)\" data-status=\"checked_in\""),
                "a check-in from another session shows on the next read")

        let last = client.get("/console/meetups/\(meetup.id)?page=3")
        #expect(rows(last.text) == 20)
        #expect(last.text.contains("101–120 of 120"))
        #expect(!last.text.contains("rel=\"next\""))
        #expect(rows(client.get("/console/meetups/\(meetup.id)?page=9").text) == 20, "a page past the end shows the last")

        // The server searches every row, not only those of the page.
        let found = client.get("/console/meetups/\(meetup.id)?q=JIWOO")
        #expect(rows(found.text) == 1)
        #expect(found.text.contains("@jiwoo"))
        let none = client.get("/console/meetups/\(meetup.id)?q=nobody")
        #expect(rows(none.text) == 0)
        #expect(none.text.contains("Nobody matches."))
        let state = client.get("/console/meetups/\(meetup.id)/door.json?q=climber1&page=1")
        #expect(state["query"]?.stringValue == "climber1")
        // climber1, climber10–19 and climber100–120: 32 rows, one page.
        #expect(state["pager_html"]?.stringValue == "", "one page needs no pager")
        #expect(state["rows_html"]?.stringValue.map(rows) == 32)

        // A check-in through the API shows on the next page read, made again at once.
        #expect(client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(members[96].id))]).status == 303)
        #expect(client.get("/console/meetups/\(meetup.id)?q=jiwoo").text.contains("data-member=\"\(members[96].id)\" data-status=\"checked_in\""))
        #expect(club.fixture.post("/v1/meetups/\(meetup.id)/check-in", as: club.host, json: #"{"user_id": \#(members[0].id)}"#).status == 201)
        let after = client.get("/console/meetups/\(meetup.id)")
        #expect(after.text.contains("data-member=\"\(members[0].id)\" data-status=\"checked_in\""))
        #expect(after.text.contains("3 of 120 checked in"))
    }

    @Test func theDashboardListsFiftyMeetupsAPageInStartOrder() throws {
        let club = try ConsoleFixture()
        var meetups: [Meetup] = []
        for index in 1...60 { meetups.append(try club.fixture.meetup(startsIn: TimeInterval(600 * index), host: club.host)) }
        let client = try club.signedInHost()
        func listed(_ text: String) -> [String] {
            text.components(separatedBy: "<tr><th scope=\"row\"><a href=\"/console/meetups/").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        }
        let first = client.get("/console")
        #expect(listed(first.text) == meetups.prefix(50).map { String($0.id) })
        let next = try #require(first.text.range(of: #"href="/console\?cursor=[^"]+""#, options: .regularExpression).map {
            String(first.text[$0].dropFirst("href=\"".count).dropLast())
        })
        #expect(listed(client.get(next).text) == meetups.suffix(10).map { String($0.id) })
        #expect(!client.get(next).text.contains("rel=\"next\""))
        // A cursor that is not this list's shows the first page rather than an error.
        #expect(listed(client.get("/console?cursor=nonsense").text).count == 50)

        // Joining through the API shows on the next read (the table is made again at once).
        let member = try club.fixture.member()
        #expect(club.fixture.post("/v1/meetups/\(meetups[0].id)/join", as: member).status == 201)
        #expect(client.get("/console").text.contains("<td class=\"number\">1 / 10</td>"))
    }

    @Test func aKoreanClubsRefusalsAreInKorean() throws {
        let club = try ConsoleFixture(locale: "ko_KR")
        let meetup = try club.fixture.meetup(capacity: 1, startsIn: 300, host: club.host)
        let first = try club.fixture.member()
        let second = try club.fixture.member()
        for member in [first, second] { #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        let client = try club.signedInHost()
        client.get("/console/meetups/\(meetup.id)")
        let refused = client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(second.id))])
        #expect(refused.status == 409)
        #expect(refused.text.contains("대기 중인 회원은 체크인할 수 없어요."))
        #expect(refused.text.contains("<html lang=\"ko\">"))
    }

    @Test func aCompletedMeetupsDoorListCountsItsNoShows() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(capacity: 5, startsIn: 300, host: club.host)
        let came = try club.fixture.member(name: "came")
        let absent = try club.fixture.member(name: "absent")
        for member in [came, absent] { #expect(club.fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201) }
        let client = try club.signedInHost()
        client.get("/console/meetups/\(meetup.id)")
        #expect(client.post("/console/meetups/\(meetup.id)/check-in", [("user_id", String(came.id))]).status == 303)
        #expect(!client.get("/console/meetups/\(meetup.id)").text.contains("No-shows"), "they may still come")
        club.fixture.clock.advance(by: 24 * 3_600)
        #expect(try club.fixture.domain.meetups.completeEnded().map(\.id) == [meetup.id])
        let after = client.get("/console/meetups/\(meetup.id)")
        #expect(after.text.contains("1 of 2 checked in · Going 2 / 5 · Waitlist 0 · No-shows 1"))
        #expect(after.text.contains("data-member=\"\(absent.id)\" data-status=\"going\"><th scope=\"row\"><span class=\"name\">"))
        #expect(after.text.contains("<span class=\"status going\">No-shows</span>"))
    }

    @Test func aHostSeesOnlyTheirOwnMeetupsAndAnyOtherAnswersLikeNoPage() throws {
        let club = try ConsoleFixture()
        let mine = try club.fixture.meetup(host: club.host)
        let theirs = try club.fixture.meetup(host: club.fixture.host)
        let member = try club.fixture.member()
        #expect(club.fixture.post("/v1/meetups/\(theirs.id)/join", as: member).status == 201)
        let client = try club.signedInHost()
        let list = client.get("/console")
        #expect(list.text.contains("/console/meetups/\(mine.id)\""))
        #expect(!list.text.contains("/console/meetups/\(theirs.id)\""))

        let other = client.get("/console/meetups/\(theirs.id)")
        let missing = client.get("/console/meetups/999999")
        #expect(other.status == 404)
        #expect(missing.status == 404)
        #expect(other.text == missing.text)
        #expect(client.get("/console/meetups/\(theirs.id)/attendees.csv").status == 404)
        #expect(client.post("/console/meetups/\(theirs.id)/check-in", [("user_id", String(member.id))]).status == 404)
        #expect(try club.fixture.domain.attendance.attendance(meetupID: theirs.id, memberID: member.id)?.status == .going)
    }

    @Test func aNewMeetupsFormKeepsWhatWasTypedAndShowsTheProblemBesideTheField() throws {
        let club = try ConsoleFixture()
        let client = try club.signedInHost()
        #expect(client.get("/console/meetups/new").status == 200)
        let badTime = client.post("/console/meetups", [("title", "볼더링 <밤>"), ("place_name", "Seoul Forest"), ("starts_at", "tomorrow"),
                                                      ("ends_at", "2026-11-30T21:00"), ("time_zone", "Asia/Seoul"), ("capacity", "12")])
        #expect(badTime.status == 422)
        #expect(badTime.text.contains("value=\"볼더링 &lt;밤&gt;\""))
        #expect(badTime.text.contains("value=\"tomorrow\" required aria-invalid=\"true\""))
        let badZone = client.post("/console/meetups", [("title", "Night"), ("place_name", "Seoul Forest"), ("starts_at", "2026-11-30T19:00"),
                                                      ("ends_at", "2026-11-30T21:00"), ("time_zone", "Mars/Olympus"), ("capacity", "12")])
        #expect(badZone.status == 422)
        let domainRefusal = client.post("/console/meetups", [("title", ""), ("place_name", "Seoul Forest"), ("starts_at", "2026-11-30T19:00"),
                                                            ("ends_at", "2026-11-30T21:00"), ("time_zone", "Asia/Seoul"), ("capacity", "12")])
        #expect(domainRefusal.status == 422)
        #expect(domainRefusal.text.contains("role=\"alert\""))

        let created = client.post("/console/meetups", [("title", "볼더링 밤"), ("place_name", "Seoul Forest"), ("starts_at", "2026-11-30T19:00"),
                                                      ("ends_at", "2026-11-30T21:00"), ("time_zone", "Asia/Seoul"), ("capacity", "12")])
        #expect(created.status == 303)
        let location = try #require(created.headers["Location"])
        let page = client.get(location)
        #expect(page.status == 200)
        #expect(page.text.contains("볼더링 밤"))
        let id = try #require(Int64(location.split(separator: "/").last ?? ""))
        let meetup = try club.fixture.domain.meetups.meetup(id: id)
        #expect(meetup.hostID == club.host.id)
        #expect(meetup.startsAt == Date(timeIntervalSince1970: 1_796_032_800))  // 2026-11-30 19:00 in Seoul
    }

    @Test func aMeetupIsChangedThroughItsFormWithTheDomainsRules() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(capacity: 10, startsIn: 3_600, host: club.host)
        let theirs = try club.fixture.meetup(host: club.fixture.host)
        let client = try club.signedInHost()
        let form = client.get("/console/meetups/\(meetup.id)/edit")
        #expect(form.status == 200)
        #expect(form.text.contains("value=\"Evening session\""))
        #expect(form.text.contains("value=\"2026-11-29T20:00\""))  // an hour from now, in Seoul
        #expect(client.get("/console/meetups/\(theirs.id)/edit").status == 404)

        let tooSmall = client.post("/console/meetups/\(meetup.id)/edit", [("title", "Evening session"), ("place_name", "Seoul Forest Climbing"),
                                                                         ("starts_at", "2026-11-29T20:00"), ("ends_at", "2026-11-29T22:00"),
                                                                         ("time_zone", "Asia/Seoul"), ("capacity", "0")])
        #expect(tooSmall.status == 422)
        #expect(tooSmall.text.contains("value=\"0\" required aria-invalid=\"true\""), "the reason beside the capacity, 0 kept")
        let changed = client.post("/console/meetups/\(meetup.id)/edit", [("title", "Late session"), ("place_name", "Seoul Forest Climbing"),
                                                                        ("starts_at", "2026-11-29T20:30"), ("ends_at", "2026-11-29T22:00"),
                                                                        ("time_zone", "Asia/Seoul"), ("capacity", "12")])
        #expect(changed.status == 303)
        let now = try club.fixture.domain.meetups.meetup(id: meetup.id)
        #expect(now.title == "Late session" && now.capacity == 12)
        #expect(now.startsAt == meetup.startsAt.addingTimeInterval(1_800))
        #expect(client.post("/console/meetups/\(theirs.id)/edit", [("title", "Mine now"), ("place_name", "x"), ("starts_at", "2026-11-29T20:30"),
                                                                   ("ends_at", "2026-11-29T22:00"), ("time_zone", "Asia/Seoul"),
                                                                   ("capacity", "12")]).status == 404)
        #expect(try club.fixture.domain.meetups.meetup(id: theirs.id).title == "Evening session")
    }

    @Test func theKioskLinkIsShownOnceWithItsQRCodeAndCanBeTurnedOff() throws {
        let club = try ConsoleFixture()
        let meetup = try club.fixture.meetup(host: club.host)
        let client = try club.signedInHost()
        client.get("/console/meetups/\(meetup.id)")
        let made = client.post("/console/meetups/\(meetup.id)/kiosk", [])
        #expect(made.status == 200)
        let url = try #require(made.text.range(of: #"https://api\.belay\.example/k/[A-Za-z0-9_-]+"#, options: .regularExpression).map { String(made.text[$0]) })
        #expect(made.text.contains("<svg"))
        let path = String(url.dropFirst("https://api.belay.example".count))
        #expect(club.fixture.get(path).status == 200)
        #expect(client.post("/console/meetups/\(meetup.id)/kiosk/off", []).status == 200)
        #expect(club.fixture.get(path).status == 410)
    }
}

/// The front door and the readable API document.
@Suite struct FrontDoorTests {
    @Test func theFrontDoorNamesTheClubAndLinksTheConsoleTheDocumentAndTheHealthChecks() throws {
        let fixture = try APIFixture(settings: ["club": ["name": "Belay Climbing Club", "locale": "ko_KR"]])
        let page = fixture.get("/")
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        for link in ["href=\"/console\"", "href=\"/openapi.html\"", "href=\"/openapi.json\"", "href=\"/healthz\"", "href=\"/readyz\""] {
            #expect(page.text.contains(link), "\(link)")
        }
        #expect(page.text.contains("<html lang=\"ko\">"))
        #expect(page.text.contains("Belay Climbing Club"))
    }

    @Test func theReadableDocumentListsEveryOperationOfTheJSONDocument() throws {
        let fixture = try APIFixture()
        let html = fixture.get("/openapi.html").text
        let document = try #require(fixture.get("/openapi.json").json)
        var count = 0
        for (path, item) in try #require(document["paths"]?.objectValue) {
            for method in try #require(item.objectValue).keys {
                count += 1
                let escaped = path.replacingOccurrences(of: "&", with: "&amp;")
                #expect(html.contains("<span class=\"method\">\(method.uppercased())</span> <code>\(escaped)</code>"), "\(method) \(path)")
            }
        }
        #expect(count > 100)
        #expect(!html.contains("<script>"))
    }

    @Test func anUnknownPathSaysWhereTheAPIIsDescribed() throws {
        let fixture = try APIFixture()
        let missing = fixture.get("/v2/nothing")
        #expect(missing.status == 404)
        #expect(missing["detail"]?.stringValue?.contains("/openapi.json") == true)
    }
}
