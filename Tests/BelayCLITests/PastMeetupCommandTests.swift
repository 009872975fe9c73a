import Foundation
import Testing
import BelayTestSupport

/// Bringing last season in on the real binary: a past meetup is refused without `--past`,
/// recorded with it, takes its attendees and their check-in times, and prints as CSV.
@Suite struct PastMeetupCommandTests {
    @Test func recordAPastMeetupItsAttendeesAndExportThemAsCSV() throws {
        let club = try ClubWorkspace()
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

    @Test func importAttendeesFromCSVCheckedAllAtOnceAndIdempotent() throws {
        let club = try ClubWorkspace()
        try club.succeed("migrate")
        try club.succeed("holds", "import")
        try club.succeed("users", "create", "jisoo", "--name", "Jisoo", "--role", "host")
        for handle in ["hana", "jun", "mina"] { try club.succeed("users", "create", handle, "--name", handle.capitalized) }
        let created = try club.run("meetups", "create", "--title", "September", "--place", "Gym", "--starts", "2026-09-04 19:00",
                                   "--ends", "2026-09-04 22:00", "--time-zone", "Asia/Seoul", "--capacity", "10", "--host", "jisoo",
                                   "--past", "--json")
        let id = String(try #require((try JSONSerialization.jsonObject(with: Data(created.standardOutput.utf8)) as? [String: Any])?["id"] as? Int))

        let bad = club.directory.file("bad.csv")
        try "handle,checked_in_at\nhana,2026-09-04 19:10\nnobody,2026-09-04 19:10\njun,yesterday\nmina,2026-09-05 09:00\nhana,\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try club.run("attendees", "import", id, "bad.csv")
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("Nothing was imported: 4 rows are wrong"))
        #expect(refused.standardError.contains("line 3: there is no user 'nobody'"))
        #expect(refused.standardError.contains("line 4: 'yesterday' is not a time"))
        #expect(refused.standardError.contains("line 5: 2026-09-05 09:00 is outside the check-in window"))
        #expect(refused.standardError.contains("line 6: hana is already on line 2"))
        #expect(try #require(try club.json("attendees", "list", id) as? [[String: Any]]).isEmpty, "nothing was written")

        // A spreadsheet's file: byte order mark, CRLF, extra columns, quotes, an attendee who did not check in.
        let good = club.directory.file("season.csv")
        try "\u{FEFF}name,handle,checked_in_at\r\n\"Hana, the crusher\",hana,2026-09-04 19:10\r\nJun,jun,2026-09-04T19:30:00+09:00\r\nMina,mina,\r\n"
            .write(toFile: good, atomically: true, encoding: .utf8)
        let imported = try club.run("attendees", "import", id, "season.csv")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardOutput.contains("hana"))
        #expect(imported.standardError.contains("Imported 3 attendees into meetup \(id) (2 checked in, 3 changed)"))
        let again = try club.run("attendees", "import", id, "season.csv")
        #expect(again.status == 0)
        #expect(again.standardError.contains("(2 checked in, 0 changed)"))
        let rewards = try #require(try club.json("rewards", "list", "--meetup", id) as? [[String: Any]])
        #expect(rewards.count == 2)

        // The export of one meetup imports into another as it is.
        let exported = club.directory.file("export.csv")
        try club.succeed("attendees", "list", id, "--csv").write(toFile: exported, atomically: true, encoding: .utf8)
        let copy = try club.run("meetups", "create", "--title", "September copy", "--place", "Gym", "--starts", "2026-09-04 19:00",
                                "--ends", "2026-09-04 22:00", "--time-zone", "Asia/Seoul", "--capacity", "10", "--host", "jisoo",
                                "--past", "--json")
        let copyID = String(try #require((try JSONSerialization.jsonObject(with: Data(copy.standardOutput.utf8)) as? [String: Any])?["id"] as? Int))
        let roundTrip = try club.run("attendees", "import", copyID, "export.csv")
        #expect(roundTrip.status == 0, "\(roundTrip)")
        let copied = try #require(try club.json("attendees", "list", copyID) as? [[String: Any]])
        #expect(copied.compactMap { $0["status"] as? String } == ["checked_in", "checked_in", "going"])
    }
}
