import Foundation
import Testing
import BelayTestSupport

/// Streak milestones on the command line: the catalogue says which streak a hold is for, and
/// the rewards list says which reward a streak earned.
@Suite struct StreakMilestoneCommandTests {
    @Test func theCatalogueAndTheRewardsListNameTheStreak() throws {
        let workspace = try ClubWorkspace(settingsJSON: #""rewards": {"streak_milestones": {"2": "sloper-emerald"}}"#)
        try workspace.succeed("migrate")
        try workspace.succeed("holds", "import")
        let holds = try workspace.run("holds", "list")
        #expect(holds.status == 0)
        #expect(holds.standardOutput.split(separator: "\n").contains { $0.hasPrefix("sloper-emerald") && $0.hasSuffix("(streak of 2 weeks)") },
                "\(holds.standardOutput)")
        // Three weekly meetups: the second week in a row earns the streak hold.
        try workspace.succeed("dev", "seed-history", "--meetups", "3", "--members", "1", "--start", "2026-11-02")
        try workspace.succeed("backfill")
        let member = try #require(try workspace.run("users", "list").standardOutput.split(separator: "\n")
            .first { $0.contains("member") }?.split(separator: " ").dropFirst().first.map(String.init))
        let rewards = try workspace.run("rewards", "list", "--member", member)
        #expect(rewards.status == 0, "\(rewards)")
        let lines = rewards.standardOutput.split(separator: "\n")
        #expect(lines.filter { $0.contains("Emerald Sloper") && $0.contains("streak of 2 weeks") }.count == 1, "\(rewards.standardOutput)")
        #expect(lines.filter { $0.contains("milestone #1") }.count == 1)
    }
}
