import BelayCore
import BelayAPI
import BelayHTTP
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing

/// The real server with its database on a disk that fills up: writes are refused with 503
/// `storage_full` and `Retry-After`, the cause is logged once, and writes work again once
/// there is room.
@Suite(.serialized)
struct StorageFullTests {
    @Test(.enabled(if: FullDisk.isAvailable, "needs root to mount a small file system"),
          .enabled(if: !TestDatabase.isPostgreSQL, "fills the disk under SQLite's file"))
    func aFullDiskAnswers503StorageFullAndLogsTheCauseOnce() throws {
        let workspace = try ClubWorkspace.served()
        let databaseDirectory = workspace.directory.file("db")
        try FileManager.default.createDirectory(atPath: databaseDirectory, withIntermediateDirectories: true)
        let disk = try FullDisk(databaseDirectory, size: "16m")
        defer { disk.unmount() }
        disk.makeRoom()
        var file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: workspace.configPath)))
                                as? [String: Any])
        file["database_path"] = databaseDirectory + "/belay.sqlite3"
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: workspace.configPath))

        let server = try workspace.serve()
        let host = try workspace.user("host1", role: "host")
        let (ana, bo) = (try workspace.user("ana"), try workspace.user("bo"))
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Friday bouldering", "--place", "Gym",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-300), utcOffsetSeconds: 0),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(7_200), utcOffsetSeconds: 0),
                                        "--capacity", "5", "--host", "host1"])
        let id = try #require(meetup["id"]?.intValue)
        for member in [ana, bo] { #expect(try server.call("POST", "/v1/meetups/\(id)/join", token: member.token).status == 201) }
        // Empty the write-ahead log, so that the next commit must grow it, then fill the disk.
        let pool = try SQLitePool(path: databaseDirectory + "/belay.sqlite3")
        try pool.writeWithoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        disk.fill()

        var refusals: [WireResponse] = []
        for member in [ana, bo] {
            refusals.append(try server.call("POST", "/v1/meetups/\(id)/check-in", token: host.token, json: #"{"user_id": \#(member.id)}"#))
        }
        refusals.append(try server.call("POST", "/v1/meetups", token: host.token, json: """
            {"title": "Sunday", "place_name": "Crag", "starts_at": "2030-01-06T09:00:00Z", "ends_at": "2030-01-06T12:00:00Z",
             "time_zone": "Europe/Berlin", "capacity": 4}
            """))
        for refusal in refusals {
            #expect(refusal.status == 503, "\(refusal.response.text)")
            #expect(refusal.isProblem)
            #expect(refusal["code"]?.stringValue == "storage_full")
            #expect(refusal["detail"]?.stringValue?.contains("disk is full") == true)
            #expect(refusal.header("Retry-After") == "60")
        }
        // Reads still work.
        #expect(try server.call("GET", "/v1/meetups/\(id)", token: ana.token).status == 200)

        disk.makeRoom()
        let checkIn = try server.call("POST", "/v1/meetups/\(id)/check-in", token: host.token, json: #"{"user_id": \#(ana.id)}"#)
        #expect(checkIn.status == 201, "\(checkIn.response.text)")

        let stopped = server.terminate()
        #expect(stopped.status == 0, "\(stopped)")
        let causes = stopped.standardError.split(separator: "\n").filter { $0.contains("the disk holding the database is full") }
        #expect(causes.count == 1, "\(stopped.standardError)")
        #expect(causes.first?.contains("SQLite error 13") == true, "\(causes)")
        #expect(!stopped.standardError.contains("status=500"), "no refusal was a 500")
    }
}
