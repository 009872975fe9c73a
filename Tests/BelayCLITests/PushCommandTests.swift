import Foundation
import Testing
import BelayStorage
import BelayTestSupport

/// `belay push`, run as an operator would before APNs and FCM are set up.
@Suite struct PushCommandTests {
    @Test func pushCommandsSayWhatIsMissing() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "jisoo", "--name", "Jisoo")

        let unknown = try workspace.run("push", "devices", "nobody")
        #expect(unknown.status == 1)
        #expect(unknown.standardError.hasPrefix("Error: There is no user 'nobody'."), "\(unknown.standardError)")

        let none = try workspace.run("push", "devices", "jisoo")
        #expect(none.status == 0)
        #expect(none.standardOutput.hasPrefix("ID") && none.standardError.contains("jisoo has no registered phone"), "\(none)")
        let listed = try workspace.run("push", "devices", "jisoo", "--json")
        #expect(listed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"items":[]}"#)

        let test = try workspace.run("push", "test", "jisoo")
        #expect(test.status == 1)
        #expect(test.standardError.contains("jisoo has no registered phone"), "\(test.standardError)")

        // A phone registered, but no push service configured: the settings to set are named.
        let database = try workspace.store()
        try database.write { db in
            try db.execute("""
                INSERT INTO devices (user_id, platform, token, app_id, environment, created_at, updated_at)
                SELECT id, 'ios', 'abc123', 'club.belay.app', 'production', 0, 0 FROM users WHERE handle = 'jisoo'
                """, [])
        }
        let unconfigured = try workspace.run("push", "test", "jisoo")
        #expect(unconfigured.status == 1)
        #expect(unconfigured.standardError.contains("push.apns.key_file") && unconfigured.standardError.contains("push.fcm.service_account_file"),
                "\(unconfigured.standardError)")
    }
}
