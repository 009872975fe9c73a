import Foundation
import Testing
import BelayTestSupport

/// `belay config show|check`, and how every command refuses a bad configuration.
@Suite struct ConfigCommandTests {
    @Test func showPrintsResolvedSettingsThatParseAsJSON() throws {
        let workspace = try ClubWorkspace()
        let output = try workspace.succeed("config", "show")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let resolvedDirectory = URL(fileURLWithPath: workspace.path).standardizedFileURL.path
        #expect(object["data_directory"] as? String == resolvedDirectory + "/data")
        #expect(object["database_path"] as? String == resolvedDirectory + "/data/belay.sqlite3")
        #expect((object["server"] as? [String: Any])?["port"] as? Int == 8080)
    }

    @Test func configFileWorksFromAnyDirectory() throws {
        let workspace = try ClubWorkspace()
        let elsewhere = try TemporaryDirectory()
        let result = try BelayProcess.run(["config", "show", "--config", workspace.directory.file("config.json")], in: elsewhere.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains(URL(fileURLWithPath: workspace.path).standardizedFileURL.path + "/data/belay.sqlite3"))
    }

    @Test func environmentOverridesAreApplied() throws {
        let workspace = try ClubWorkspace()
        workspace.environment = ["BELAY_SERVER_PORT": "9000", "BELAY_SHARE_INSTAGRAM_APP_ID": "4242"]
        let output = try workspace.succeed("config", "show")
        #expect(output.contains("\"port\": 9000"))
        #expect(output.contains("\"instagram_app_id\": \"4242\""))
    }

    @Test func checkSaysOkForAValidConfiguration() throws {
        let result = try ClubWorkspace().run("config", "check")
        #expect(result.status == 0)
        #expect(result.standardOutput == "ok\n")
    }

    @Test func checkWarnsWhatSharingInPublicStillNeeds() throws {
        let plain = try ClubWorkspace(settingsJSON: #""server": {"public_base_url": "http://belay.example"}"#).run("config", "check")
        #expect(plain.status == 0)
        #expect(plain.standardOutput == "ok\n")
        #expect(plain.standardError.contains("warning: server.public_base_url (http://belay.example) is not https"))
        #expect(plain.standardError.contains("warning: app_links.ios_app_ids is empty"))
        #expect(plain.standardError.contains("warning: app_links.android_package and app_links.android_sha256_fingerprints not set"))

        let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")
        let ready = try ClubWorkspace(settingsJSON: """
            "server": {"public_base_url": "https://belay.example"},
            "app_links": {"ios_app_ids": "A1B2C3D4E5.club.belay.app", "android_package": "club.belay.app", "android_sha256_fingerprints": "\(fingerprint)"}
            """).run("config", "check")
        #expect(ready.status == 0)
        #expect(!ready.standardError.contains("warning"))

        let wrong = try ClubWorkspace(settingsJSON: #""app_links": {"ios_app_ids": "club.belay.app"}"#).run("config", "check")
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("app_links.ios_app_ids: \"club.belay.app\" is not an app id TEAMID.bundle.id"))
    }

    @Test func impossibleValueIsRefusedNamingTheKey() throws {
        let workspace = try ClubWorkspace(settingsJSON: #""server": {"port": 70000}"#)
        let result = try workspace.run("config", "check")
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Error: config.json: server.port: 70000 is not a port (1–65535, or 0 for any free port)\n"))
        // Every command that needs the configuration refuses it the same way.
        let migrate = try workspace.run("migrate")
        #expect(migrate.status == 1)
        #expect(migrate.standardError.hasPrefix("Error: config.json: server.port: 70000 is not a port"))
    }

    @Test func aLibpqKeywordStringIsRefusedNamingTheURLFormAndItsPasswordNeverShown() throws {
        let workspace = try ClubWorkspace(settingsJSON: #""database": {"url": "host=db.example user=belay password=s3cret-pw dbname=belay"}"#)
        for command in [["config", "show"], ["config", "check"], ["migrate"]] {
            let result = try workspace.run(command)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.standardError.contains("database.url: \"host=db.example user=belay password=*** dbname=belay\" is a libpq keyword string"), "\(result)")
            #expect(result.standardError.contains("postgresql://USER:PASSWORD@HOST:5432/DBNAME"), "\(result)")
            #expect(!result.standardOutput.contains("s3cret-pw") && !result.standardError.contains("s3cret-pw"), "\(command) shows the password")
        }
    }

    @Test func everyProblemGetsItsOwnErrorLineThenWhatToDo() throws {
        let workspace = try ClubWorkspace(settingsJSON: #""server": {"port": 70000, "max_connections": -1}"#)
        let migrate = try workspace.run("migrate")
        #expect(migrate.status == 1)
        let lines = migrate.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "\(migrate)")
        #expect(lines.prefix(2).allSatisfy { $0.hasPrefix("Error: config.json: ") })
        #expect(lines[2] == "Fix the configuration and run the command again (`belay config check` shows every problem at once).")
    }

    @Test func unknownKeyIsRefusedWithASuggestion() throws {
        let result = try ClubWorkspace(settingsJSON: #""club": {"timezone": "Asia/Seoul"}"#).run("config", "check")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix(#"Error: config.json: club.timezone: unknown key; did you mean "club.time_zone"?"#))
    }

    @Test func wrongTypeIsRefusedNamingTheKey() throws {
        let result = try ClubWorkspace(settingsJSON: #""render": {"workers": "2"}"#).run("config", "check")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix(#"Error: config.json: render.workers: expected an integer, found the string "2" (write it without quotes)"#))
    }

    @Test func badEnvironmentVariableIsRefusedNamingIt() throws {
        let workspace = try ClubWorkspace()
        workspace.environment = ["BELAY_CHECK_IN_CODE_STEP_SECONDS": "90"]
        let result = try workspace.run("config", "check")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Error: BELAY_CHECK_IN_CODE_STEP_SECONDS: check_in.code_step_seconds: 90 seconds is outside 30–60"))
    }

    @Test func missingConfigFileIsNamed() throws {
        let result = try ClubWorkspace().run("config", "check", "--config", "nope.json")
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Error: nope.json: no such file"))
    }
}
