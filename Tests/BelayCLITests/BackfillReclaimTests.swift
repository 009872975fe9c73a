import Foundation
import Testing
import BelayPipeline
import BelaySQLite
import BelayStorage
import BelayTestSupport

/// Render jobs left `running` by a process that died are taken back at once; jobs another
/// live worker holds are skipped, and the backfill says so.
@Suite(.serialized)
struct BackfillReclaimTests {
    @Test func aDeadProcessesJobIsTakenBackAndALiveWorkersJobIsReportedAsSkipped() throws {
        let club = try HistoricalClub(meetups: 1, members: 3)
        try club.workspace.succeed("backfill")
        // A server on this host killed by SIGKILL and not yet reaped (a zombie: `kill(pid, 0)`
        // still finds it) left a re-render running; a worker on another host holds another.
        let dead = try UnreapedProcess()
        #expect(dead.isZombie)
        let deadOwner = "\(WorkerIdentity.current.host):\(dead.pid):render-0"
        let now = Date()
        let leaseEnd = now.addingTimeInterval(3_600)
        let pool = try SQLitePool(path: club.workspace.databasePath)
        try pool.write { db in
            for (reward, owner) in [(1, deadOwner), (2, "another-host:4242:render-0")] as [(Int64, String)] {
                try db.execute("""
                    INSERT INTO render_jobs (reward_id, reason, status, attempts, available_at, lease_owner, lease_expires_at,
                                             created_at, updated_at)
                    VALUES (?, 'rerender', 'running', 1, ?, ?, ?, ?, ?)
                    """, [reward, now, owner, leaseEnd, now, now])
            }
        }

        let result = try club.workspace.run("backfill")
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("taken back from a dead process") && $0.hasSuffix(" 1") }, "\(result.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("running elsewhere (skipped)") && $0.contains(" 1 (lease until ") },
                "\(result.standardOutput)")
        #expect(result.standardError.contains("Took back 1 render job left running by a process on this host that is gone."))
        #expect(result.standardError.contains("Skipped 1 render job held by another running worker (its lease lasts until "))
        #expect(result.standardError.contains("a later backfill takes them once the lease runs out."))

        let statuses = try pool.read { db in
            try db.query("SELECT reward_id, status FROM render_jobs WHERE reason = 'rerender' ORDER BY reward_id", []) {
                "\(try $0.get("reward_id", as: Int64.self)):\(try $0.get("status", as: String.self))"
            }
        }
        #expect(statuses == ["1:done", "2:running"], "the dead process's job did not wait out its hour-long lease")

        let again = try #require(try club.workspace.json("backfill") as? [String: Any])
        #expect(again["reclaimed"] as? Int == 0)
        #expect(again["running_elsewhere"] as? Int == 1)
        #expect(again["running_elsewhere_until"] is String)
    }
}
