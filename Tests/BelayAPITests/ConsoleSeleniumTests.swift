import BelayCore
import BelayAPI
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// People walking through the console in a real browser: `scripts/testing/console-walks.py`
/// drives Debian's headless Chromium with Selenium through chromium-driver, against the
/// application's HTTP server on a loopback port, reading sign-in codes from the mail the local
/// SMTP server received. What the walks saw is checked here beside what the database holds.
/// Set `BELAY_CONSOLE_SCREENSHOTS` to a directory to keep their screenshots.
@Suite(.serialized) struct ConsoleSeleniumTests {
    /// Runs the walks of `plan` (with `base`, `mail_spool` and `screenshots` added) and answers
    /// what each saw, by walk.
    static func walk(_ served: ConsoleBrowserTests.Served, spool: TemporaryDirectory, _ walks: [[String: Any]]) throws -> [String: Any] {
        var plan: [String: Any] = ["base": served.base, "mail_spool": spool.path, "walks": walks]
        if let screenshots = ProcessInfo.processInfo.environment["BELAY_CONSOLE_SCREENSHOTS"] { plan["screenshots"] = screenshots }
        let planFile = spool.file("walk-plan.json")
        try JSONSerialization.data(withJSONObject: plan).write(to: URL(fileURLWithPath: planFile))
        let root = BelayProcess.packageRoot
        let result = try ExternalTool.output(root.appendingPathComponent("scripts/test-python").path,
                                             [root.appendingPathComponent("scripts/testing/console-walks.py").path, planFile], timeout: 1_200)
        try #require(result.status == 0, "console-walks.py: \(result.standardError)")
        let line = try #require(result.standardOutput.split(separator: "\n").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// The form's value for a moment `minutes` after the fixture's now, in Seoul.
    static func seoulTime(_ fixture: APIFixture, minutes: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: fixture.clock.now().addingTimeInterval(TimeInterval(minutes * 60)))
    }

    @Test func aHostRunsAnEveningAtTheDoorInARealBrowser() throws {
        #expect(FileManager.default.isExecutableFile(atPath: KioskBrowserTests.zbarimg), "Debian's zbar-tools is needed: make test-deps installs it")
        let spool = try TemporaryDirectory(prefix: "belay-mail")
        let served = try ConsoleBrowserTests.Served(mailSpool: spool.path)
        defer { served.stop() }
        let fixture = served.fixture
        var members: [APIFixture.Member] = []
        for (index, name) in ["김하나", "이민준", "박서연"].enumerated() {
            let user = try fixture.domain.users.createUser(NewUser(handle: "climber\(index + 1)", displayName: name))
            members.append(APIFixture.Member(user: user, token: try fixture.domain.users.issueToken(userID: user.id).secret))
        }
        let seen = try Self.walk(served, spool: spool, [[
            "walk": "evening", "email": "jisoo@example.com", "mail_number": 1,
            "title": "목요일 볼더링 모임", "place": "서울숲 클라이밍", "capacity": 20,
            "starts_at": Self.seoulTime(fixture, minutes: 5), "ends_at": Self.seoulTime(fixture, minutes: 125),
            "members": members.map { ["handle": $0.user.handle, "token": $0.token, "id": $0.id] as [String: Any] },
            "search": "민준",
        ]])
        let evening = try #require(seen["evening"] as? [String: Any])

        let meetupID = try #require((evening["meetup_id"] as? NSNumber)?.int64Value)
        let meetup = try fixture.domain.meetups.meetup(id: meetupID)
        #expect(meetup.title == "목요일 볼더링 모임")
        #expect(meetup.placeName == "서울숲 클라이밍")
        #expect(meetup.capacity == 20)
        #expect(meetup.hostID == served.club.host.id)
        #expect(meetup.startsAt == fixture.clock.now().addingTimeInterval(300))
        #expect(evening["kiosk_code"] as? String == (try fixture.currentCode(meetup)))
        #expect(evening["counts"] as? String == "3명 중 3명 체크인 · 참가 3 / 20 · 대기 0")
        #expect(try fixture.domain.attendance.attendance(meetupID: meetupID, memberID: members[0].id)?.status == .going, "the undone check-in")
        for member in members.dropFirst() {
            #expect(try fixture.domain.attendance.attendance(meetupID: meetupID, memberID: member.id)?.status == .checkedIn)
        }
        #expect(evening["found"] as? String == String(members[1].id), "typing 민준 finds 이민준")

        let rows = try #require(evening["csv"] as? [[String: String]])
        #expect(Dictionary(uniqueKeysWithValues: rows.compactMap { row in row["handle"].map { ($0, row["status"] ?? "") } })
                == ["climber1": "going", "climber2": "checked_in", "climber3": "checked_in"])
        #expect(rows.first { $0["handle"] == "climber2" }?["display_name"] == "이민준")

        #expect(evening["share_table"] as? [String] == ["instagram_stories 4", "share_sheet 2"])
        #expect(evening["chart_bars"] as? Int == 3, "a bar for the one day and one for each target")
        #expect(evening["browser_log"] as? [String] == [], "the browser's console stayed quiet")
    }

    @Test func aModeratorSuspendsAReportedMemberAndAGymManagerFixesABadRowBeforeWriting() throws {
        let spool = try TemporaryDirectory(prefix: "belay-mail")
        let served = try ConsoleBrowserTests.Served(mailSpool: spool.path)
        defer { served.stop() }
        let fixture = served.fixture
        let moderator = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "Mina Park", email: "mina@example.com", role: .admin))
        let offender = try fixture.member(name: "troll")
        let reporter = try fixture.member()
        let reported = fixture.post("/v1/reports", as: reporter,
                                    json: #"{"subject_type": "member", "subject_id": "\#(offender.id)", "reason": "harassment", "note": "무례한 메시지"}"#)
        #expect(reported.status == 201)
        let created = fixture.post("/v1/gyms", as: fixture.admin, json: LogbookAPITests.gym)
        let gymID = try #require(created["id"]?.intValue)
        #expect(fixture.send(.put, "/v1/gyms/\(gymID)/managers/\(served.club.host.id)", token: fixture.admin.token).status == 200)

        let seen = try Self.walk(served, spool: spool, [
            ["walk": "moderation", "email": "mina@example.com", "mail_number": 1, "subject_id": String(offender.id),
             "reason": "규칙 2: 괴롭힘"],
            ["walk": "gym", "email": "jisoo@example.com", "mail_number": 2, "gym_id": gymID,
             "bad_csv": "wall,colour,grade,set_on\nCave,red,Red,2026-11-20\nCave,pink,Purple,2026-11-20\n",
             "good_csv": "wall,colour,grade,set_on,name\nCave,red,Red,2026-11-20,1\nSlab,blue,초록,2026-11-21,2\n"],
        ])

        let moderation = try #require(seen["moderation"] as? [String: Any])
        #expect(fixture.get("/v1/me", as: offender).status == 401, "the suspended member's tokens end at once")
        let audit = try #require(moderation["audit"] as? String)
        #expect(audit.contains("규칙 2: 괴롭힘") && audit.contains("@mina"))
        let last = try #require(try fixture.domain.moderation.audit(by: moderator.actorForTests).items.first)
        #expect(last.action == .suspend)

        let gym = try #require(seen["gym"] as? [String: Any])
        let badRows = try #require(gym["bad_rows"] as? [String])
        #expect(badRows.count == 1)
        #expect(badRows.first?.hasPrefix("3 ") == true, "the third line is named: \(badRows)")
        #expect(gym["write_offered_for_bad"] as? Bool == false)
        #expect(gym["preview_rows"] as? Int == 2)
        #expect((gym["walls"] as? [String] ?? []).contains("Slab (1)"))
        #expect(try fixture.domain.problems.list(gymID: gymID, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.count == 2)
    }
}
