import BelayDomain
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// `belay reports` and `belay moderation`, run as the operator would: what they print on
/// standard output and standard error, and how they exit.
@Suite struct ModerationCommandsTests {
    /// A migrated club with a host, two members, a meetup of the host's, and reports of it
    /// and of the host filed as the app files them.
    private func club() throws -> (workspace: ClubWorkspace, domain: DomainServices, meetupID: Int64, hostID: Int64) {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        let host = try workspace.user("jisoo", role: "host")
        let first = try workspace.user("minji")
        let second = try workspace.user("yuna")
        let meetup = try workspace.cli(["meetups", "create", "--title", "Free crypto bouldering", "--place", "Gym",
                                        "--starts", "2030-12-05 19:00", "--ends", "2030-12-05 22:00", "--capacity", "4", "--host", "jisoo"])
        let meetupID = try #require(meetup["id"]?.intValue)
        let domain = try DomainServices(pool: try workspace.store(), settings: BuiltInSettings.domain())
        _ = try domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetupID), reason: .spam, note: "coins"), by: first.id)
        _ = try domain.reports.file(NewReport(subjectType: .meetup, subjectID: String(meetupID), reason: .hate), by: second.id)
        _ = try domain.reports.file(NewReport(subjectType: .member, subjectID: String(host.id), reason: .harassment), by: first.id)
        return (workspace, domain, meetupID, host.id)
    }

    @Test func theQueueIsListedAndShownWithoutReporters() throws {
        let (workspace, _, meetupID, hostID) = try club()
        let listed = try workspace.run("reports", "list")
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.standardOutput.contains("meetup \(meetupID)"))
        #expect(listed.standardOutput.contains("hate 1, spam 1"))
        #expect(listed.standardOutput.contains("member \(hostID)"))
        let shown = try workspace.run("reports", "show", "meetup", String(meetupID))
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.standardOutput.contains("Free crypto bouldering"))
        #expect(shown.standardOutput.contains("coins"))
        #expect(!shown.standardOutput.contains("minji"))
        // A member may be named by handle.
        let member = try workspace.cli(["reports", "show", "member", "jisoo"])
        #expect(member["report_count"]?.intValue == 1)
        #expect(member["snapshot"]?["handle"]?.stringValue == "jisoo")

        let missing = try workspace.run("reports", "show", "meetup", "999")
        #expect(missing.status == 1)
        #expect(missing.standardOutput == "")
        #expect(missing.standardError.hasPrefix("Error: "))
        #expect(missing.standardError.contains("No meetup has id 999"))
        let badType = try workspace.run("reports", "show", "photo", "1")
        #expect(badType.status == 64)
        #expect(badType.standardError.hasPrefix("Error: "))
    }

    @Test func actionsAreLoggedAndCloseTheReports() throws {
        let (workspace, domain, meetupID, hostID) = try club()
        let hidden = try workspace.run("moderation", "hide", "meetup", String(meetupID), "--reason", "Rule 2: no selling")
        #expect(hidden.status == 0, "\(hidden)")
        #expect(hidden.standardOutput == "1\n")
        #expect(hidden.standardError.contains("hide on meetup \(meetupID) logged as entry 1; closed 2 reports."))
        #expect(try domain.meetups.list(MeetupQuery(limit: 10)).items.isEmpty)

        let noReason = try workspace.run("moderation", "dismiss", "member", "jisoo")
        #expect(noReason.status == 64)
        #expect(noReason.standardError.contains("--reason"))

        let until = try workspace.cli(["moderation", "suspend", "member", "jisoo", "--reason", "Rule 1", "--until", "2031-01-01 00:00"])
        #expect(until["action"]?.stringValue == "suspend")
        #expect(until["until"]?.stringValue == "2030-12-31T15:00:00Z")
        #expect(until["subject_id"]?.stringValue == String(hostID))
        #expect(until["report_ids"]?.arrayValue?.count == 1)
        let past = try workspace.run("moderation", "suspend", "member", "jisoo", "--reason", "x", "--until", "2001-01-01 00:00")
        #expect(past.status == 1)
        #expect(past.standardError.contains("A suspension ends in the future"))

        let lifted = try workspace.run("moderation", "lift", "member", "jisoo", "--reason", "Appeal upheld")
        #expect(lifted.status == 0, "\(lifted)")
        let nothing = try workspace.run("moderation", "lift", "member", "jisoo", "--reason", "Again")
        #expect(nothing.status == 1)
        #expect(nothing.standardError.contains("nothing to lift"))

        let log = try workspace.run("moderation", "audit")
        #expect(log.status == 0)
        let lines = log.standardOutput.split(separator: "\n")
        #expect(lines.count == 4, "\(log)")  // the header and three entries, newest first
        #expect(lines.dropFirst().first?.contains("lift") == true)
        #expect(lines.last?.contains("Rule 2: no selling") == true)
        #expect(lines.last?.contains("operator") == true)
    }

    @Test func moderatorsAreNamedAndRevoked() throws {
        let (workspace, domain, _, _) = try club()
        let granted = try workspace.run("moderation", "grant", "yuna")
        #expect(granted.status == 0)
        #expect(granted.standardError.contains("yuna is a moderator"))
        let yuna = try domain.users.user(handle: "yuna")
        #expect(try domain.moderation.isModerator(.user(yuna.id, role: .member)))
        #expect(try workspace.run("moderation", "revoke", "yuna").status == 0)
        #expect(try !domain.moderation.isModerator(.user(yuna.id, role: .member)))
        let nobody = try workspace.run("moderation", "grant", "nobody")
        #expect(nobody.status == 1)
        #expect(nobody.standardError.contains("There is no user 'nobody'"))
    }
}
