import Foundation
import Testing
import BelayDomain
import BelaySQLite
import BelayStorage
import BelayTestSupport

/// An admin runs a whole meetup from the command line: users and tokens, the meetup, members
/// joining past capacity, the waitlist promoting, check-ins (by code, by the host, offline),
/// rewards, an undone check-in, share statistics and a backup.
@Suite struct MeetupWalkthroughTests {
    private static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    @Test func adminRunsAWholeMeetup() throws {
        let club = try ClubWorkspace()
        try club.succeed("migrate")
        try club.succeed("holds", "import")

        // People.
        let host = try #require(try club.json("users", "create", "jisoo", "--name", "Jisoo Kim", "--role", "host", "--token") as? [String: Any])
        #expect(((host["token"] as? [String: Any])?["secret"] as? String)?.hasPrefix("belay_") == true)
        for (handle, name) in [("minji", "Minji Park"), ("dahye", "Dahye Lee"), ("jun", "Jun Choi"), ("hana", "Hana Yoon")] {
            try club.succeed("users", "create", handle, "--name", name)
        }

        // A meetup that has just opened for check-in: it starts in 10 minutes, capacity 2.
        let start = Date().addingTimeInterval(10 * 60)
        let meetup = try #require(try club.json("meetups", "create", "--title", "Friday bouldering", "--place", "The Cliff",
                                                "--starts", Self.rfc3339(start), "--ends", Self.rfc3339(start.addingTimeInterval(3 * 3600)),
                                                "--capacity", "2", "--host", "jisoo") as? [String: Any])
        let id = String(try #require(meetup["id"] as? Int))

        // The front desk's screen: a link for the tablet, and turning it off.
        let kiosk = try #require(try club.json("meetups", "kiosk", id) as? [String: Any])
        #expect((kiosk["url"] as? String)?.hasPrefix("http://127.0.0.1:8080/k/") == true)
        #expect(try club.run("meetups", "kiosk", id).standardError.contains("Put this link on the front desk tablet"))
        #expect(try club.succeed("meetups", "kiosk", id, "--revoke") == "\(id)  2 kiosk links revoked\n")

        // Four join; two go, two wait in order.
        let added = try club.run("attendees", "add", id, "minji", "dahye", "jun", "hana")
        #expect(added.status == 0, "\(added)")
        #expect(added.standardOutput == """
            HANDLE  STATUS         CHANGE
            minji   going          added
            dahye   going          added
            jun     waitlisted #1  added
            hana    waitlisted #2  added

            """)

        // Minji leaves: Jun, first in line, is promoted in the same step.
        let removed = try club.run("attendees", "remove", id, "minji")
        #expect(removed.status == 0, "\(removed)")
        #expect(removed.standardOutput.contains("minji   cancelled  removed\n"))
        #expect(removed.standardOutput.contains("jun     going      promoted from the waitlist\n"))

        // Raising the capacity promotes Hana.
        let raised = try #require(try club.json("meetups", "update", id, "--capacity", "3") as? [String: Any])
        #expect(raised["going_count"] as? Int == 3)
        #expect(raised["waitlist_count"] as? Int == 0)
        let attendees = try #require(try club.json("attendees", "list", id) as? [[String: Any]])
        #expect(attendees.map { "\($0["handle"] ?? "?"):\($0["status"] ?? "?")" } == ["minji:cancelled", "dahye:going", "jun:going", "hana:going"])

        // Dahye checks in with the code on the host's screen.
        let code = try club.succeed("meetups", "code", id).trimmingCharacters(in: .newlines)
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let byCode = try #require(try club.json("attendees", "check-in", id, "dahye", "--code", code) as? [String: Any])
        #expect((byCode["attendance"] as? [String: Any])?["check_in_method"] as? String == "code")
        let dahyeReward = try #require(byCode["reward"] as? [String: Any])
        #expect((dahyeReward["hold"] as? [String: Any])?["id"] as? String == "jug-gold", "a member's first check-in is milestone 1")
        #expect(dahyeReward["milestone"] as? Int == 1)

        // The host checks Jun in; an offline check-in is recorded for Hana a minute ago.
        let byHost = try club.run("attendees", "check-in", id, "jun")
        #expect(byHost.status == 0, "\(byHost)")
        #expect(byHost.standardOutput.contains("jun     checked_in"))
        let offline = try #require(try club.json("attendees", "check-in", id, "hana", "--at", Self.rfc3339(Date().addingTimeInterval(-60))) as? [String: Any])
        #expect((offline["attendance"] as? [String: Any])?["check_in_method"] as? String == "offline")

        // Checking in twice changes nothing; refusals carry their reason.
        let repeated = try club.run("attendees", "check-in", id, "jun", "--json")
        #expect(repeated.status == 0, "\(repeated)")
        #expect(repeated.standardError.contains("jun was already checked in; nothing changed."))
        let repeatedBody = try #require(try JSONSerialization.jsonObject(with: Data(repeated.standardOutput.utf8)) as? [String: Any])
        #expect((repeatedBody["attendance"] as? [String: Any])?["check_in_method"] as? String == "host", "the first check-in's result")
        let left = try club.run("attendees", "check-in", id, "minji")
        #expect(left.status == 1)
        #expect(left.standardError.contains("[already_cancelled]"))
        let wrongCode = try club.run("attendees", "check-in", id, "minji", "--code", "000000")
        #expect(wrongCode.status == 1)

        // Rewards of the meetup.
        let rewards = try #require(try club.json("rewards", "list", "--meetup", id) as? [[String: Any]])
        let userIDs = try #require(try club.json("users", "list") as? [[String: Any]])
            .reduce(into: [Int: String]()) { ids, user in ids[user["id"] as? Int ?? 0] = user["handle"] as? String }
        #expect(Set(rewards.compactMap { userIDs[$0["user_id"] as? Int ?? 0] }) == ["dahye", "jun", "hana"])
        #expect(rewards.allSatisfy { $0["render_status"] as? String == "pending" })
        let junReward = try #require(rewards.first { userIDs[$0["user_id"] as? Int ?? 0] == "jun" })

        // The host undoes Jun's check-in: the reward is revoked, not deleted.
        #expect(try club.succeed("attendees", "undo-check-in", id, "jun") == "Undid jun's check-in at meetup \(id): jun is going again and their reward is revoked.\n")
        let active = try #require(try club.json("rewards", "list", "--meetup", id) as? [[String: Any]])
        #expect(active.count == 2)
        let all = try #require(try club.json("rewards", "list", "--meetup", id, "--revoked") as? [[String: Any]])
        #expect(all.first { $0["id"] as? Int == junReward["id"] as? Int }?["revoked_at"] is String)

        // The app shares Dahye's sticker twice (one dismissed sheet) and reports it.
        let rewardID = try #require(dahyeReward["id"] as? Int)
        let memberID = try #require(dahyeReward["user_id"] as? Int)
        let domain = try DomainServices(pool: try club.store(), settings: BuiltInSettings.domain())
        _ = try domain.shares.record(NewShareEvent(rewardID: Int64(rewardID), target: "instagram_stories", activityType: nil,
                                                   completed: true, clientEventID: "e1"), by: .user(Int64(memberID), role: .member))
        _ = try domain.shares.record(NewShareEvent(rewardID: Int64(rewardID), target: nil, activityType: nil,
                                                   completed: false, clientEventID: "e2"), by: .user(Int64(memberID), role: .member))
        let stats = try #require(try club.json("stats", "shares", "--meetup", id, "--by", "target") as? [[String: Any]])
        #expect(stats.count == 2)
        let instagram = try #require(stats.first { $0["target"] as? String == "instagram_stories" })
        #expect(instagram["events"] as? Int == 1)
        #expect(instagram["completed"] as? Int == 1)
        #expect(instagram["meetup_id"] == nil && instagram["day"] == nil, "--by target sums over meetups and days")
        let byDay = try #require(try club.json("stats", "shares", "--by", "day") as? [[String: Any]])
        #expect(byDay.count == 1)
        #expect(byDay.first?["events"] as? Int == 2)
        #expect(byDay.first?["day"] is String && byDay.first?["target"] == nil && byDay.first?["meetup_id"] == nil)
        let byMeetup = try #require(try club.json("stats", "shares", "--by", "meetup") as? [[String: Any]])
        #expect(byMeetup.count == 1)
        #expect(byMeetup.first?["meetup_id"] as? Int == Int(id) && byMeetup.first?["target"] == nil && byMeetup.first?["day"] == nil)
        let dayTable = try club.succeed("stats", "shares", "--by", "day").split(separator: "\n")
        #expect(dayTable.first?.hasPrefix("DAY ") == true)
        #expect(dayTable.count == 2)
        let table = try club.succeed("stats", "shares")
        let rows = table.split(separator: "\n").map(String.init)
        #expect(rows.count == 3)
        #expect(rows[0].hasPrefix("MEETUP ") && rows[0].hasSuffix("TARGET             EVENTS  COMPLETED  FAILED  DISMISSED"))
        #expect(rows.contains { $0.hasPrefix("\(id) Friday bouldering") && $0.hasSuffix("instagram_stories  1       1          0       0") })
        #expect(rows.contains { $0.hasSuffix("other              1       0          0       1") })

        // The database is sound and can be backed up while in use (a file's; PostgreSQL's own
        // tools do it for a server's).
        if !TestDatabase.isPostgreSQL {
            #expect(try club.succeed("db", "check") == "ok\n")
            try club.succeed("db", "backup", "backup.sqlite3")
        }

        // Cancelling the meetup cancels what is left.
        try club.succeed("meetups", "cancel", id)
        let after = try #require(try club.json("meetups", "show", id) as? [String: Any])
        #expect(after["status"] as? String == "cancelled")
    }
}
