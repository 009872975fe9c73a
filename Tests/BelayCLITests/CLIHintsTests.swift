import Foundation
import Testing
import BelayTestSupport

/// What a newcomer typing commands is told: near misses get a suggestion, every command takes `--json`.
@Suite struct CLIHintsTests {
    @Test func aMisspeltTimeZoneGetsADidYouMean() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "setter", "--name", "Setter", "--role", "host")
        let result = try workspace.run("meetups", "create", "--title", "T", "--place", "P", "--starts", "2030-12-05 19:00",
                                       "--ends", "2030-12-05 21:00", "--capacity", "5", "--host", "setter", "--time-zone", "Asia/Seol")
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Error: --time-zone: 'Asia/Seol' is not an IANA time zone such as Asia/Seoul or Europe/Berlin; did you mean 'Asia/Seoul'?"),
                "\(result.standardError)")
    }

    @Test func configShowTakesJSONLikeEveryCommand() throws {
        let workspace = try ClubWorkspace()
        let plain = try workspace.run("config", "show")
        let json = try workspace.run("config", "show", "--json")
        #expect(json.status == 0, "\(json)")
        #expect(json.standardOutput == plain.standardOutput)
        #expect((try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])?["server"] != nil)
    }
}
