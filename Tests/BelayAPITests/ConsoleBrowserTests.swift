import BelayCore
import BelayAPI
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// The console in Debian's headless Chromium against the application's real HTTP server on a
/// loopback port (with the tests' manual clock), the sign-in code read from a local SMTP
/// server, the kiosk's QR code read back with zbarimg. Set `BELAY_CONSOLE_SCREENSHOTS` to a
/// directory to keep the screenshots (the README's come from here).
@Suite(.serialized) struct ConsoleBrowserTests {
    /// A club served on a free loopback port, in Korean.
    struct Served {
        let club: ConsoleFixture
        let base: String
        var fixture: APIFixture { club.fixture }

        /// - Parameter mailSpool: a directory the SMTP server also writes each message to.
        init(locale: String = "ko_KR", realStickers: Bool = false, mailSpool: String? = nil) throws {
            club = try ConsoleFixture(locale: locale, settings: [
                "server": ["host": "127.0.0.1", "port": 0, "public_base_url": "http://127.0.0.1"],
            ], realStickers: realStickers, mailSpool: mailSpool)
            let application = club.fixture.application
            try application.server.start()
            application.services.presentation.baseURL.adopt(boundPort: application.port)
            base = "http://127.0.0.1:\(application.port)"
        }

        func stop() { club.fixture.application.server.stop(gracePeriod: .seconds(1)) }

        /// Signs `page` in as the host through the forms, with the `number`th mail's code.
        func signIn(_ page: ChromiumPage, email: String = "jisoo@example.com", number: Int = 1) throws {
            // (The way there from /console is a 303, checked in-process: Chromium may swap the
            // page's target on a redirect of the first navigation.)
            try page.navigate(base + "/console/sign-in")
            try ConsoleBrowserTests.keep(page, "sign-in")
            _ = try page.evaluate("document.getElementById('email').value = '\(email)'; document.querySelector('main form').submit(); 1")
            #expect(try page.waitFor("document.readyState === 'complete' && document.getElementById('code') ? 'code' : ''", timeout: 10) { $0 == "code" } == "code")
            let code = try ConsoleBrowserTests.mailedCode(club.smtp, number: number)
            _ = try page.evaluate("document.getElementById('code').value = '\(code)'; document.querySelector('main form').submit(); 1")
            // Loaded, not only committed: a navigation sent now must not take this page's load event for its own.
            #expect(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) { $0 == "/console complete" } == "/console complete")
        }
    }

    /// The six digits at the end of the `number`th mail's subject (in every language).
    static func mailedCode(_ smtp: SMTPCaptureProcess, number: Int) throws -> String {
        let messages = smtp.waitForMessages(count: number)
        try #require(messages.count >= number)
        return String(try #require(messages[number - 1].subject).suffix(6))
    }

    /// Copies a screenshot of `page` to `$BELAY_CONSOLE_SCREENSHOTS/<name>.png` when set.
    static func keep(_ page: ChromiumPage, _ name: String) throws {
        guard let directory = ProcessInfo.processInfo.environment["BELAY_CONSOLE_SCREENSHOTS"] else { return }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try page.screenshot(to: directory + "/" + name + ".png")
    }

    @Test func aHostsEveningFromSignInToTheCSV() throws {
        #expect(FileManager.default.isExecutableFile(atPath: KioskBrowserTests.zbarimg), "Debian's zbar-tools is needed: make test-deps installs it")
        let served = try Served()
        defer { served.stop() }
        let fixture = served.fixture
        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-host"))
        defer { page.close() }
        try served.signIn(page)

        // A new meetup from the form, starting in five minutes (19:05 in Seoul).
        try page.navigate(served.base + "/console/meetups/new")
        try Self.keep(page, "new-meetup")
        _ = try page.evaluate("""
            (function () {
              function set(id, value) { document.getElementById(id).value = value; }
              set('title', '목요일 볼더링 모임'); set('place_name', '서울숲 클라이밍'); set('starts_at', '2026-11-29T19:05');
              set('ends_at', '2026-11-29T21:05'); set('capacity', '20');
              document.querySelector('main form').submit(); return 1;
            })()
            """)
        let loaded = try #require(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) {
            $0.hasPrefix("/console/meetups/") && !$0.hasPrefix("/console/meetups/new") && $0.hasSuffix(" complete")
        })
        let doorPath = String(loaded.dropLast(" complete".count))
        let meetupID = try #require(Int64(doorPath.split(separator: "/").last ?? ""))
        let meetup = try fixture.domain.meetups.meetup(id: meetupID)
        #expect(meetup.title == "목요일 볼더링 모임")

        let names = ["김하나", "이민준", "박서연"]
        var members: [APIFixture.Member] = []
        for (index, name) in names.enumerated() {
            let user = try fixture.domain.users.createUser(NewUser(handle: "climber\(index + 1)", displayName: name))
            let member = APIFixture.Member(user: user, token: try fixture.domain.users.issueToken(userID: user.id).secret)
            #expect(fixture.post("/v1/meetups/\(meetupID)/join", as: member).status == 201)
            members.append(member)
        }

        // The kiosk: a new link on the door list, opened in a second window.
        try page.navigate(served.base + doorPath)
        _ = try page.evaluate("document.querySelector('form[action$=\"/kiosk\"]').submit(); 1")
        let kioskURL = try #require(try page.waitFor("document.readyState === 'complete' && document.getElementById('kiosk-url') ? document.getElementById('kiosk-url').href : ''", timeout: 10) { !$0.isEmpty })
        try Self.keep(page, "kiosk-link")
        let kiosk = try ChromiumPage(width: 1280, height: 800, profile: fixture.directory.file("chromium-kiosk"))
        defer { kiosk.close() }
        try kiosk.navigate(kioskURL)
        try kiosk.screenshot(to: fixture.directory.file("kiosk.png"))
        let scanned = try #require(try KioskBrowserTests.qrTexts(in: fixture.directory.file("kiosk.png")).first)
        let code = try #require(URLComponents(string: scanned)?.queryItems?.first { $0.name == "code" }?.value)

        // The door list, open on the host's laptop, follows the check-ins without a reload.
        try page.navigate(served.base + doorPath)
        _ = try page.evaluate("window.sameDocument = 'yes'")
        for member in members {
            #expect(fixture.post("/v1/meetups/\(meetupID)/check-in", as: member, json: #"{"code": "\#(code)"}"#).status == 201)
        }
        let all = try page.waitFor("String(document.querySelectorAll('#door-rows tr[data-status=checked_in]').length)", timeout: 15) { $0 == "3" }
        #expect(all == "3", "the door list did not follow the check-ins")
        #expect(try page.evaluate("document.getElementById('counts').textContent") as? String == "3명 중 3명 체크인 · 참가 3 / 20 · 대기 0")
        try Self.keep(page, "door-list")

        // Undo one, in place.
        let first = members[0].id
        _ = try page.evaluate("document.querySelector('#door-rows tr[data-member=\"\(first)\"] button[form=\"door-undo-check-in\"]').click(); 1")
        let undone = try page.waitFor("document.querySelector('#door-rows tr[data-member=\"\(first)\"]').getAttribute('data-status')", timeout: 10) { $0 == "going" }
        #expect(undone == "going")
        #expect(try fixture.domain.attendance.attendance(meetupID: meetupID, memberID: first)?.status == .going)

        // Search as one types.
        _ = try page.evaluate("var q = document.getElementById('q'); q.value = '민준'; q.dispatchEvent(new Event('input')); 1")
        let matching = try page.waitFor("String(document.querySelectorAll('#door-rows tr[data-search]').length)", timeout: 10) { $0 == "1" }
        #expect(matching == "1", "the search did not narrow the list to 민준")
        try Self.keep(page, "door-search")
        #expect(try page.evaluate("window.sameDocument") as? String == "yes", "the page was reloaded")

        // The CSV, as the browser downloads it with the session's cookie.
        let csv = try #require(try page.evaluate("""
            (function () { var x = new XMLHttpRequest(); x.open('GET', document.querySelector('a[download]').href, false); x.send(); return x.responseText; })()
            """) as? String)
        let rows = csv.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first?.prefix(3) == ["handle", "display_name", "status"])
        #expect(Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], $0[2]) }) == ["climber1": "going", "climber2": "checked_in", "climber3": "checked_in"])

        // The members share their stickers; the host looks at the chart and its table.
        var shared = 0
        for member in members.dropFirst() {
            let reward = try #require(try fixture.domain.rewards.rewards(memberID: member.id, limit: 10).items.first)
            for target in ["instagram_stories", "share_sheet", "instagram_stories"] {
                shared += 1
                _ = try fixture.domain.shares.record(NewShareEvent(rewardID: reward.id, target: target, activityType: nil, completed: true,
                                                                   error: nil, clientEventID: "e\(shared)"), by: member.user.actorForTests)
            }
        }
        try page.navigate(served.base + doorPath + "/shares")
        #expect(try page.evaluate("String(document.querySelectorAll('#by-target-caption ~ svg rect, figure svg rect').length)") as? String == "3")
        let table = try #require(try page.evaluate("""
            Array.prototype.map.call(document.querySelectorAll('#by-target-table tbody tr'), function (row) { return row.textContent; }).join('|')
            """) as? String)
        #expect(table == "instagram_stories4|share_sheet2")
        try Self.keep(page, "shares")
        try page.navigate(served.base + doorPath)

        // A phone at the front desk.
        try page.setViewport(width: 390, height: 844, mobile: true)
        _ = try page.evaluate("var q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input')); 1")
        try Self.keep(page, "door-list-phone")
        try page.setViewport(width: 1280, height: 860)
        try page.navigate(served.base + "/console")
        try Self.keep(page, "meetups")

        #expect(page.messages.filter { !$0.contains("favicon.ico") } == [], "console and log: \(page.messages)")
    }

    @Test func aLongDoorListPagesBy50AndFindsAMemberOnAnotherPageAsOneTypes() throws {
        let served = try Served()
        defer { served.stop() }
        let fixture = served.fixture
        let meetup = try fixture.meetup(capacity: 80, startsIn: 300, host: served.club.host)
        var members: [APIFixture.Member] = []
        for index in 1...64 {
            let name = index == 60 ? "최지우" : "회원 \(index)"
            let user = try fixture.domain.users.createUser(NewUser(handle: "door\(index)", displayName: name))
            let member = APIFixture.Member(user: user, token: try fixture.domain.users.issueToken(userID: user.id).secret)
            #expect(fixture.post("/v1/meetups/\(meetup.id)/join", as: member).status == 201)
            members.append(member)
        }
        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-long"))
        defer { page.close() }
        try served.signIn(page)
        try page.navigate(served.base + "/console/meetups/\(meetup.id)")
        #expect(try page.evaluate("String(document.querySelectorAll('#door-rows tr[data-search]').length)") as? String == "50")
        #expect(try page.evaluate("document.getElementById('door-pager').textContent.trim()") as? String == "64명 중 1–50 다음")
        #expect(try Self.accessibilityProblems(page) == [], "a long door list")
        _ = try page.evaluate("window.sameDocument = 'yes'")

        // 최지우 is on the second page; typing finds them without a reload.
        _ = try page.evaluate("var q = document.getElementById('q'); q.value = '지우'; q.dispatchEvent(new Event('input')); 1")
        let found = try page.waitFor("Array.prototype.map.call(document.querySelectorAll('#door-rows tr[data-search]'), function (r) { return r.getAttribute('data-member'); }).join(',')",
                                     timeout: 10) { $0 == String(members[59].id) }
        #expect(found == String(members[59].id))
        #expect(try page.evaluate("document.getElementById('door-pager').textContent") as? String == "", "one match needs no pager")
        try Self.keep(page, "door-search-long")
        // Checked in from the row's button, in place; the search stays.
        _ = try page.evaluate("document.querySelector('#door-rows tr[data-member=\"\(members[59].id)\"] button[form=\"door-check-in\"]').click(); 1")
        let status = try page.waitFor("document.querySelector('#door-rows tr[data-member=\"\(members[59].id)\"]').getAttribute('data-status')", timeout: 10) { $0 == "checked_in" }
        #expect(status == "checked_in")
        #expect(try fixture.domain.attendance.attendance(meetupID: meetup.id, memberID: members[59].id)?.status == .checkedIn)
        #expect(try page.evaluate("String(document.querySelectorAll('#door-rows tr[data-search]').length)") as? String == "1")
        #expect(try page.evaluate("window.sameDocument") as? String == "yes", "the page was reloaded")

        // Without script, the pager's link and the search form work as plain pages.
        try page.navigate(served.base + "/console/meetups/\(meetup.id)?page=2")
        #expect(try page.evaluate("String(document.querySelectorAll('#door-rows tr[data-search]').length)") as? String == "14")
        _ = try page.evaluate("document.getElementById('door-pager').scrollIntoView({block: 'center'}); 1")
        try Self.keep(page, "door-list-page-2")
    }

    /// What the page fails of the accessibility checks, read from the browser itself: the
    /// accessibility tree Chromium computes (every control named, one level-1 heading), the
    /// focus ring of every focusable element, and the contrast of every text against the
    /// background it is drawn on.
    static func accessibilityProblems(_ page: ChromiumPage) throws -> [String] {
        var problems: [String] = []
        let tree = try page.accessibilityTree()
        let controls: Set<String> = ["textbox", "searchbox", "combobox", "button", "spinbutton", "checkbox", "radio", "link", "ListBox", "listbox"]
        for node in tree where controls.contains(node.role) && node.name.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("a \(node.role) without an accessible name")
        }
        let headings = tree.filter { $0.role == "heading" && "\($0.properties["level"] ?? "")" == "1" }
        if headings.count != 1 { problems.append("\(headings.count) level-1 headings") }
        let script = """
            (function () {
              var problems = [];
              function rgba(text) { var m = text.match(/[0-9.]+/g) || [0, 0, 0, 0]; return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; }
              function luminance(c) {
                var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
                return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
              }
              function background(element) {
                for (var node = element; node && node.nodeType === 1; node = node.parentElement) {
                  var c = rgba(getComputedStyle(node).backgroundColor);
                  if (c[3] > 0.5) { return c; }
                }
                return [255, 255, 255, 1];
              }
              var all = document.body.querySelectorAll('*');
              for (var i = 0; i < all.length; i += 1) {
                var element = all[i];
                var own = Array.prototype.some.call(element.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim() !== ''; });
                if (!own || element.closest('svg') || element.offsetParent === null && getComputedStyle(element).position !== 'fixed') { continue; }
                if (element.closest('.skip') || element.closest('.visually-hidden')) { continue; }
                var style = getComputedStyle(element);
                var fg = luminance(rgba(style.color)), bg = luminance(background(element));
                var ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
                var size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
                var needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
                if (ratio < needed) { problems.push('contrast ' + ratio.toFixed(2) + ' of ' + element.tagName + ' "' + element.textContent.trim().slice(0, 30) + '"'); }
              }
              var focusable = document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea');
              for (var j = 0; j < focusable.length; j += 1) {
                var target = focusable[j];
                if (target.offsetParent === null) { continue; }
                target.focus({ focusVisible: true });
                var ring = getComputedStyle(target);
                if (document.activeElement === target && (ring.outlineStyle === 'none' || parseFloat(ring.outlineWidth) < 2)) {
                  problems.push('no visible focus on ' + target.tagName + ' ' + (target.getAttribute('name') || target.textContent.trim().slice(0, 20)));
                }
                target.blur();
              }
              return problems.join('\\n');
            })()
            """
        if let found = try page.evaluate(script) as? String, !found.isEmpty { problems += found.split(separator: "\n").map(String.init) }
        return problems
    }

    @Test func aModeratorSuspendsAReportedMemberAndAGymManagerFixesABadRowEveryPageAccessible() throws {
        let served = try Served()
        defer { served.stop() }
        let fixture = served.fixture
        let admin = try fixture.domain.users.createUser(NewUser(handle: "mina", displayName: "박미나", email: "mina@example.com", role: .admin))
        let adminToken = try fixture.domain.users.issueToken(userID: admin.id).secret
        let offender = try fixture.member(name: "troll")
        let reporter = try fixture.member()
        #expect(fixture.post("/v1/reports", as: reporter,
                             json: #"{"subject_type": "member", "subject_id": "\#(offender.id)", "reason": "harassment", "note": "모임에서 반복해서 무례한 말을 했어요"}"#).status == 201)
        let gym = fixture.send(.post, "/v1/gyms", token: adminToken, json: LogbookAPITests.gym)
        let gymID = try #require(gym["id"]?.intValue)
        let meetup = try fixture.meetup(capacity: 12, startsIn: 300, host: served.club.host)
        for index in 1...3 {
            let user = try fixture.domain.users.createUser(NewUser(handle: "climber\(index)", displayName: ["김하나", "이민준", "박서연"][index - 1]))
            _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: user.id, by: user.actorForTests)
        }

        let page = try ChromiumPage(width: 1280, height: 860, profile: fixture.directory.file("chromium-moderator"))
        defer { page.close() }
        #expect(try Self.accessibilityProblems({ try page.navigate(served.base + "/console/sign-in"); return page }()) == [])
        try served.signIn(page, email: "mina@example.com")

        // The moderator: the report in the queue, a suspension with a reason, the log.
        try page.navigate(served.base + "/console/moderation")
        #expect(try Self.accessibilityProblems(page) == [], "queue")
        try Self.keep(page, "moderation-queue")
        let key = "member-\(offender.id)"
        _ = try page.evaluate("""
            (function () {
              document.getElementById('action-\(key)').value = 'suspend';
              document.getElementById('reason-\(key)').value = '규칙 2: 괴롭힘';
              document.getElementById('reason-\(key)').form.submit(); return 1;
            })()
            """)
        #expect(try page.waitFor("location.pathname + ' ' + document.readyState", timeout: 10) { $0 == "/console/moderation complete" } != nil)
        #expect(try page.waitFor("document.querySelector('main').textContent", timeout: 10) { $0.contains("열린 신고가 없어요.") } != nil)
        #expect(fixture.get("/v1/me", as: offender).status == 401)
        try page.navigate(served.base + "/console/moderation/audit")
        #expect(try page.waitFor("(document.querySelector('tbody') || {}).textContent || ''", timeout: 10) { $0.contains("규칙 2: 괴롭힘") } != nil)
        #expect(try Self.accessibilityProblems(page) == [], "audit")
        try Self.keep(page, "moderation-audit")
        try page.navigate(served.base + "/console/members?q=tro")
        #expect(try Self.accessibilityProblems(page) == [], "members")
        try Self.keep(page, "members")

        // The gym manager (an admin here): a set with one bad row, fixed, then written.
        try page.navigate(served.base + "/console/gyms/\(gymID)")
        #expect(try Self.accessibilityProblems(page) == [], "gym")
        let bad = "wall,colour,grade,set_on\\nCave,red,Red,2026-11-20\\nCave,pink,Purple,2026-11-20\\nSlab,blue,초록,2026-11-21\\n"
        _ = try page.evaluate("document.getElementById('csv').value = '\(bad)'; document.querySelector('button[value=preview]').click(); 1")
        #expect(try page.waitFor("document.readyState + ' ' + document.querySelectorAll('tr.bad').length", timeout: 10) { $0 == "complete 1" } == "complete 1")
        #expect(try page.evaluate("document.querySelector('tr.bad td').textContent") as? String == "3")
        #expect(try Self.accessibilityProblems(page) == [], "gym with a bad row")
        try Self.keep(page, "gym-set-errors")
        _ = try page.evaluate("var t = document.getElementById('csv'); t.value = t.value.replace('Cave,pink,Purple', 'Cave,pink,Yellow'); document.querySelector('button[value=preview]').click(); 1")
        #expect(try page.waitFor("document.readyState + ' ' + document.querySelectorAll('table.preview tbody tr').length", timeout: 10) { $0 == "complete 3" } == "complete 3")
        try Self.keep(page, "gym-set-preview")
        _ = try page.evaluate("document.querySelector('button[value=write]').click(); 1")
        #expect(try page.waitFor("document.readyState + ' ' + document.querySelectorAll('ul.problems li').length", timeout: 10) { $0 == "complete 3" } == "complete 3")

        // The host's pages, the front door and the API document.
        for (path, name) in [("/console", "meetups"), ("/console/meetups/new", "new-meetup"), ("/console/meetups/\(meetup.id)", "door-list"),
                             ("/console/meetups/\(meetup.id)/shares", "shares-empty"), ("/console/gyms", "gyms"), ("/console/server", "server"), ("/", "front-door"),
                             ("/openapi.html", "openapi")] {
            try page.navigate(served.base + path)
            #expect(try Self.accessibilityProblems(page) == [], "\(path)")
            if ["front-door", "openapi", "gyms", "server"].contains(name) { try Self.keep(page, name) }
        }
        try page.setViewport(width: 390, height: 844, mobile: true)
        try page.navigate(served.base + "/console/meetups/\(meetup.id)")
        #expect(try Self.accessibilityProblems(page) == [], "door list on a phone")
        // The checks see what they look for: a faint text, an unnamed input, a second h1, a hidden focus ring.
        _ = try page.evaluate("""
            (function () {
              var main = document.querySelector('main');
              var p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#bbbbbb'; main.appendChild(p);
              var input = document.createElement('input'); input.type = 'text'; main.appendChild(input);
              var button = document.createElement('button'); button.textContent = 'x'; button.className = 'no-ring'; main.appendChild(button);
              button.style.outline = 'none';
              var h = document.createElement('h1'); h.textContent = 'again'; main.appendChild(h); return 1;
            })()
            """)
        let seeded = try Self.accessibilityProblems(page)
        #expect(seeded.contains { $0.hasPrefix("contrast") && $0.contains("faint") }, "\(seeded)")
        #expect(seeded.contains("a textbox without an accessible name"), "\(seeded)")
        #expect(seeded.contains("2 level-1 headings"), "\(seeded)")
        #expect(seeded.contains { $0.hasPrefix("no visible focus on BUTTON") }, "\(seeded)")

        // The bad set's 422 is the answer the form expects; nothing else may be logged.
        #expect(page.messages.filter { !$0.contains("favicon.ico") && !$0.contains("status of 422") } == [], "console and log: \(page.messages)")
    }
}
