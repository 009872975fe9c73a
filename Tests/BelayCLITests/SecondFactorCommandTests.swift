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

        let reset = try workspace.run("users", "reset-second-factor", "minji")
        #expect(reset.status == 0, "\(reset.standardError)")
        #expect(reset.standardOutput == "Reset minji's second factor.\n")
        let left: Int64 = try store.read { db in
            try db.queryOne("SELECT (SELECT count(*) FROM second_factors) + (SELECT count(*) FROM second_factor_recovery_codes) AS n", []) {
                try $0.get("n", as: Int64.self)
            } ?? -1
        }
        #expect(left == 0)

        let again = try workspace.run("users", "reset-second-factor", "minji", "--json")
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("\"had_second_factor\" : false"), "\(again.standardOutput)")
        #expect(try workspace.run("users", "reset-second-factor", "nobody").status == 1)
    }
}
