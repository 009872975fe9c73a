import BelayCore
import BelayDomain
import BelayTestSupport
import Foundation
import Testing

/// Gyms and their circuits, problem sets, ticks (alone and in offline batches), visibility,
/// and the summary, on the engine of the run.
@Suite struct LogbookServiceTests {
    let fixture: DomainFixture
    let manager: User
    let climber: User
    let friend: User

    init() throws {
        fixture = try DomainFixture()
        manager = try fixture.member("manager")
        climber = try fixture.member("climber")
        friend = try fixture.member("friend")
    }

    private var gyms: GymService { fixture.domain.gyms }
    private var problems: ProblemService { fixture.domain.problems }
    private var logbook: LogbookService { fixture.domain.logbook }
    private func actor(_ user: User) -> Actor { .user(user.id, role: user.role) }

    /// A Korean gym grading boulders by a colour circuit.
    private func circuitGym() throws -> Gym {
        try gyms.create(GymDraft(name: "The Climb Gangnam", localizedNames: ["ko": "더클라임 강남점"], country: "kr",
                                 location: (37.4979, 127.0276), timeZone: "Asia/Seoul", boulderGrading: .circuit,
                                 boulderLevels: [
                                    NewGymLevel(colour: "#ffeb3b", name: "Yellow", localizedNames: ["ko": "노랑"], lowest: "VB", highest: "V0", scale: .v),
                                    NewGymLevel(colour: "#4caf50", name: "Green", localizedNames: ["ko": "초록"], lowest: "V1", highest: "V2", scale: .v),
                                    NewGymLevel(colour: "#e53935", name: "Red", localizedNames: ["ko": "빨강"], lowest: "V4", highest: "V5", scale: .v),
                                 ]), by: .commandLine)
    }

    @Test func gymsNeedAnAdminAndManagersEditThem() throws {
        #expect(refusal { _ = try gyms.create(GymDraft(name: "X", timeZone: "Asia/Seoul"), by: actor(manager)) } == .notPermitted)
        let gym = try circuitGym()
        #expect(gym.country == "KR")
        #expect(gym.boulderLevels.map(\.name) == ["Yellow", "Green", "Red"])
        #expect(GradeTable.name(of: gym.boulderLevels[2].range, in: .v) == "V4–V5")
        #expect(refusal { _ = try gyms.update(id: gym.id, GymDraft(website: .some("https://theclimb.example")), by: actor(manager)) } == .notPermitted)
        #expect(try gyms.addManager(gymID: gym.id, userID: manager.id, by: .commandLine) == [manager.id])
        let edited = try gyms.update(id: gym.id, GymDraft(website: .some("https://theclimb.example")), by: actor(manager))
        #expect(edited.website == "https://theclimb.example")
        #expect(edited.boulderLevels.count == 3, "a circuit left out of an edit stays")
    }

    @Test func gymInputIsCheckedFieldByField() throws {
        func field(_ draft: GymDraft) -> String? {
            do { _ = try gyms.create(draft, by: .commandLine); return nil } catch let error as DomainError { return error.field } catch { return "?" }
        }
        #expect(field(GymDraft(name: "A", timeZone: "Mars/Olympus")) == "time_zone")
        #expect(field(GymDraft(name: "A", country: "Korea", timeZone: "Asia/Seoul")) == "country")
        #expect(field(GymDraft(name: "A", location: (91, 0), timeZone: "Asia/Seoul")) == "latitude")
        #expect(field(GymDraft(name: "A", timeZone: "Asia/Seoul", boulderGrading: .circuit)) == "boulder_levels")
        #expect(field(GymDraft(name: "A", timeZone: "Asia/Seoul", boulderGrading: .circuit,
                               boulderLevels: [NewGymLevel(colour: "red", name: "Red", lowest: "V4", scale: .v)])) == "boulder_levels[1].colour")
        #expect(field(GymDraft(name: "A", timeZone: "Asia/Seoul", boulderGrading: .circuit,
                               boulderLevels: [NewGymLevel(colour: "#ff0000", name: "Red", lowest: "5.10a", scale: .yds)])) == "boulder_levels[1].scale")
        #expect(try gyms.list(matching: nil, near: nil, limit: 10, cursor: nil).items.isEmpty, "nothing half-written")
    }

    @Test func gymsAreFoundByNameInAnyLocaleAndByDistance() throws {
        let gangnam = try circuitGym()
        let busan = try gyms.create(GymDraft(name: "Busan Boulders", location: (35.1796, 129.0756), timeZone: "Asia/Seoul"), by: .commandLine)
        #expect(try gyms.list(matching: "강남", near: nil, limit: 10, cursor: nil).items.map(\.id) == [gangnam.id])
        #expect(try gyms.list(matching: "busan", near: nil, limit: 10, cursor: nil).items.map(\.id) == [busan.id])
        #expect(try gyms.list(matching: nil, near: (35.1, 129.0), limit: 10, cursor: nil).items.map(\.id) == [busan.id, gangnam.id])
        let first = try gyms.list(matching: nil, near: nil, limit: 1, cursor: nil)
        let second = try gyms.list(matching: nil, near: nil, limit: 1, cursor: first.nextCursor)
        #expect(first.items.map(\.id) + second.items.map(\.id) == [gangnam.id, busan.id])
        #expect(second.nextCursor == nil)
    }

    @Test func aSetFileIsCheckedWholeWrittenOnceAndRetiredByWall() throws {
        let gym = try circuitGym()
        _ = try gyms.addManager(gymID: gym.id, userID: manager.id, by: .commandLine)
        let good = """
            wall,colour,grade,set_on,name,setter
            Cave,red,Red,2026-11-20,1,Jisoo
            Cave,blue,초록,2026-11-20,2,
            Slab,green,1,2026-11-21
            """
        let bad = good + "\nSlab,pink,Purple,2026-11-21\nSlab,pink,Red,2026-02-30\n"
        do {
            _ = try problems.importSet(csv: bad, gymID: gym.id, by: actor(manager))
            Issue.record("a file with bad rows was accepted")
        } catch let error as ProblemSetError {
            #expect(error.rows.map(\.line) == [5, 6])
            #expect(error.rows.map(\.field) == ["grade", "set_on"])
        }
        #expect(try problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.isEmpty, "nothing written on any error")
        #expect(throws: DomainError.self) { _ = try problems.importSet(csv: good, gymID: gym.id, by: actor(friend)) }

        let dry = try problems.importSet(csv: good, gymID: gym.id, dryRun: true, by: actor(manager))
        #expect(dry.added == 3 && dry.dryRun)
        #expect(try problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.isEmpty, "a dry run writes nothing")
        #expect(try problems.importSet(csv: good, gymID: gym.id, by: actor(manager)) == ProblemSetOutcome(rows: 3, added: 3, unchanged: 0, dryRun: false))
        #expect(try problems.importSet(csv: good, gymID: gym.id, by: actor(manager)) == ProblemSetOutcome(rows: 3, added: 0, unchanged: 3, dryRun: false))

        let all = try problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items
        #expect(all.map(\.grade) == ["Red", "Green", "Yellow"], "levels read by name in any locale and by position")
        #expect(all.first?.holdColour == "red" && all.first?.setter == "Jisoo")
        #expect(try problems.list(gymID: gym.id, on: nil, wall: "cave", grade: nil, limit: 50, cursor: nil).items.count == 2)
        #expect(try problems.list(gymID: gym.id, on: nil, wall: nil, grade: "V5", limit: 50, cursor: nil).items.count == 1)

        #expect(try problems.retireWall("Cave", gymID: gym.id, on: "2026-12-01", by: actor(manager)) == 2)
        #expect(try problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 50, cursor: nil).items.map(\.wall) == ["Slab"])
        #expect(try problems.list(gymID: gym.id, on: "2026-11-25", wall: nil, grade: nil, limit: 50, cursor: nil).items.count == 3,
                "retired problems stay for the days they were up")
    }

    @Test func aRetriedBatchRecordsNothingTwiceAndRefusalsStandAlone() throws {
        let gym = try circuitGym()
        let problem = try problems.add(NewProblem(wall: "Cave", holdColour: "red", grade: "Red", setOn: "2026-11-20"), gymID: gym.id, by: .commandLine)
        let batch = [
            NewTick(clientTickID: "a", problemID: problem.id, style: .flash),
            NewTick(clientTickID: "b", gymID: gym.id, level: "초록", style: .send, attempts: 3),
            NewTick(clientTickID: "c", gymID: gym.id, level: "Purple", style: .send),
            NewTick(clientTickID: "d", grade: "5.11a", gradeScale: .yds, routeName: "Indian Face", crag: "Seonunsan", style: .attempt, attempts: 4),
        ]
        let first = try logbook.logBatch(batch, memberID: climber.id)
        guard case let .created(flash) = first[0], case .created = first[1], case let .refused(error) = first[2], case let .created(outdoor) = first[3] else {
            Issue.record("unexpected outcomes: \(first)")
            return
        }
        #expect(error.field == "level")
        #expect(flash.grade == "Red" && flash.colour == "#E53935" && flash.range == gym.boulderLevels[2].range)
        #expect(flash.climbedOn == "2026-11-29", "the day in the gym's zone")
        #expect(outdoor.range.axis == .route && outdoor.discipline == .lead)

        let again = try logbook.logBatch(batch, memberID: climber.id)
        #expect(again.map { if case .duplicate = $0 { "duplicate" } else if case .refused = $0 { "refused" } else { "created" } }
                == ["duplicate", "duplicate", "refused", "duplicate"])
        #expect(try logbook.logbook(memberID: climber.id, viewerID: climber.id, filter: TickFilter(), limit: 50, cursor: nil).items.count == 3)
        #expect(throws: DomainError.self) { _ = try logbook.logBatch([], memberID: climber.id) }
        #expect(throws: DomainError.self) { _ = try logbook.logBatch(Array(repeating: batch[0], count: 2), memberID: climber.id) }
    }

    @Test func aTickKeepsItsGradeWhenTheCircuitChanges() throws {
        let gym = try circuitGym()
        let tick = try logbook.log(NewTick(clientTickID: "1", gymID: gym.id, level: "Red", style: .flash), memberID: climber.id)
        guard case let .created(logged) = tick else { Issue.record("not created"); return }
        _ = try gyms.update(id: gym.id, GymDraft(boulderLevels: [NewGymLevel(colour: "#000000", name: "Black", lowest: "V8", scale: .v)]), by: .commandLine)
        let read = try logbook.logbook(memberID: climber.id, viewerID: climber.id, filter: TickFilter(), limit: 10, cursor: nil).items
        #expect(read.first?.grade == "Red" && read.first?.range == logged.range && read.first?.colour == "#E53935")
    }

    @Test func styleAttemptsAndTimesAreChecked() throws {
        func field(_ tick: NewTick) -> String? {
            do { _ = try logbook.log(tick, memberID: climber.id); return nil } catch let error as DomainError { return error.field } catch { return "?" }
        }
        #expect(field(NewTick(clientTickID: "x", grade: "V5", gradeScale: .v, style: .flash, attempts: 3)) == "attempts")
        #expect(field(NewTick(clientTickID: "x", grade: "V5", gradeScale: .v, style: .send, attempts: 1)) == "attempts")
        #expect(field(NewTick(clientTickID: "x", grade: "V5", gradeScale: .v, style: .send, climbedAt: fixture.clock.now().addingTimeInterval(86_400))) == "climbed_at")
        #expect(field(NewTick(clientTickID: "x", grade: "V5", gradeScale: .yds, style: .send)) == "grade")
        #expect(field(NewTick(clientTickID: "x", grade: "V5", gradeScale: .v, style: .send, stars: 6)) == "stars")
        #expect(field(NewTick(clientTickID: "x", style: .send)) == "problem_id")
        #expect(refusal { _ = try logbook.log(NewTick(clientTickID: "x", problemID: 999, style: .send), memberID: climber.id) } == .problemNotFound)
    }

    @Test func othersSeeOnlyWhatTheClimberShares() throws {
        _ = try logbook.setPreferences(LogbookPreferences(defaultVisibility: .private), memberID: climber.id)
        _ = try logbook.log(NewTick(clientTickID: "hidden", grade: "V3", gradeScale: .v, style: .send), memberID: climber.id)
        _ = try logbook.log(NewTick(clientTickID: "shared", grade: "V4", gradeScale: .v, style: .send, visibility: .members), memberID: climber.id)
        _ = try logbook.log(NewTick(clientTickID: "public", grade: "V2", gradeScale: .v, style: .flash, visibility: .public), memberID: climber.id)
        let own = try logbook.logbook(memberID: climber.id, viewerID: climber.id, filter: TickFilter(), limit: 10, cursor: nil).items
        let seen = try logbook.logbook(memberID: climber.id, viewerID: friend.id, filter: TickFilter(), limit: 10, cursor: nil).items
        #expect(Set(own.map(\.clientTickID)) == ["hidden", "shared", "public"])
        #expect(Set(seen.map(\.clientTickID)) == ["shared", "public"])
        let summary = try logbook.summary(memberID: climber.id, viewerID: friend.id, from: nil, to: nil)
        #expect(summary.axes.first?.pyramid.reduce(0) { $0 + $1.sends + $1.flashes } == 2, "the summary counts only what the viewer may see")
    }

    @Test func aTickInAMeetupsWindowBelongsToIt() throws {
        let meetup = try fixture.meetup(startsIn: 600)
        try fixture.checkedIn(climber, at: meetup)
        fixture.clock.advance(by: 1_800)
        guard case let .created(tick) = try logbook.log(NewTick(clientTickID: "m", grade: "V3", gradeScale: .v, style: .send), memberID: climber.id) else {
            Issue.record("not created"); return
        }
        #expect(tick.meetupID == meetup.id)
        guard case let .created(other) = try logbook.log(NewTick(clientTickID: "n", grade: "V3", gradeScale: .v, style: .send), memberID: friend.id) else {
            Issue.record("not created"); return
        }
        #expect(other.meetupID == nil, "a member not checked in climbs on their own")
        #expect(try logbook.meetupTicks(meetupID: meetup.id, seenBy: .user(friend.id, role: friend.role)).map(\.id) == [tick.id])
    }

    @Test func theSummaryCountsSessionsPyramidsAndPersonalBests() throws {
        let days: [(String, String, TickStyle)] = [
            ("2026-11-02", "V3", .send), ("2026-11-02", "V3", .flash), ("2026-11-02", "V4", .attempt),
            ("2026-11-09", "V4", .send), ("2026-11-09", "V2", .flash),
            ("2026-11-16", "V5", .send), ("2026-11-16", "V4", .flash),
        ]
        for (index, (day, grade, style)) in days.enumerated() {
            let at = try #require(RFC3339.parse("\(day)T19:00:00+09:00")).date
            _ = try logbook.log(NewTick(clientTickID: "t\(index)", grade: grade, gradeScale: .v, style: style, climbedAt: at), memberID: climber.id)
        }
        let summary = try logbook.summary(memberID: climber.id, viewerID: climber.id, from: "2026-11-08", to: "2026-11-21")
        #expect(summary.sessions.map(\.day) == ["2026-11-16", "2026-11-09"])
        #expect(summary.sessions.map(\.sends) == [2, 2])
        #expect(summary.sessions.first?.flashes == 1)
        let boulder = try #require(summary.axes.first)
        #expect(boulder.pyramid.map { GradeTable.name(of: $0.range, in: .v) } == ["V5", "V4", "V2"])
        #expect(boulder.pyramid.map(\.flashes) == [0, 1, 1])
        #expect(boulder.hardestSend?.grade == "V5")
        #expect(boulder.hardestFlash?.grade == "V4")
        // V3 was sent and flashed before the period: V4 and V5 sends and the V4 flash are new.
        #expect(summary.personalBests.map { "\($0.kind.rawValue) \(GradeTable.name(of: $0.range, in: .v)) \($0.day)" }
                == ["flash V4 2026-11-16", "send V5 2026-11-16", "send V4 2026-11-09"])
        #expect(summary.sessionsPerWeek == 1)

        _ = try logbook.setPreferences(LogbookPreferences(boulderScale: .font), memberID: friend.id)
        let inFont = try logbook.summary(memberID: climber.id, viewerID: friend.id, from: "2026-11-08", to: "2026-11-21")
        #expect(inFont.axes.first?.pyramid.map { GradeTable.name(of: $0.range, in: .font) } == ["6c", "6a+", "5b"],
                "members' ticks show to other members, in the viewer's scale")
    }
}

/// A leaving member's logbook goes with their account.
@Suite struct LogbookErasureTests {
    @Test func deletingAnAccountErasesItsTicksPreferencesAndManagerRoles() throws {
        let fixture = try DomainFixture()
        let climber = try fixture.member("climber")
        let other = try fixture.member("other")
        let gym = try fixture.domain.gyms.create(GymDraft(name: "Wall", timeZone: "Asia/Seoul"), by: .commandLine)
        _ = try fixture.domain.gyms.addManager(gymID: gym.id, userID: climber.id, by: .commandLine)
        _ = try fixture.domain.logbook.setPreferences(LogbookPreferences(boulderScale: .font), memberID: climber.id)
        for (user, id) in [(climber, "a"), (climber, "b"), (other, "a")] {
            _ = try fixture.domain.logbook.log(NewTick(clientTickID: id, gymID: gym.id, grade: "V2", style: .send), memberID: user.id)
        }
        _ = try fixture.domain.accounts.deleteAccount(userID: climber.id)
        let left = try fixture.pool.read { db in
            try db.query("SELECT user_id FROM ticks UNION ALL SELECT user_id FROM logbook_preferences UNION ALL SELECT user_id FROM gym_managers", []) {
                try $0.get("user_id", as: Int64.self)
            }
        }
        #expect(left == [other.id], "only the other member's tick stays")
    }
}

/// What the climbers say: community grades, a level's real span, and the opt-in ranking.
@Suite struct LogbookCommunityTests {
    let fixture: DomainFixture
    let gym: Gym

    init() throws {
        fixture = try DomainFixture()
        gym = try fixture.domain.gyms.create(GymDraft(name: "Wall", timeZone: "Asia/Seoul", boulderGrading: .circuit, boulderLevels: [
            NewGymLevel(colour: "#4CAF50", name: "Green", lowest: "V1", highest: "V2", scale: .v),
            NewGymLevel(colour: "#E53935", name: "Red", lowest: "V4", highest: "V5", scale: .v),
        ]), by: .commandLine)
    }

    private func log(_ user: User, _ id: String, _ tick: (inout NewTick) -> Void) throws {
        var new = NewTick(clientTickID: id, gymID: gym.id, level: "Green", style: .send)
        tick(&new)
        _ = try fixture.domain.logbook.log(new, memberID: user.id)
    }

    @Test func aProblemShowsTheMostVotedFeltGradeOnceThreeVoted() throws {
        let problem = try fixture.domain.problems.add(NewProblem(wall: "Cave", holdColour: "red", grade: "Red", setOn: "2026-11-20"),
                                                     gymID: gym.id, by: .commandLine)
        func community() throws -> (Int?, Int) {
            let listed = try #require(try fixture.domain.problems.list(gymID: gym.id, on: nil, wall: nil, grade: nil, limit: 10, cursor: nil).items.first)
            return (listed.communityScore, listed.votes)
        }
        let members = try (0..<5).map { _ in try fixture.member() }
        for (member, felt) in zip(members.prefix(2), ["V4", "V5"]) {
            try log(member, "p") { $0.gymID = nil; $0.level = nil; $0.problemID = problem.id; $0.feltGrade = felt }
        }
        #expect(try community() == (nil, 2), "two votes are not enough")
        try log(members[2], "p") { $0.gymID = nil; $0.level = nil; $0.problemID = problem.id; $0.feltGrade = "6c" }
        #expect(try community() == (68, 3), "6c and V5 are the same score: the most voted")
        try log(members[3], "p") { $0.gymID = nil; $0.level = nil; $0.problemID = problem.id; $0.feltGrade = "V4" }
        try log(members[4], "p") { $0.gymID = nil; $0.level = nil; $0.problemID = problem.id; $0.feltGrade = "V3"; $0.visibility = .private }
        #expect(try community() == (63, 4), "a tie goes to the lower; a private tick does not vote")
    }

    @Test func aLevelShowsTheSpanItsMembersSendsFelt() throws {
        let members = try (0..<4).map { _ in try fixture.member() }
        for (index, felt) in ["V2", "V3", "V3", "V4"].enumerated() {
            try log(members[index], "g") { $0.feltGrade = felt }
        }
        let green = try #require(try fixture.domain.gyms.gym(id: gym.id).boulderLevels.first)
        #expect(green.votes == 4)
        let span = try #require(green.communityRange)
        #expect(GradeTable.name(of: span, in: .v) == "V2–V3", "the middle half: this gym's green feels harder than V1–V2")
    }

    @Test func theRankingListsThoseWhoOptedInByTheirHardestSends() throws {
        let (ana, bo, cy) = (try fixture.member("ana"), try fixture.member("bo"), try fixture.member("cy"))
        for user in [ana, bo] {
            _ = try fixture.domain.logbook.setPreferences(LogbookPreferences(inRankings: true), memberID: user.id)
        }
        try log(ana, "1") { $0.level = "Red" }
        try log(ana, "2") { $0.level = "Green"; $0.climbedAt = fixture.clock.now().addingTimeInterval(-60) }
        try log(bo, "1") { $0.level = "Red"; $0.climbedAt = fixture.clock.now().addingTimeInterval(-120) }
        try log(bo, "2") { $0.level = "Green"; $0.climbedAt = fixture.clock.now().addingTimeInterval(-180) }
        try log(cy, "1") { $0.level = "Red" }
        try log(bo, "3") { $0.level = "Red"; $0.style = .attempt; $0.attempts = 5 }
        try log(ana, "old") { $0.level = "Red"; $0.climbedAt = fixture.clock.now().addingTimeInterval(-90 * 86_400) }
        let ranking = try fixture.domain.logbook.ranking(gymID: gym.id)
        #expect(ranking.entries.map(\.userID) == [bo.id, ana.id], "the same points: bo got there first; cy did not opt in")
        #expect(ranking.entries.map(\.points) == [63 + 48, 63 + 48])
        #expect(ranking.entries.first?.counted.count == 2, "an attempt and a send older than 60 days do not count")
    }
}

/// Moving in: theCrag's and Mountain Project's exports, quirks and all.
@Suite struct LogbookImportTests {
    let fixture: DomainFixture
    let climber: User

    init() throws {
        fixture = try DomainFixture()
        climber = try fixture.member("climber")
    }

    private func file(_ name: String) throws -> String {
        try String(contentsOf: BelayProcess.packageRoot.appendingPathComponent("Tests/BelayDomainTests/Fixtures/imports/\(name)"), encoding: .utf8)
    }

    private var ticks: [Tick] {
        get throws { try fixture.domain.logbook.logbook(memberID: climber.id, viewerID: climber.id, filter: TickFilter(), limit: 200, cursor: nil).items }
    }

    @Test func theCragsLogbookIsImportedOnce() throws {
        let text = try file("thecrag-logbook.csv")
        let dry = try fixture.domain.logbook.importTicks(csv: text, memberID: climber.id, dryRun: true)
        #expect(dry == TickImportOutcome(format: "thecrag", rows: 4, added: 4, unchanged: 0, dryRun: true))
        #expect(try ticks.isEmpty)
        #expect(try fixture.domain.logbook.importTicks(csv: text, memberID: climber.id, dryRun: false).added == 4)
        #expect(try fixture.domain.logbook.importTicks(csv: text, memberID: climber.id, dryRun: false)
                == TickImportOutcome(format: "thecrag", rows: 4, added: 0, unchanged: 4, dryRun: false))
        let byName = Dictionary(uniqueKeysWithValues: try ticks.map { ($0.routeName ?? "", $0) })
        let trad = try #require(byName["Indian Face Direct"])
        #expect(trad.grade == "5.11a" && trad.gradeScale == .yds && trad.style == .send && trad.discipline == .lead)
        #expect(trad.note == "Finally, after three sessions" && trad.climbedOn == "2026-10-03")
        #expect(byName["Insu Slab"]?.style == .flash && byName["Insu Slab"]?.gradeScale == .french)
        let boulder = try #require(byName["Cave Problem"])
        #expect(boulder.style == .attempt && GradeTable.name(of: boulder.range, in: .v) == "V3–V4")
        #expect(byName["Roof Crack"]?.style == .repeat && byName["Roof Crack"]?.gradeScale == .ewbank)
    }

    @Test func mountainProjectsTicksKeepTheirQuirks() throws {
        let outcome = try fixture.domain.logbook.importTicks(csv: try file("mountainproject-ticks.csv"), memberID: climber.id, dryRun: false)
        #expect(outcome.format == "mountain_project" && outcome.added == 6, "the same route twice in a day is two climbs")
        let all = try ticks
        let slab = try #require(all.first { $0.routeName == "Slab Happy" })
        #expect(GradeTable.name(of: slab.range, in: .yds) == "5.10a–5.10b" && slab.stars == 4 && slab.note == "Windy, cold")
        #expect(all.first { $0.routeName == "Warm-up Arete" }?.discipline == .topRope)
        #expect(all.first { $0.routeName == "Onsight Corner" }?.style == .flash)
        #expect(all.first { $0.routeName == "Hard Roof" }?.style == .attempt)
        #expect(all.filter { $0.routeName == "The Pinch" }.count == 2)
        #expect(try fixture.domain.logbook.importTicks(csv: try file("mountainproject-ticks.csv"), memberID: climber.id, dryRun: false).added == 0)
    }

    @Test func aFileWithBadRowsIsRefusedWholeNamingEachLine() throws {
        do {
            _ = try fixture.domain.logbook.importTicks(csv: try file("mountainproject-dateless.csv"), memberID: climber.id, dryRun: false)
            Issue.record("a file with a dateless tick was imported")
        } catch let error as TickImportError {
            #expect(error.rows.map(\.line) == [3, 4])
            #expect(error.rows.map(\.field) == ["date", "grade"])
        }
        #expect(try ticks.isEmpty, "nothing written on any error")
        #expect(throws: TickImportError.self) { _ = try fixture.domain.logbook.importTicks(csv: "a,b\n1,2\n", memberID: climber.id, dryRun: true) }
    }
}

/// `tick.created`: one event per request that logged climbs, private ticks left out.
@Suite struct TickWebhookTests {
    @Test func aBatchIsOneEventAndPrivateTicksStayPrivate() throws {
        let fixture = try DomainFixture(settings: BuiltInSettings.domain { $0.webhooks.allowPrivateAddresses = true })
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/ticks", events: [.tickCreated], by: .commandLine)
        let climber = try fixture.member("climber")
        let batch = (1...5).map { NewTick(clientTickID: "t\($0)", grade: "V\($0)", gradeScale: .v, style: .send,
                                          visibility: $0 == 5 ? .private : .members) }
        _ = try fixture.domain.logbook.logBatch(batch, memberID: climber.id)
        _ = try fixture.domain.logbook.logBatch(batch, memberID: climber.id)  // a retry logs nothing, so says nothing
        _ = try fixture.domain.logbook.log(NewTick(clientTickID: "p", grade: "V1", gradeScale: .v, style: .send, visibility: .private),
                                           memberID: climber.id)
        let bodies = try fixture.pool.read { db in
            try db.query("SELECT body FROM webhook_events WHERE type = 'tick.created' ORDER BY id", []) { String(decoding: try $0.get("body", as: Data.self), as: UTF8.self) }
        }
        #expect(bodies.count == 1)
        let data = try #require(try JSONParser.parse(bodies[0])["data"])
        #expect(data["user_id"]?.intValue == climber.id)
        #expect(data["ticks"]?.arrayValue?.count == 4)
    }
}

/// Blocks reach the logbook: neither member sees the other's climbing.
@Suite struct LogbookBlockTests {
    @Test func aBlockHidesEachOthersLogbookTicksAndRankingPlace() throws {
        let fixture = try DomainFixture()
        let (ana, bo) = (try fixture.member("ana"), try fixture.member("bo"))
        let gym = try fixture.domain.gyms.create(GymDraft(name: "Wall", timeZone: "Asia/Seoul"), by: .commandLine)
        for user in [ana, bo] {
            _ = try fixture.domain.logbook.setPreferences(LogbookPreferences(inRankings: true), memberID: user.id)
            _ = try fixture.domain.logbook.log(NewTick(clientTickID: "t", gymID: gym.id, grade: "V3", style: .send), memberID: user.id)
        }
        #expect(try fixture.domain.logbook.logbook(memberID: bo.id, viewerID: ana.id, filter: TickFilter(), limit: 10, cursor: nil).items.count == 1)
        #expect(try fixture.domain.logbook.ranking(gymID: gym.id, viewerID: ana.id).entries.count == 2)
        _ = try fixture.domain.safety.block(bo.id, by: ana.id)
        for (viewer, member) in [(ana, bo), (bo, ana)] {
            #expect(refusal { _ = try fixture.domain.logbook.logbook(memberID: member.id, viewerID: viewer.id, filter: TickFilter(), limit: 10, cursor: nil) } == .userNotFound)
            #expect(refusal { _ = try fixture.domain.logbook.summary(memberID: member.id, viewerID: viewer.id, from: nil, to: nil) } == .userNotFound)
            #expect(try fixture.domain.logbook.ranking(gymID: gym.id, viewerID: viewer.id).entries.map(\.userID) == [viewer.id])
        }
    }
}
