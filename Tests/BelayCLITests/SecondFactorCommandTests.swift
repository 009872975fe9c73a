import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// `belay users reset-second-factor`: an admin who lost their phone signs in to the console
/// with the emailed code alone again.
@Suite(.serialized) struct SecondFactorCommandTests {
    @Test func resetRemovesTheAuthenticatorAndItsRecoveryCodes() throws {
        let workspace = try ClubWorkspace()
        try workspace.succeed("migrate")
        try workspace.succeed("users", "create", "minji", "--name", "Minji Park", "--role", "admin", "--email", "minji@example.com")
        let store = try workspace.store()
        let userID: Int64 = try #require(try store.read { db in
            try db.queryOne("SELECT id FROM users WHERE handle = ?", ["minji"]) { try $0.get("id", as: Int64.self) }
        })
        try store.write { db in
            try db.execute("INSERT INTO second_factors (user_id, secret, created_at, confirmed_at, last_used_step) VALUES (?, ?, ?, ?, ?)",
                           [userID, Data(repeating: 7, count: 20), Date(), Date(), Int64(1)])
            try db.execute("INSERT INTO second_factor_recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)",
                           [userID, Data(repeating: 9, count: 32), Date()])
        }

        let reset = try workspace.run("users", "reset-second-factor", "minji", "--reason", "new phone")
        #expect(reset.status == 0, "\(reset.standardError)")
        #expect(reset.standardOutput == "Reset minji's second factor.\n")
        // The reset is in the audit log, by the operator (no moderator), with the reason.
        let logged: [String] = try store.read { db in
            try db.query("SELECT action, subject_type, subject_id, reason, moderator_id IS NULL AS by_operator FROM moderation_actions", []) { row in
                "\(try row.get("action", as: String.self)) \(try row.get("subject_type", as: String.self)) \(try row.get("subject_id", as: String.self)) "
                    + "\(try row.get("reason", as: String.self)) \(try row.get("by_operator", as: Int64.self))"
            }
        }
        #expect(logged == ["reset_second_factor member \(userID) new phone 1"])
        let left: Int64 = try store.read { db in
            try db.queryOne("SELECT (SELECT count(*) FROM second_factors) + (SELECT count(*) FROM second_factor_recovery_codes) AS n", []) {
                try $0.get("n", as: Int64.self)
            } ?? -1
        }
        #expect(left == 0)

        let again = try workspace.run("users", "reset-second-factor", "minji", "--json")
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("\"had_second_factor\" : false"), "\(again.standardOutput)")
        let audited: Int64 = try store.read { db in
            try db.queryOne("SELECT count(*) AS n FROM moderation_actions", []) { try $0.get("n", as: Int64.self) } ?? -1
        }
        #expect(audited == 1, "a reset that removed nothing is not logged")
        #expect(try workspace.run("users", "reset-second-factor", "nobody").status == 1)
    }
}
