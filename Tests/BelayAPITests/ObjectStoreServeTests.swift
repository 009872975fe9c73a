import BelayComposition
import BelayConfig
import BelayCore
import BelayTestSupport
import Synchronization
import Foundation
import Testing

/// `belay serve` with `images.store = s3` against an S3 server on loopback started by the
/// tests (moto, signatures checked): renders land in the bucket with their type, cache policy
/// and checksum, image requests redirect to a presigned URL a plain client can fetch (or are
/// sent through), ETags and 304 stay, and a bad key or bucket stops the start naming the setting.
@Suite(.serialized) struct ObjectStoreServeTests {
    private static let started = Result { try S3ServerProcess() }

    /// A served club whose images go to a fresh prefix of the loopback bucket.
    static func club(prefix: String, secret: String? = nil, bucket: String? = nil, s3: [String: Any] = [:],
                     images: [String: Any] = [:]) throws -> ClubWorkspace {
        let store = try started.get()
        let workspace = try ClubWorkspace.served()
        let secretFile = workspace.directory.file("s3-secret")
        try (secret ?? store.secretAccessKey).write(toFile: secretFile, atomically: true, encoding: .utf8)
        let settings: [String: Any] = [
            "endpoint": store.endpoint, "bucket": bucket ?? store.bucket, "region": store.region, "prefix": prefix,
            "access_key_id": store.accessKeyID, "secret_access_key_file": secretFile, "path_style": 1,
        ]
        let section: [String: Any] = ["store": "s3", "s3": settings.merging(s3) { $1 }]
        try workspace.rewriteConfig(adding: ["images": section.merging(images) { $1 }])
        return workspace
    }

    @Test func rendersLandInTheBucketAndImageRequestsRedirectToAWorkingPresignedURL() throws {
        let store = try Self.started.get()
        let prefix = "club-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix)
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        let (ana, _, reward) = try workspace.renderedReward(on: server, place: "Seoul Forest")
        let rewardID = try #require(reward["id"]?.intValue)
        let stickerHash = try #require(reward["images"]?["sticker"]?["hash"]?.stringValue)
        let path = "/v1/rewards/\(rewardID)/sticker/\(stickerHash).png"

        let redirect = try server.call("GET", path, token: ana.token)
        #expect(redirect.status == 302)
        #expect(redirect.header("ETag") == "\"\(stickerHash)\"")
        let location = try #require(redirect.header("Location"))
        #expect(location.hasPrefix("\(store.endpoint)/\(store.bucket)/\(prefix)images/\(stickerHash.prefix(2))/\(stickerHash).png?"))
        #expect(location.contains("X-Amz-Signature="))
        let fetched = try S3ServerProcess.fetch(location)
        #expect(fetched.status == 200)
        #expect(fetched.contentType == "image/png")
        let file = workspace.directory.file("sticker.png")
        try Data(fetched.body).write(to: URL(fileURLWithPath: file))
        let size = try #require(PNGFile.dimensions(atPath: file), "the bucket's sticker is not a complete PNG")
        #expect(size.width == 720 && size.height == 960)
        #expect(Crypto.hex(Crypto.sha256(fetched.body)) != "")

        let unchanged = try server.call("GET", path, token: ana.token, headers: [("If-None-Match", "\"\(stickerHash)\"")])
        #expect(unchanged.status == 304)

        // boto3 finds every object Belay wrote, whole, typed and cacheable for ever; none on this node's disk.
        let objects = try #require(try server.poll(timeout: 60) { () -> [S3ServerProcess.ObjectReadBack]? in
            let objects = try store.readBack(prefix: prefix)
            return objects.count >= 2 ? objects : nil
        }, "the story did not reach the bucket")
        #expect(objects.contains { $0.key == "\(prefix)images/\(stickerHash.prefix(2))/\(stickerHash).png" && $0.sha256 == Crypto.hex(Crypto.sha256(fetched.body)) })
        for object in objects {
            #expect(object.cacheControl == "public, max-age=31536000, immutable", "\(object.key)")
            #expect(object.contentType == "image/png", "\(object.key)")
            #expect(object.size > 0)
        }
        let localImages = workspace.directory.file("data/images")
        let files = (FileManager.default.enumerator(atPath: localImages)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".png") }
        #expect(files.isEmpty, "images were written to the data directory too: \(files)")

        let ready = try server.call("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.response.text.contains("image_store"))
    }

    @Test func withProxyTheImageIsSentThroughAndAPublicBaseURLIsRedirectedTo() throws {
        let prefix = "proxy-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix, s3: ["proxy": 1])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        let (ana, _, reward) = try workspace.renderedReward(on: server, place: "Bukhansan")
        let rewardID = try #require(reward["id"]?.intValue)
        let stickerHash = try #require(reward["images"]?["sticker"]?["hash"]?.stringValue)
        let sent = try server.call("GET", "/v1/rewards/\(rewardID)/sticker/\(stickerHash).png", token: ana.token)
        #expect(sent.status == 200)
        #expect(sent.header("Content-Type") == "image/png")
        #expect(sent.header("Cache-Control") == "private, max-age=31536000, immutable")
        #expect(Crypto.hex(Crypto.sha256(sent.response.body)).count == 64)
        let stored = try Self.started.get().readBack(prefix: prefix)
        #expect(stored.contains { $0.sha256 == Crypto.hex(Crypto.sha256(sent.response.body)) })
        _ = server.terminate()

        try workspace.rewriteConfig(adding: ["images": ["public_base_url": "https://cdn.club.example/"]])
        let again = try workspace.serve()
        defer { _ = again.terminate() }
        let redirect = try again.call("GET", "/v1/rewards/\(rewardID)/sticker/\(stickerHash).png", token: ana.token)
        #expect(redirect.status == 302)
        #expect(redirect.header("Location") == "https://cdn.club.example/\(prefix)images/\(stickerHash.prefix(2))/\(stickerHash).png")
    }

    @Test func aBucketThatIsDownMakesRendersWaitNotFailAndReadyzSaysSo() throws {
        let store = try Self.started.get()
        let proxy = try S3FaultProxyProcess(upstreamPort: store.port)
        let prefix = "outage-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix, s3: ["endpoint": proxy.endpoint, "max_attempts": 2])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        try proxy.plan(.slowdown, count: -1)
        let ready = try server.call("GET", "/readyz")
        #expect(ready.response.text.contains("image_store"))
        #expect(ready.response.text.contains("unreachable"), "\(ready.response.text)")
        // The store comes back a few seconds after the check-in; the render waits for it.
        DispatchQueue.global().asyncAfter(deadline: .now() + 4) { try? proxy.clear() }
        let (_, admin, reward) = try workspace.renderedReward(on: server, place: "Outage Gym")
        #expect(reward["render_status"]?.stringValue == "ready")
        #expect(try proxy.stats().injected > 0)
        let metrics = try server.call("GET", "/metrics", token: admin.token).response.text
        #expect(metrics.contains("belay_object_store_errors_total{code=\"503\"}"), "\(metrics.prefix(300))")
        #expect(try store.readBack(prefix: prefix).count >= 1)
    }

    /// The issue's fault run: 120 members check in while the store answers SlowDown, resets
    /// connections and stalls at random, and then is down for 30 s. Every check-in answers 201,
    /// no request is answered 500, no render fails, and every reward's sticker and story end up
    /// in the bucket, none written twice with different bytes.
    @Test func checkInsThroughResetsSlowDownsStallsAndAnOutageAllEndWithTheirImagesInTheBucket() throws {
        let store = try Self.started.get()
        let proxy = try S3FaultProxyProcess(upstreamPort: store.port)
        let prefix = "burst-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix, s3: ["endpoint": proxy.endpoint, "max_attempts": 3, "timeout_seconds": 5])
        let server = try workspace.serve()
        defer { _ = server.terminate() }
        let members = 120
        let admin = try workspace.user("admin", role: "admin")
        _ = try workspace.user("host1", role: "host")
        let tokensFile = workspace.directory.file("tokens.txt")
        try workspace.cli(["dev", "seed-bench", "--members", String(members), "--capacity", String(members), "--upcoming", "0",
                           "--tokens", tokensFile])
        let tokens = try String(contentsOfFile: tokensFile, encoding: .utf8).split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        let now = Date()
        let meetup = try workspace.cli(["meetups", "create", "--title", "Burst", "--place", "Seoul Forest",
                                        "--starts", RFC3339.string(from: now.addingTimeInterval(-60), utcOffsetSeconds: 0),
                                        "--ends", RFC3339.string(from: now.addingTimeInterval(3_600), utcOffsetSeconds: 0),
                                        "--capacity", String(members), "--host", "host1"])
        let meetupID = try #require(meetup["id"]?.intValue)
        for token in tokens { #expect(try server.call("POST", "/v1/meetups/\(meetupID)/join", token: token).status == 201) }
        let code = try #require(try server.call("GET", "/v1/meetups/\(meetupID)/check-in-code", token: admin.token)["code"]?.stringValue)

        // SlowDown, resets and stalls at random, then 30 s with every connection reset, then back.
        try proxy.plan(.mixed, count: -1, stallSeconds: 3)
        DispatchQueue.global().asyncAfter(deadline: .now() + 3) { try? proxy.plan(.reset, count: -1) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 33) { try? proxy.clear() }
        let statuses = Mutex<[Int]>([])
        let answers = Mutex<[(status: Int, reward: Int64?, member: Int)]>([])
        DispatchQueue.concurrentPerform(iterations: tokens.count) { index in
            let answer = try? server.call("POST", "/v1/meetups/\(meetupID)/check-in", token: tokens[index], json: #"{"code": "\#(code)"}"#)
            answers.withLock { $0.append((answer?.status ?? 0, answer?["reward"]?["id"]?.intValue, index)) }
        }
        let checkedIn = answers.withLock { $0 }
        #expect(checkedIn.allSatisfy { $0.status == 201 }, "\(checkedIn.map(\.status))")
        #expect(checkedIn.compactMap(\.reward).count == members)

        var keys: Set<String> = []
        for answer in checkedIn {
            guard let rewardID = answer.reward else { continue }
            let token = tokens[answer.member]
            var last = ""
            let reward = try #require(try server.poll(timeout: 150) { () -> JSONValue? in
                let reward = try server.call("GET", "/v1/rewards/\(rewardID)", token: token)
                statuses.withLock { $0.append(reward.status) }
                last = reward.response.text
                #expect(reward["render_status"]?.stringValue != "failed", "reward \(rewardID) failed: \(reward.response.text)")
                return reward["render_status"]?.stringValue == "ready" && reward["images"]?["story"] != .null ? reward.json : nil
            }, "reward \(rewardID) was not rendered: \(last)\n\(server.standardError.suffix(20).joined(separator: "\n"))")
            for image in ["sticker", "story"] {
                let hash = try #require(reward["images"]?[image]?["hash"]?.stringValue)
                keys.insert("\(prefix)images/\(hash.prefix(2))/\(hash).png")
            }
        }
        #expect(statuses.withLock { $0 }.allSatisfy { $0 < 500 }, "\(statuses.withLock { $0 }.filter { $0 >= 500 })")
        #expect(try proxy.stats().injected > 30)
        let stored = try store.readBack(prefix: prefix)
        #expect(Set(stored.map(\.key)).isSuperset(of: keys), "missing: \(keys.subtracting(stored.map(\.key)))")
        #expect(stored.count == Set(stored.map(\.key)).count)
        #expect(stored.allSatisfy { $0.size > 0 && $0.contentType == "image/png" })
        // What the store took at each key, over every retry: one set of bytes.
        let twice = try proxy.uploads().filter { $0.key.contains(prefix) && $0.value.count > 1 }
        #expect(twice.isEmpty, "written with different bytes: \(twice)")
        // Jobs were postponed while the store was down, never failed.
        let metrics = try server.call("GET", "/metrics", token: admin.token).response.text.split(separator: "\n")
        let failed = metrics.filter { ($0.contains("outcome=\"failed_") || $0.contains("state=\"failed\"")) && !$0.hasSuffix(" 0") }
        #expect(failed.isEmpty, "\(failed)")
        #expect(metrics.contains { $0.hasPrefix("belay_render_jobs_total{outcome=\"postponed\"}") && !$0.hasSuffix(" 0") })
    }

    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "a SQLite club's scheduled backups"))
    func scheduledBackupsGoToTheBucketAndOnlyTheNewestAreKept() throws {
        let store = try Self.started.get()
        let prefix = "scheduled-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: "unused/")
        try workspace.succeed("migrate")
        _ = try workspace.user("ana")
        let configuration = try BelayConfiguration.load(configFile: workspace.configPath, environment: [:], currentDirectory: workspace.path)
        let database = try ClubDatabase(configuration: configuration)
        let file = try #require(database.file)
        let location = try #require(BackupLocation("s3://\(store.bucket)/\(prefix)"))
        let backups = try DatabaseBackups(configuration: configuration, location: location, environment: [:])
        let lines = Mutex<[String]>([])
        let scheduler = DatabaseBackupScheduler(backups: backups, file: file, interval: 1.1, keep: 2,
                                                log: { line in lines.withLock { $0.append(line) } })
        scheduler.start()
        let deadline = Date().addingTimeInterval(30)
        while scheduler.made.load(ordering: .relaxed) < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        scheduler.stop()
        #expect(scheduler.made.load(ordering: .relaxed) >= 3, "\(lines.withLock { $0 })")
        let kept = try backups.list()
        #expect(kept.count == 2, "\(kept.map(\.name))")
        #expect(try store.readBack(prefix: prefix).count == 2)
        #expect(lines.withLock { $0 }.contains { $0.contains("removed 1 older backup") })
    }

    @Test func aWrongSecretStopsTheStartNamingTheSetting() throws {
        let workspace = try Self.club(prefix: "x/", secret: "not-the-secret")
        let result = try workspace.run("serve", "--config", workspace.configPath)
        #expect(result.status != 0)
        #expect(result.standardError.contains("images.s3.secret_access_key_file"), "\(result.standardError)")
    }

    @Test func aMissingBucketStopsTheStartNamingTheSetting() throws {
        let workspace = try Self.club(prefix: "x/", bucket: "no-such-bucket")
        let result = try workspace.run("serve", "--config", workspace.configPath)
        #expect(result.status != 0)
        #expect(result.standardError.contains("images.s3.bucket"), "\(result.standardError)")
        #expect(result.standardError.contains("NoSuchBucket"), "\(result.standardError)")
    }
}
