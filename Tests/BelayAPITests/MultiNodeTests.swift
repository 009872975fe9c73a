import BelayCore
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// Two `belay serve` nodes and one `belay worker`, sharing one PostgreSQL database and one
/// data directory, as a club outgrowing one machine runs them: the rules hold across nodes,
/// a node killed mid-traffic loses nothing, and a restarted database server is reconnected to.
@Suite(.serialized, .enabled(if: TestDatabase.isPostgreSQL))
struct MultiNodeTests {
    @Test func twoAPINodesAndAWorkerKeepEveryRuleThroughAKilledNodeAndARestartedServer() throws {
        let cluster = try PostgresCluster()
        try cluster.createDatabase("club")
        let workspace = try ClubWorkspace.served(settings: [
            "database": ["url": cluster.url(database: "club")],
            "render": ["workers": 0],
        ])
        let nodeA = try workspace.serve()
        let nodeB = try workspace.serve()
        let worker = try BelayChildProcess(["worker", "--config", workspace.configPath], environment: ["BELAY_RENDER_WORKERS": "1"],
                                           in: workspace.directory.path)
        defer {
            worker.send(SIGKILL)
            _ = worker.wait()
        }

        let admin = try workspace.user("admin", role: "admin")
        _ = try workspace.user("host1", role: "host")
        let tokensFile = workspace.directory.file("tokens.txt")
        try workspace.cli(["dev", "seed-bench", "--members", "200", "--capacity", "200", "--upcoming", "0", "--tokens", tokensFile])
        let tokens = try String(contentsOfFile: tokensFile, encoding: .utf8).split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(tokens.count == 200)
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Both nodes", "--place", "Seoul Forest",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-60), utcOffsetSeconds: 0),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(3_600), utcOffsetSeconds: 0),
                                        "--capacity", "20", "--host", "host1"])
        let meetupID = try #require(meetup["id"]?.intValue)

        // 200 joins at once, alternating between the two API nodes.
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let node = index % 2 == 0 ? nodeA : nodeB
            let status = (try? node.call("POST", "/v1/meetups/\(meetupID)/join", token: tokens[index]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 201 }, "\(statuses.withLock { $0 }.filter { $0 != 201 })")
        let counts = try nodeB.call("GET", "/v1/meetups/\(meetupID)", token: admin.token)
        #expect(counts["going_count"]?.intValue == 20)
        #expect(counts["waitlist_count"]?.intValue == 180)
        let positions = try cluster.psql("""
            SELECT string_agg(position::text, ',' ORDER BY queue_position) FROM (
                SELECT a.queue_position, (SELECT count(*) FROM attendances w WHERE w.meetup_id = a.meetup_id AND w.status = 'waitlisted'
                                                                                  AND w.queue_position <= a.queue_position) AS position
                FROM attendances a WHERE a.meetup_id = \(meetupID) AND a.status = 'waitlisted') q
            """, database: "club")
        // One place in line each, no gaps, in the order the joins committed.
        #expect(positions == (1...180).map(String.init).joined(separator: ","), "the waitlist is one line")

        // The 20 going members check in over both nodes; node A is killed after the first
        // eight and started again, and the database server restarts after twelve.
        let going = try cluster.psql("""
            SELECT string_agg(t.prefix, ',') FROM attendances a JOIN api_tokens t ON t.user_id = a.member_id
            WHERE a.meetup_id = \(meetupID) AND a.status = 'going'
            """, database: "club").split(separator: ",").map(String.init)
        let goingTokens = tokens.filter { token in going.contains { token.hasPrefix($0) } }
        #expect(goingTokens.count == 20)
        let code = try #require(try nodeB.call("GET", "/v1/meetups/\(meetupID)/check-in-code", token: admin.token)["code"]?.stringValue)
        var nodes = [nodeA, nodeB]
        var acknowledged: [Int64] = []
        for (index, token) in goingTokens.enumerated() {
            if index == 8 {
                nodes[0].send(SIGKILL)
                _ = nodes[0].wait()
                nodes[0] = try workspace.serve()
            }
            if index == 12 { try cluster.restart() }
            let node = nodes[index % 2]
            // Requests in the server's gap are refused with 503 and Retry-After; the node
            // itself is never restarted for it.
            let answer = try #require(try node.poll(timeout: 30) { () -> WireResponse? in
                let response = try node.call("POST", "/v1/meetups/\(meetupID)/check-in", token: token, json: #"{"code": "\#(code)"}"#)
                if response.status == 503 { #expect(response.header("Retry-After") != nil) }
                return response.status == 503 ? nil : response
            })
            #expect(answer.status == 200 || answer.status == 201, "\(answer.response.text)")
            if let reward = answer["reward"]?["id"]?.intValue { acknowledged.append(reward) }
        }
        #expect(acknowledged.count == 20)

        // Every acknowledged check-in has exactly one reward, rendered by the worker, and no job is
        // left. A reward is ready once its sticker is stored and its story follows, so both are
        // waited for.
        let rendered = try nodes[1].poll(timeout: 180) { () -> Bool? in
            let pending = try cluster.psql("SELECT count(*) FROM rewards WHERE meetup_id = \(meetupID) AND render_status <> 'ready'",
                                           database: "club")
            return pending == "0" ? true : nil
        }
        #expect(rendered == true, "every reward rendered")
        let storiesRendered = try nodes[1].poll(timeout: 180) { () -> Bool? in
            let pending = try cluster.psql("SELECT count(*) FROM render_jobs WHERE status IN ('queued', 'running')", database: "club")
            return pending == "0" ? true : nil
        }
        #expect(storiesRendered == true, "every story rendered after its sticker")
        #expect(try cluster.psql("""
            SELECT count(*) FROM attendances a WHERE a.meetup_id = \(meetupID) AND a.status = 'checked_in'
              AND (SELECT count(*) FROM rewards r WHERE r.attendance_id = a.id) = 1
            """, database: "club") == "20")
        for (index, rewardID) in acknowledged.enumerated() {
            let token = goingTokens[index]
            let reward = try nodes[index % 2].call("GET", "/v1/rewards/\(rewardID)", token: token)
            let sticker = try #require(reward["images"]?["sticker"]?["url"]?.stringValue, "\(reward.response.text)")
            let path = URL(string: sticker)?.path ?? sticker
            // Served by the other node than the one asked about the reward: one image directory.
            let image = try nodes[(index + 1) % 2].call("GET", path, token: token)
            #expect(image.status == 200 && image.response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the sticker is a PNG from either node")
        }
        _ = nodes[0].terminate()
        _ = nodes[1].terminate()
    }
}
