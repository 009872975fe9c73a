@testable import BelayDomain
import BelayCore
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The moderators' queue, actions and log, on the engine of the run.
@Suite struct ModerationServiceTests {
    let fixture: DomainFixture
    init() throws { fixture = try DomainFixture(importCatalog: false) }
    var moderation: ModerationService { fixture.domain.moderation }

    func report(_ type: ReportSubjectType, _ id: String, by member: User, reason: ReportReason = .harassment) throws -> Report {
        try fixture.domain.reports.file(NewReport(subjectType: type, subjectID: id, reason: reason), by: member.id).report
    }

    @Test func onlyModeratorsWorkTheQueue() throws {
        let member = try fixture.member()
        #expect(refusal { _ = try moderation.queue(by: .user(member.id, role: .member)) } == .notPermitted)
        #expect(refusal { _ = try moderation.audit(by: fixture.hostActor) } == .notPermitted)
        try moderation.setModerator(userID: member.id, true)
        #expect(try moderation.queue(by: .user(member.id, role: .member)).isEmpty)
        try moderation.setModerator(userID: member.id, false)
        #expect(try !moderation.isModerator(.user(member.id, role: .member)))
        #expect(try moderation.isModerator(.user(fixture.admin.id, role: .admin)))
        #expect(refusal { try moderation.setModerator(userID: 987_654, true) } == .userNotFound)
    }

    @Test func hidingAMeetupClosesItsReportsAndTellsTheReporterTheOutcome() throws {
        let meetup = try fixture.meetup()
        let reporter = try fixture.member(), second = try fixture.member()
        let filed = try report(.meetup, String(meetup.id), by: reporter)
        _ = try report(.meetup, String(meetup.id), by: second, reason: .hate)
        let queue = try moderation.queue(by: .commandLine)
        #expect(queue.map(\.subjectID) == [String(meetup.id)])
        #expect(queue.first?.reasons == [.harassment: 1, .hate: 1])
        #expect(queue.first?.hidden == false)

        let moderator = try fixture.member()
        try moderation.setModerator(userID: moderator.id, true)
        let action = try moderation.act(ModerationRequest(action: .hide, subjectType: .meetup, subjectID: String(meetup.id),
                                                          reason: "Rule 3: no hate"), by: .user(moderator.id, role: .member))
        #expect(action.moderatorID == moderator.id)
        #expect(action.reportIDs.count == 2)
        #expect(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.isEmpty)
        #expect(try moderation.queue(by: .commandLine).isEmpty)
        let newcomer = try fixture.member()
        #expect(refusal { _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: newcomer.id, by: .user(newcomer.id, role: .member)) }
                == .notPermitted)
        let mine = try fixture.domain.reports.reports(of: reporter.id).items
        #expect(mine.map(\.id) == [filed.id])
        #expect(mine.first?.status == .actioned)
        #expect(mine.first?.outcome == .hide)

        _ = try moderation.act(ModerationRequest(action: .lift, subjectType: .meetup, subjectID: String(meetup.id), reason: "Edited"),
                               by: .commandLine)
        #expect(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.map(\.id) == [meetup.id])
        _ = try fixture.domain.attendance.join(meetupID: meetup.id, memberID: newcomer.id, by: .user(newcomer.id, role: .member))
        #expect(try moderation.audit(by: .commandLine).items.map(\.action) == [.lift, .hide])
        // A second lift has nothing to lift.
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .lift, subjectType: .meetup, subjectID: String(meetup.id), reason: "x"),
                                                 by: .commandLine) } == .invalidInput)
    }

    @Test func dismissingClosesTheReportsAndChangesNothingElse() throws {
        let meetup = try fixture.meetup()
        let reporter = try fixture.member()
        _ = try report(.meetup, String(meetup.id), by: reporter, reason: .spam)
        _ = try moderation.act(ModerationRequest(action: .dismiss, subjectType: .meetup, subjectID: String(meetup.id), reason: "Not spam"),
                               by: .commandLine)
        #expect(try fixture.domain.reports.reports(of: reporter.id).items.first?.outcome == .dismiss)
        #expect(try fixture.domain.reports.reports(of: reporter.id).items.first?.status == .dismissed)
        #expect(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.map(\.id) == [meetup.id])
        // Reporting again afterwards opens a new report.
        #expect(try fixture.domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetup.id), reason: .spam), by: reporter.id).created)
    }

    @Test func aReasonIsRequiredAndNothingIsHalfWritten() throws {
        let meetup = try fixture.meetup()
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .hide, subjectType: .meetup, subjectID: String(meetup.id), reason: "  "),
                                                 by: .commandLine) } == .invalidInput)
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .suspend, subjectType: .member, subjectID: String(fixture.host.id),
                                                                   reason: "x", until: fixture.clock.now().addingTimeInterval(-1)),
                                                 by: .commandLine) } == .invalidInput)
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .suspend, subjectType: .member, subjectID: String(fixture.admin.id),
                                                                   reason: "x"), by: .commandLine) } == .notPermitted)
        #expect(try moderation.audit(by: .commandLine).items.isEmpty)
        #expect(try fixture.domain.meetups.list(MeetupQuery(limit: 50)).items.map(\.id) == [meetup.id])
    }

    @Test func suspendingEndsSignInTokensFeedsAndUpcomingMeetups() throws {
        let suspect = try fixture.domain.users.createUser(NewUser(handle: "suspect", displayName: "Suspect", role: .host))
        let suspectActor = Actor.user(suspect.id, role: .host)
        _ = try fixture.domain.webhooks.add(url: "https://hooks.example.com/", events: [.meetupCancelled, .memberSuspended], by: .commandLine)
        let start = fixture.clock.now().addingTimeInterval(86_400)
        let upcoming = try fixture.domain.meetups.create(
            NewMeetup(title: "Sketchy", placeName: "Somewhere", startsAt: start, endsAt: start.addingTimeInterval(3_600),
                      timeZone: "Asia/Seoul", capacity: 5, hostID: suspect.id), by: suspectActor)
        let going = try fixture.member()
        _ = try fixture.domain.attendance.join(meetupID: upcoming.id, memberID: going.id, by: .user(going.id, role: .member))
        let identity = ProvenIdentity(method: .email, subject: "suspect@example.com", email: "suspect@example.com", emailVerified: true)
        try fixture.pool.write { db in
            try db.execute("UPDATE users SET email = 'suspect@example.com' WHERE id = ?", [suspect.id])
        }
        let grant = try fixture.domain.accounts.signIn(identity, device: DeviceDescription())
        #expect(grant.user.id == suspect.id)
        let token = try fixture.domain.users.issueToken(userID: suspect.id)
        let feed = try fixture.domain.calendar.feedToken(memberID: suspect.id)
        #expect(try fixture.domain.calendar.member(forFeedToken: feed) == suspect.id)
        _ = try fixture.domain.reports.file(NewReport(subjectType: .member, subjectID: String(suspect.id), reason: .harassment), by: going.id)

        let until = fixture.clock.now().addingTimeInterval(7 * 86_400)
        let action = try moderation.act(ModerationRequest(action: .suspend, subjectType: .member, subjectID: String(suspect.id),
                                                          reason: "Rule 1: harassment", until: until), by: .commandLine)
        #expect(action.until == Date(millisecondsSince1970: until.millisecondsSince1970))
        #expect(try fixture.domain.users.authenticate(token: grant.accessToken) == nil)
        #expect(try fixture.domain.users.authenticate(token: token.secret) == nil)
        #expect(try fixture.domain.calendar.member(forFeedToken: feed) == nil)
        #expect(refusal { _ = try fixture.domain.accounts.refresh(token: grant.refreshToken) } != nil)
        #expect(refusal { _ = try fixture.domain.accounts.signIn(identity, device: DeviceDescription()) } == .accountSuspended)
        #expect(try fixture.domain.meetups.meetup(id: upcoming.id).status == .cancelled)
        #expect(try fixture.domain.attendance.attendance(meetupID: upcoming.id, memberID: going.id)?.status == .cancelled)
        let events: [String] = try fixture.pool.read { try $0.query("SELECT type FROM webhook_events ORDER BY id", []) { try $0.get("type") } }
        #expect(events == ["meetup.cancelled", "member.suspended"])

        // After the suspension ends, signing in works again; lifting early works too.
        fixture.clock.advance(by: 8 * 86_400)
        _ = try fixture.domain.accounts.signIn(identity, device: DeviceDescription())
        _ = try moderation.act(ModerationRequest(action: .suspend, subjectType: .member, subjectID: String(suspect.id), reason: "Again"),
                               by: .commandLine)
        #expect(refusal { _ = try fixture.domain.accounts.signIn(identity, device: DeviceDescription()) } == .accountSuspended)
        _ = try moderation.act(ModerationRequest(action: .lift, subjectType: .member, subjectID: String(suspect.id), reason: "Appeal upheld"),
                               by: .commandLine)
        _ = try fixture.domain.accounts.signIn(identity, device: DeviceDescription())
        #expect(try moderation.audit(by: .commandLine).items.map(\.action) == [.lift, .suspend, .suspend])
    }

    @Test func aHiddenSharePageAndTheSharePagesOfASuspendedMemberAreWithheld() throws {
        let withPages = try DomainFixture()
        let meetup = try withPages.meetup(startsIn: 600)
        withPages.clock.advance(by: 600)
        let members = try (0..<2).map { _ in try withPages.member() }
        var slugs: [String] = []
        for member in members {
            let reward = try #require(try withPages.checkedIn(member, at: meetup).reward)
            slugs.append(try withPages.domain.sharePages.publish(reward, by: .user(member.id, role: .member)).slug)
        }
        let reporter = try withPages.member()
        _ = try withPages.domain.reports.file(NewReport(subjectType: .sharePage, subjectID: slugs[0], reason: .sexual), by: reporter.id)
        let queued = try withPages.domain.moderation.queue(by: .commandLine)
        #expect(queued.first?.subjectUserID == members[0].id)
        #expect(queued.first?.snapshot.contains(slugs[0]) == true)

        _ = try withPages.domain.moderation.act(ModerationRequest(action: .hide, subjectType: .sharePage, subjectID: slugs[0], reason: "Rule 4"),
                                                by: .commandLine)
        #expect(try withPages.domain.sharePages.page(slug: slugs[0]) == nil)
        #expect(try withPages.domain.sharePages.isWithheld(slug: slugs[0]))
        #expect(try withPages.domain.sharePages.page(slug: slugs[1]) != nil)
        #expect(try !withPages.domain.sharePages.isWithheld(slug: slugs[1]))

        _ = try withPages.domain.moderation.act(ModerationRequest(action: .suspend, subjectType: .member, subjectID: String(members[1].id),
                                                                  reason: "Rule 1", until: withPages.clock.now().addingTimeInterval(3_600)),
                                                by: .commandLine)
        #expect(try withPages.domain.sharePages.page(slug: slugs[1]) == nil)
        #expect(try withPages.domain.sharePages.isWithheld(slug: slugs[1]))
        // The suspension runs out: the page is back; lifting the hide brings the other back.
        withPages.clock.advance(by: 3_601)
        #expect(try withPages.domain.sharePages.page(slug: slugs[1]) != nil)
        _ = try withPages.domain.moderation.act(ModerationRequest(action: .lift, subjectType: .sharePage, subjectID: slugs[0], reason: "Appeal"),
                                                by: .commandLine)
        #expect(try withPages.domain.sharePages.page(slug: slugs[0]) != nil)
    }

    @Test func hidingAMemberReplacesTheirNameWithANeutralOne() throws {
        let member = try fixture.member("rude")
        _ = try moderation.act(ModerationRequest(action: .hide, subjectType: .member, subjectID: String(member.id), reason: "Rule 3: the name"),
                               by: .commandLine)
        let hidden = try fixture.domain.accounts.profile(userID: member.id).user
        #expect(hidden.displayName == "Member")
        #expect(hidden.handle == "hidden-\(member.id)")
        // Nobody may take such a handle; the member chooses a new one.
        let other = try fixture.member()
        #expect(refusal { _ = try fixture.domain.accounts.updateProfile(userID: other.id, ProfileChange(handle: "hidden-99")) } == .invalidInput)
        _ = try fixture.domain.accounts.updateProfile(userID: member.id, ProfileChange(displayName: "Kind climber", handle: "kind_climber"))
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .hide, subjectType: .member, subjectID: "424242", reason: "x"),
                                                 by: .commandLine) } == .userNotFound)
    }

    @Test func reportersHearTheOutcomeAndTheMemberHearsTheRuleAndWhereToAppeal() throws {
        let told = try DomainFixture(settings: BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.platforms = Set(DevicePlatform.allCases)
            $0.moderation.appealAddress = "moderators@club.example"
        }, importCatalog: false)
        let reporter = try told.member(), author = try told.member()
        for (member, token, locale) in [(reporter, "phone-reporter", MemberLocale.en), (author, "phone-author", .ko)] {
            _ = try told.domain.push.register(DeviceRegistration(platform: .ios, token: token, appID: "club.belay.app", locale: locale),
                                              userID: member.id, sessionID: nil)
        }
        // A switch an earlier Belay let the member store does not silence what the club always sends.
        try told.pool.write { db in
            try db.execute("INSERT INTO notification_settings (user_id, kind, enabled) VALUES (?, 'moderation', 0)", [author.id])
        }
        let filed = try told.domain.reports.file(NewReport(subjectType: .member, subjectID: String(author.id), reason: .harassment), by: reporter.id)
        _ = try told.domain.moderation.act(ModerationRequest(action: .warn, subjectType: .member, subjectID: String(author.id),
                                                             reason: "Rule 1: be kind to other climbers."), by: .commandLine)
        let notices: [(kind: String, payload: JSONValue)] = try told.pool.read { db in
            try db.query("SELECT kind, payload FROM push_notices ORDER BY id", []) { row in
                (try row.get("kind"), shownNotice(kind: try row.get("kind"), payload: try row.get("payload")))
            }
        }
        #expect(notices.map(\.kind) == ["report_outcome", "moderation"])
        #expect(notices.first?.payload["body"]?.stringValue == "The club's moderators acted on it.")
        #expect(notices.first?.payload["report_id"]?.intValue == filed.report.id)
        let warning = try #require(notices.last?.payload)
        #expect(warning["title"]?.stringValue == "클럽 운영진의 경고")
        #expect(warning["body"]?.stringValue?.contains("Rule 1: be kind to other climbers.") == true)
        #expect(warning["body"]?.stringValue?.contains("moderators@club.example") == true)
        // The member never learns who reported them.
        #expect(!String(decoding: warning.jsonBytes, as: UTF8.self).contains(reporter.handle))
    }

    @Test func reportsOfADeletedAccountCanStillBeDismissedAndKeepNoReporter() throws {
        let reporter = try fixture.member(), subject = try fixture.member()
        _ = try fixture.domain.reports.file(NewReport(subjectType: .member, subjectID: String(subject.id), reason: .spam), by: reporter.id)
        _ = try fixture.domain.accounts.deleteAccount(userID: reporter.id)
        _ = try fixture.domain.accounts.deleteAccount(userID: subject.id)
        let stored = try fixture.pool.read { try $0.scalar("SELECT count(*) FROM reports WHERE reporter_id IS NULL", as: Int.self) }
        #expect(stored == 1)
        #expect(refusal { _ = try moderation.act(ModerationRequest(action: .hide, subjectType: .member, subjectID: String(subject.id), reason: "x"),
                                                 by: .commandLine) } == .userNotFound)
        let shown = try moderation.subject(.member, String(subject.id), by: .commandLine)
        #expect(shown.snapshot.contains(subject.handle))
        #expect(shown.reports.count == 1)
        let dismissed = try moderation.act(ModerationRequest(action: .dismiss, subjectType: .member, subjectID: String(subject.id),
                                                             reason: "The account is gone"), by: .commandLine)
        #expect(dismissed.reportIDs.count == 1)
        #expect(try moderation.queue(by: .commandLine).isEmpty)
    }

    @Test func theLogIsAppendOnly() throws {
        let meetup = try fixture.meetup()
        _ = try moderation.act(ModerationRequest(action: .hide, subjectType: .meetup, subjectID: String(meetup.id), reason: "Spam"),
                               by: .commandLine)
        #expect(throws: (any Error).self) { try fixture.pool.write { try $0.execute("UPDATE moderation_actions SET reason = 'nothing'", []) } }
        #expect(throws: (any Error).self) { try fixture.pool.write { try $0.execute("DELETE FROM moderation_actions", []) } }
        #expect(try moderation.audit(by: .commandLine).items.map(\.reason) == ["Spam"])
    }

    @Test func theAuditPagesAndFiltersBySubject() throws {
        let meetups = try (0..<3).map { try fixture.meetup(title: "M\($0)") }
        for meetup in meetups {
            _ = try moderation.act(ModerationRequest(action: .warn, subjectType: .meetup, subjectID: String(meetup.id), reason: "Warned"),
                                   by: .commandLine)
        }
        let first = try moderation.audit(limit: 2, by: .commandLine)
        #expect(first.items.map(\.subjectID) == [String(meetups[2].id), String(meetups[1].id)])
        let second = try moderation.audit(limit: 2, cursor: first.nextCursor, by: .commandLine)
        #expect(second.items.map(\.subjectID) == [String(meetups[0].id)])
        #expect(second.nextCursor == nil)
        #expect(try moderation.audit(subject: (.meetup, String(meetups[1].id)), by: .commandLine).items.count == 1)
    }
}
