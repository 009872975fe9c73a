import BelayCore
import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The logbook's two notices through the push outbox: a personal best (only for a member who
/// switched it on, once per grade, never for history logged late) and a project about to come
/// down (a few days before a tried, unsent problem's expected removal, once).
@Suite struct LogbookNoticeTests {
    let fixture: DomainFixture
    let climber: User

    init() throws {
        fixture = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
        })
        climber = try fixture.member("climber")
    }

    private var logbook: LogbookService { fixture.domain.logbook }

    private func phone(_ member: User, locale: MemberLocale = .en) throws {
        _ = try fixture.domain.push.register(DeviceRegistration(platform: .ios, token: "\(member.handle)-phone", appID: "club.belay.app", locale: locale),
                                             userID: member.id, sessionID: nil)
    }

    /// The bodies of the notices of `kind` queued so far, by member handle.
    private func told(_ kind: NoticeKind) throws -> [String: [String]] {
        let rows: [(String, JSONValue)] = try fixture.pool.read { db in
            try db.query("""
                SELECT u.handle, n.payload FROM push_notices n JOIN devices d ON d.id = n.device_id JOIN users u ON u.id = d.user_id
                WHERE n.kind = ? ORDER BY n.id
                """, [kind.rawValue]) { (try $0.get("handle"), shownNotice(kind: kind.rawValue, payload: try $0.get("payload"))) }
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.compactMap { $0.1["body"]?.stringValue } }
    }

    private func gym() throws -> Gym {
        try fixture.domain.gyms.create(GymDraft(name: "The Climb Gangnam", localizedNames: ["ko": "더클라임 강남점"], country: "kr",
                                                location: (37.4979, 127.0276), timeZone: "Asia/Seoul", boulderGrading: .circuit,
                                                boulderLevels: [
                                                    NewGymLevel(colour: "#4caf50", name: "Green", localizedNames: ["ko": "초록"], lowest: "V1", highest: "V2", scale: .v),
                                                    NewGymLevel(colour: "#e53935", name: "Red", localizedNames: ["ko": "빨강"], lowest: "V4", highest: "V5", scale: .v),
                                                ]), by: .commandLine)
    }

    private func send(_ id: String, _ grade: String, _ style: TickStyle = .send, daysAgo: Double = 0, by member: User? = nil) throws {
        _ = try logbook.log(NewTick(clientTickID: id, grade: grade, gradeScale: .v, style: style,
                                    climbedAt: fixture.clock.now().addingTimeInterval(-daysAgo * 86_400 - 60)), memberID: (member ?? climber).id)
    }

    @Test func aPersonalBestIsToldOnlyWhenAskedForOncePerGradeAndNeverForHistory() throws {
        try phone(climber)
        let defaults = Dictionary(uniqueKeysWithValues: try fixture.domain.push.settings(userID: climber.id).map { ($0.kind, $0.enabled) })
        #expect(defaults[.personalBest] == false, "a personal best is off until the member asks for it")
        #expect(defaults[.projectEnding] == true && defaults[.newMeetup] == true)

        try send("1", "V3")
        try send("2", "V4")
        #expect(try told(.personalBest).isEmpty, "switched off by default")

        _ = try fixture.domain.push.updateSettings(userID: climber.id, [(kind: .personalBest, enabled: true)])
        try send("3", "V4")
        #expect(try told(.personalBest).isEmpty, "as hard as before is not a personal best")
        try send("4", "V5", .attempt)
        #expect(try told(.personalBest).isEmpty, "an attempt tops nothing")
        try send("5", "V5")
        #expect(try told(.personalBest)["climber"] == ["Your first V5 send"])
        try send("6", "V5", .flash)
        try send("7", "V9", daysAgo: 3)
        #expect(try told(.personalBest)["climber"]?.count == 1, "the same grade again, and a send logged days later, tell nothing")

        _ = try logbook.logBatch([NewTick(clientTickID: "8", grade: "V10", gradeScale: .v, style: .send),
                                  NewTick(clientTickID: "9", grade: "V11", gradeScale: .v, style: .send)], memberID: climber.id)
        #expect(try told(.personalBest)["climber"] == ["Your first V5 send", "Your first V11 send"], "a batch tells its hardest send only")
    }

    @Test func aMembersFirstSendIsNoPersonalBestAndTheGymIsNamedInTheirLanguage() throws {
        let gym = try gym()
        let jisoo = try fixture.member("jisoo")
        try phone(jisoo, locale: .ko)
        _ = try fixture.domain.push.updateSettings(userID: jisoo.id, [(kind: .personalBest, enabled: true)])
        _ = try logbook.log(NewTick(clientTickID: "g", gymID: gym.id, level: "Green", style: .send), memberID: jisoo.id)
        #expect(try told(.personalBest).isEmpty, "a first send beats nothing")
        _ = try logbook.log(NewTick(clientTickID: "r", gymID: gym.id, level: "Red", style: .send), memberID: jisoo.id)
        let body = try #require(try told(.personalBest)["jisoo"]?.first)
        #expect(body.hasPrefix("첫 V4") && body.hasSuffix("완등 · 더클라임 강남점"), "\(body)")
    }

    @Test func aTriedProblemAboutToComeDownIsToldOnceToThoseWhoHaveNotSentIt() throws {
        let gym = try gym()
        let today = CalendarDay(fixture.clock.now(), in: TimeZone(identifier: "Asia/Seoul") ?? .gmt)
        let removal = today.adding(days: 5)
        var draft = NewProblem(wall: "Cave", holdColour: "red", grade: "Red", name: "Pink Panther", setOn: today.adding(days: -20).description)
        draft.expectedRemovalOn = removal.description
        let project = try fixture.domain.problems.add(draft, gymID: gym.id, by: .commandLine)
        var gone = NewProblem(wall: "Slab", holdColour: "green", grade: "Green", setOn: today.adding(days: -20).description)
        gone.expectedRemovalOn = removal.description
        let retired = try fixture.domain.problems.add(gone, gymID: gym.id, by: .commandLine)
        _ = try fixture.domain.problems.retireWall("Slab", gymID: gym.id, by: .commandLine)

        let (sent, quiet, off) = (try fixture.member("sent"), try fixture.member("quiet"), try fixture.member("off"))
        for member in [climber, sent, quiet, off] { try phone(member) }
        _ = try fixture.domain.push.updateSettings(userID: off.id, [(kind: .projectEnding, enabled: false)])
        for member in [climber, sent, off] {
            _ = try logbook.log(NewTick(clientTickID: "try-1", problemID: project.id, style: .attempt, attempts: 4), memberID: member.id)
            _ = try logbook.log(NewTick(clientTickID: "try-2", problemID: project.id, style: .attempt, attempts: 2), memberID: member.id)
        }
        _ = try logbook.log(NewTick(clientTickID: "top", problemID: project.id, style: .send, attempts: 7), memberID: sent.id)
        _ = try logbook.log(NewTick(clientTickID: "slab", problemID: retired.id, style: .attempt, attempts: 2), memberID: quiet.id)

        _ = try fixture.domain.push.queueScheduled()
        #expect(try told(.projectEnding).isEmpty, "five days before is too early with the default of three")

        fixture.clock.advance(by: 2 * 86_400)
        _ = try fixture.domain.push.queueScheduled()
        _ = try fixture.domain.push.queueScheduled()
        let notices = try told(.projectEnding)
        #expect(Array(notices.keys) == ["climber"], "not the member who sent it, nor one who switched it off, nor a retired problem's: \(notices)")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        #expect(notices["climber"] == ["Pink Panther at The Climb Gangnam comes down on \(removal.day) \(months[removal.month - 1]). One more go?"],
                "told once, naming the problem, the gym and the day")
    }
}
