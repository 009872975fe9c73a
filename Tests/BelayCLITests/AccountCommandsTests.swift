import Foundation
import Testing
import BelaySQLite
import BelayStorage
import BelayTestSupport

/// `belay users delete` and `belay invites`, run as an admin would.
@Suite struct AccountCommandsTests {
    private func club() throws -> ClubWorkspace {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        return workspace
    }

    @Test func deletingAUserLeavesATombstoneAndStopsTheirTokens() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo Kim", "--email", "jisoo@example.com", "--token")
        // Irreversible: the handle must be typed (here on standard input), else nothing happens.
        let unconfirmed = try workspace.run("users", "delete", "jisoo")
        #expect(unconfirmed.status == 1, "\(unconfirmed)")
        #expect(unconfirmed.standardOutput == "")
        #expect(unconfirmed.standardError.hasPrefix("Error: Nothing was deleted: `belay users delete` asks you to type the handle to confirm"), "\(unconfirmed)")
        #expect(unconfirmed.standardError.contains("--yes"))
        let mistyped = try workspace.run(["users", "delete", "jisoo"], input: "jiso\n")
        #expect(mistyped.status == 1)
        #expect(mistyped.standardError.hasPrefix("Error: Nothing was deleted: 'jiso' was typed, not the handle 'jisoo'."), "\(mistyped)")
        #expect(try workspace.run("users", "list").standardOutput.contains("jisoo"), "still there")
        let deleted = try workspace.run(["users", "delete", "jisoo"], input: "jisoo\n")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.standardOutput == "Deleted jisoo (user 1, now deleted-1).\n")
        #expect(deleted.standardError.contains("attendance stays, anonymous"))
        let users = try #require(try workspace.json("users", "list") as? [[String: Any]])
        #expect(users.first?["handle"] as? String == "deleted-1")
        #expect(users.first?["display_name"] as? String == "Deleted member")
        #expect(users.first?["email"] == nil || users.first?["email"] is NSNull)

        let again = try workspace.run("users", "delete", "jisoo", "--yes")
        #expect(again.status == 1)
        #expect(again.standardOutput == "")
        #expect(again.standardError.hasPrefix("Error: There is no user 'jisoo'. Run `belay users list`"))
        let missing = try workspace.run("users", "delete")
        #expect(missing.status == 64)
        #expect(missing.standardError.hasPrefix("Error: "))
    }

    @Test func yesDeletesWithoutAsking() throws {
        let workspace = try club()
        try workspace.succeed("users", "create", "minji", "--name", "Minji Park")
        let deleted = try workspace.run("users", "delete", "minji", "--yes")
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.standardOutput == "Deleted minji (user 1, now deleted-1).\n")
        #expect(!deleted.standardError.contains("Type the handle"))
    }

    @Test func invitesAreMadeListedAndRevoked() throws {
        let workspace = try club()
        let made = try workspace.run("invites", "create", "--uses", "20", "--days", "14")
        #expect(made.status == 0, "\(made)")
        let code = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code.count == 10)
        #expect(made.standardError.contains("admits 20 people"))
        #expect(made.standardError.contains("/invite/\(code)"))
        let listed = try #require(try workspace.json("invites", "list") as? [String: Any])
        let items = try #require(listed["items"] as? [[String: Any]])
        #expect(items.first?["code"] as? String == code)
        #expect(items.first?["usable"] as? Bool == true)
        let table = try workspace.run("invites", "list")
        #expect(table.standardOutput.contains("0/20"))
        #expect(table.standardOutput.contains("usable"))
        let revoked = try workspace.run("invites", "revoke", "1")
        #expect(revoked.status == 0)
        #expect(try workspace.run("invites", "list").standardOutput.contains("revoked"))
        let unknown = try workspace.run("invites", "revoke", "99")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("No invite of yours has id 99"))
        let badDays = try workspace.run("invites", "create", "--days", "400")
        #expect(badDays.status == 64)
        #expect(badDays.standardError.hasPrefix("Error: --days must be 1 to 365 (got 400)."))
    }
}

/// `belay calendar rotate-secret` changes every member's feed URL.
@Suite struct CalendarCommandTests {
    @Test func rotatingTheSecretChangesEveryFeedURL() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        let before = try workspace.store().read { try $0.scalar("SELECT secret FROM calendar_feed_secret", as: Data.self) }
        let rotated = try workspace.run("calendar", "rotate-secret")
        #expect(rotated.status == 0, "\(rotated)")
        #expect(rotated.standardOutput == "rotated\n")
        #expect(rotated.standardError.contains("Every member's calendar feed URL has changed"))
        let after = try workspace.store().read { try $0.scalar("SELECT secret FROM calendar_feed_secret", as: Data.self) }
        #expect(before != nil && after != nil && before != after)
    }
}
