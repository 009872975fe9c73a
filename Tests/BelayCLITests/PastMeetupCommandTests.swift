import Foundation
import Testing
import BelayTestSupport

/// Bringing last season in on the real binary: a past meetup is refused without `--past`,
/// recorded with it, takes its attendees and their check-in times, and prints as CSV.
@Suite struct PastMeetupCommandTests {
    @Test func recordAPastMeetupItsAttendeesAndExportThemAsCSV() throws {
        let club = try CLIWorkspace()
        try club.succeed("migrate")
        try club.succeed("holds", "import")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        try club.succeed("users", "create", "hana", "--name", "Hana, \"the crusher\"")
        try club.succeed("users", "create", "jun", "--name", "=HYPERLINK(\"x\")")
        try club.succeed("users", "create", "mina", "--name", "Mina")
        let arguments = ["meetups", "create", "--title", "October night", "--place", "Seoul Forest Gym", "--starts", "2026-10-02 19:00",
                         "--ends", "2026-10-02 22:00", "--time-zone", "Asia/Seoul", "--capacity", "10", "--host", "jisoo"]

        let refused = try club.run(arguments)
        #expect(refused.status == 1)
        #expect(refused.standardOutput == "")
        #expect(refused.standardError.contains("which is in the past"))
        #expect(refused.standardError.contains("--past (CLI)"))

        let recorded = try club.run(arguments + ["--past", "--json"])
        #expect(recorded.status == 0, "\(recorded)")
        let meetup = try #require(try JSONSerialization.jsonObject(with: Data(recorded.standardOutput.utf8)) as? [String: Any])
        #expect(meetup["status"] as? String == "completed")
        let id = String(try #require(meetup["id"] as? Int))

        try club.succeed("attendees", "add", id, "hana", "jun", "mina")
        let checkedIn = try club.run("attendees", "check-in", id, "hana", "--at", "2026-10-02 19:20")
        #expect(checkedIn.status == 0, "\(checkedIn)")
        try club.succeed("attendees", "check-in", id, "jun", "--at", "2026-10-02T19:45:00+09:00")

        let csv = try club.run("attendees", "list", id, "--csv")
        #expect(csv.status == 0)
        let lines = csv.standardOutput.components(separatedBy: "\r\n")
        #expect(lines.first == "handle,display_name,status,waitlist_position,joined_at,checked_in_at,check_in_method")
        #expect(lines.count == 5 && lines.last == "", "three rows, each ended by CRLF")
        #expect(lines[1].hasPrefix(#"hana,"Hana, ""the crusher""",checked_in,,"#))
        #expect(lines[1].hasSuffix(",2026-10-02T19:20:00+09:00,offline"))
        #expect(lines[2].hasPrefix(#"jun,"'=HYPERLINK(""x"")",checked_in,,"#), "a formula is neutralised")
        #expect(lines[3].hasPrefix("mina,Mina,going,,"))
        #expect(lines[3].hasSuffix(",,"))
        let both = try club.run("attendees", "list", id, "--csv", "--json")
        #expect(both.status == 64)

        // The backfill has nothing left to award: the check-ins earned their holds at once.
        let rewards = try #require(try club.json("rewards", "list", "--meetup", id) as? [[String: Any]])
        #expect(rewards.count == 2)
    }
}
