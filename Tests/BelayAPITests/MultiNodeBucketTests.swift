import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// Two `belay serve` nodes on one PostgreSQL database with separate data directories: the
/// bucket on the loopback S3 server is their only image store, and an image one node rendered
/// is served by the other.
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
        let nodeA = try workspace.serve(environment: ["BELAY_DATA_DIRECTORY": directoryA])
        defer { _ = nodeA.terminate() }
        let nodeB = try workspace.serve(environment: ["BELAY_DATA_DIRECTORY": directoryB, "BELAY_RENDER_WORKERS": "0"])
        defer { _ = nodeB.terminate() }

        let (ana, _, reward) = try workspace.renderedReward(on: nodeA, place: "Two nodes")
        let rewardID = try #require(reward["id"]?.intValue)
        let hash = try #require(reward["images"]?["sticker"]?["hash"]?.stringValue)
        let answer = try nodeB.call("GET", "/v1/rewards/\(rewardID)/sticker/\(hash).png", token: ana.token)
        #expect(answer.status == 302)
        let fetched = try S3ServerProcess.fetch(try #require(answer.header("Location")))
        #expect(fetched.status == 200 && fetched.contentType == "image/png" && !fetched.body.isEmpty)
        #expect(try store.readBack(prefix: prefix).contains { $0.key.hasSuffix("/\(hash).png") })
        for directory in [directoryA, directoryB] {
            let images = (FileManager.default.enumerator(atPath: directory + "/images")?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".png") }
            #expect(images.isEmpty, "\(directory) holds images: \(images)")
        }
    }
}
