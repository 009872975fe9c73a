import BelayCore
import BelayHTTP
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `belay serve` killed with SIGKILL while check-ins pour in: after a restart, and the app
/// retrying what got no answer, every checked-in attendance has exactly one reward, every
/// reward has whole images, and no render job is stuck.
@Suite(.serialized) struct ServeCrashTests {
    static let members = 40

    @Test func killedDuringCheckInTrafficNothingIsLostOrDoubled() throws {
        let workspace = try ClubWorkspace.served()
        var server = try workspace.serve()
        let host = try workspace.user("host1", role: "host")
        let handles = (1...Self.members).map { "climber\($0)" }
        var memberIDs: [Int64] = []
        for handle in handles {
            memberIDs.append(try #require(try workspace.cli(["users", "create", handle, "--name", handle])["user"]?["id"]?.intValue))
        }
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Full house", "--place", "더클라임 강남점",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-300), utcOffsetSeconds: 9 * 3600),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 9 * 3600),
                                        "--capacity", "100", "--host", "host1"])
        let meetupID = try #require(meetup["id"]?.intValue)
        try workspace.cli(["attendees", "add", "\(meetupID)"] + handles)

        // Four clients check members in, as the host's app would; the server dies when a
        // third of them have been answered.
        let answered = Answered()
        let port = server.port
        let group = DispatchGroup()
        for slice in 0..<4 {
            group.enter()
            let mine = memberIDs.enumerated().filter { $0.offset % 4 == slice }.map(\.element)
            Thread.detachNewThread {
                defer { group.leave() }
                for member in mine {
                    guard let status = try? Self.checkIn(member, meetup: meetupID, port: port, token: host.token) else { return }
                    answered.record(status)
                }
            }
        }
        #expect(answered.wait(forAtLeast: Self.members / 3, timeout: 120))
        server.send(SIGKILL)
        let killed = server.wait()
        #expect(killed.status == 128 + SIGKILL)
        group.wait()
        let firstAnswers = answered.count
        #expect(firstAnswers < Self.members, "the server died in the middle of the traffic")

        try workspace.store().read { db in
            let checkedIn = try db.scalar("SELECT count(*) FROM attendances WHERE status = 'checked_in'", as: Int.self) ?? 0
            #expect(checkedIn >= firstAnswers)
            #expect(try db.scalar("SELECT count(*) FROM rewards", as: Int.self) == checkedIn, "a check-in and its reward commit together")
            #expect(try db.scalar("SELECT count(*) FROM rewards WHERE render_status = 'pending'", as: Int.self) ?? 0 > 0,
                    "renders were still to do when the server died")
        }

        // Restart; the app retries every check-in it sent (with the same idempotency keys).
        server = try workspace.serve()
        for member in memberIDs {
            let status = try Self.checkIn(member, meetup: meetupID, port: server.port, token: host.token)
            #expect(status == 200 || status == 201)
        }
        let pool = try workspace.store()
        let settled = server.poll(timeout: 300) { () -> Bool? in
            let unfinished = try? pool.read {
                try $0.scalar("SELECT count(*) FROM rewards WHERE render_status != 'ready' OR story_path IS NULL", as: Int.self)
            }
            return unfinished == 0 ? true : nil
        }
        #expect(settled == true, "every reward is rendered after the restart")

        try pool.read { db in
            #expect(try db.scalar("SELECT count(*) FROM attendances WHERE status = 'checked_in'", as: Int.self) == Self.members)
            #expect(try db.scalar("""
                SELECT count(*) FROM attendances a WHERE a.status = 'checked_in'
                  AND (SELECT count(*) FROM rewards r WHERE r.attendance_id = a.id) != 1
                """, as: Int.self) == 0, "exactly one reward per checked-in attendance")
            #expect(try db.scalar("SELECT count(*) FROM render_jobs WHERE status IN ('queued', 'running')", as: Int.self) == 0,
                    "no job is stuck")
            let images = try db.query("SELECT sticker_path, story_path FROM rewards", []) {
                (try $0.get("sticker_path", as: String.self), try $0.get("story_path", as: String.self))
            }
            #expect(images.count == Self.members)
            for (sticker, story) in images {
                let stickerSize = PNGFile.dimensions(atPath: workspace.directory.file("data/" + sticker))
                let storySize = PNGFile.dimensions(atPath: workspace.directory.file("data/" + story))
                #expect(stickerSize?.width == 720 && stickerSize?.height == 960, "\(sticker) is a whole sticker")
                #expect(storySize?.width == 1080 && storySize?.height == 1920, "\(story) is a whole story")
            }
        }
        let stopped = server.terminate()
        #expect(stopped.status == 0, "\(stopped)")
    }

    /// A host checking `member` in; the status code, or a thrown error when the server is gone.
    static func checkIn(_ member: Int64, meetup: Int64, port: Int, token: String) throws -> Int {
        let client = try HTTPTestClient(port: port)
        defer { client.close() }
        return try client.request("POST", "/v1/meetups/\(meetup)/check-in", json: #"{"user_id": \#(member)}"#,
                                  headers: [("Authorization", "Bearer \(token)"), ("Idempotency-Key", "check-in-\(member)")]).status
    }
}

/// Answers the clients got, and a wait for enough of them.
private final class Answered: @unchecked Sendable {
    private let condition = NSCondition()
    private var statuses: [Int] = []

    func record(_ status: Int) {
        condition.lock()
        statuses.append(status)
        condition.broadcast()
        condition.unlock()
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return statuses.count
    }

    func wait(forAtLeast count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while statuses.count < count {
            if !condition.wait(until: deadline) { return statuses.count >= count }
        }
        return true
    }
}
