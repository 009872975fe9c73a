import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// Two `belay serve` nodes on one PostgreSQL database with separate data directories: the
/// bucket on the loopback S3 server is their only image store, and an image one node rendered
/// is served by the other. Each node holds its own copy of one badge key directory
/// (`rewards.badge_keys_directory`), so the badge one node baked verifies on the other.
@Suite(.serialized, .enabled(if: TestDatabase.isPostgreSQL))
struct MultiNodeBucketTests {
    @Test func twoNodesWithSeparateDataDirectoriesShareImagesThroughTheBucket() throws {
        let store = try S3ServerProcess()
        let cluster = try PostgresCluster()
        try cluster.createDatabase("club")
        let workspace = try ClubWorkspace.served(settings: ["database": ["url": cluster.url(database: "club")]])
        let secretFile = workspace.directory.file("s3-secret")
        try store.secretAccessKey.write(toFile: secretFile, atomically: true, encoding: .utf8)
        let prefix = "nodes/"
        try workspace.rewriteConfig(adding: ["images": [
            "store": "s3",
            "s3": ["endpoint": store.endpoint, "bucket": store.bucket, "region": store.region, "prefix": prefix,
                   "access_key_id": store.accessKeyID, "secret_access_key_file": secretFile, "path_style": 1] as [String: Any],
        ]])
        let directoryA = workspace.directory.file("node-a"), directoryB = workspace.directory.file("node-b")
        // The keys are made once and each node is given a copy, as a secret is mounted.
        let keys = workspace.directory.file("badge-keys"), keysA = workspace.directory.file("keys-a"), keysB = workspace.directory.file("keys-b")
        workspace.environment["BELAY_REWARDS_BADGE_KEYS_DIRECTORY"] = keys
        let made = try workspace.run("badges", "rotate-key")
        #expect(made.status == 0, "\(made)")
        try FileManager.default.copyItem(atPath: keys, toPath: keysA)
        try FileManager.default.copyItem(atPath: keys, toPath: keysB)
        let nodeA = try workspace.serve(environment: ["BELAY_DATA_DIRECTORY": directoryA, "BELAY_REWARDS_BADGE_KEYS_DIRECTORY": keysA])
        defer { _ = nodeA.terminate() }
        let nodeB = try workspace.serve(environment: ["BELAY_DATA_DIRECTORY": directoryB, "BELAY_RENDER_WORKERS": "0",
                                                      "BELAY_REWARDS_BADGE_KEYS_DIRECTORY": keysB])
        defer { _ = nodeB.terminate() }

        let (ana, _, reward) = try workspace.renderedReward(on: nodeA, place: "Two nodes")
        let rewardID = try #require(reward["id"]?.intValue)
        let hash = try #require(reward["images"]?["sticker"]?["hash"]?.stringValue)
        let answer = try nodeB.call("GET", "/v1/rewards/\(rewardID)/sticker/\(hash).png", token: ana.token)
        #expect(answer.status == 302)
        let fetched = try S3ServerProcess.fetch(try #require(answer.header("Location")))
        #expect(fetched.status == 200 && fetched.contentType == "image/png" && !fetched.body.isEmpty)
        #expect(try store.readBack(prefix: prefix).contains { $0.key.hasSuffix("/\(hash).png") })

        // Node A signed the sticker's badge; node B's keys verify it, and B's issuer publishes A's key.
        let sticker = workspace.directory.file("sticker.png")
        try Data(fetched.body).write(to: URL(fileURLWithPath: sticker))
        workspace.environment["BELAY_DATA_DIRECTORY"] = directoryB
        workspace.environment["BELAY_REWARDS_BADGE_KEYS_DIRECTORY"] = keysB
        let verified = try workspace.run("badges", "verify", sticker, "--json")
        #expect(verified.status == 0, "\(verified)")
        let thumbprint = try #require(try JSONValue.parse(Array(verified.standardOutput.utf8))["key"]?.stringValue)
        #expect(try nodeB.call("GET", "/issuer/keys/\(thumbprint)").status == 200)
        for directory in [directoryA, directoryB] {
            let images = (FileManager.default.enumerator(atPath: directory + "/images")?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".png") }
            #expect(images.isEmpty, "\(directory) holds images: \(images)")
        }
    }
}
