import BelayCore
import BelayTestSupport
import Foundation
import Testing

/// `belay images copy` and `belay gc` against an S3 server on loopback started by the tests.
@Suite(.serialized) struct ImagesCommandTests {
    private static let started = Result { try S3ServerProcess() }

    /// The loopback S3 server these suites share.
    static func server() throws -> S3ServerProcess { try started.get() }

    /// A migrated club whose `images.s3` names a fresh prefix of the loopback bucket.
    static func club(prefix: String, store: String = "directory") throws -> ClubWorkspace {
        let s3 = try started.get()
        let workspace = try ClubWorkspace()
        let secretFile = workspace.directory.file("s3-secret")
        try s3.secretAccessKey.write(toFile: secretFile, atomically: true, encoding: .utf8)
        try workspace.rewriteConfig(adding: ["images": [
            "store": store,
            "s3": ["endpoint": s3.endpoint, "bucket": s3.bucket, "region": s3.region, "prefix": prefix,
                   "access_key_id": s3.accessKeyID, "secret_access_key_file": secretFile, "path_style": 1] as [String: Any],
        ]])
        try workspace.succeed("migrate")
        return workspace
    }

    /// Writes `count` images into the club's image directory; their row paths.
    static func images(_ count: Int, in workspace: ClubWorkspace) throws -> [String: [UInt8]] {
        var written: [String: [UInt8]] = [:]
        for index in 0..<count {
            let bytes = Array("image \(index) \(UUID())".utf8)
            let digest = Crypto.hex(Crypto.sha256(bytes))
            let folder = workspace.directory.file("data/images/\(digest.prefix(2))")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(digest).png"))
            written["images/\(digest.prefix(2))/\(digest).png"] = bytes
        }
        return written
    }

    @Test func copyingIntoTheBucketIsIdempotentAndCopiesBackWhole() throws {
        let prefix = "copy-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix)
        let written = try Self.images(3, in: workspace)

        let first = try workspace.run("images", "copy", "--to", "s3")
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput == "copied 3, already there 0, failed 0\n")
        let objects = try Self.started.get().readBack(prefix: prefix)
        #expect(Set(objects.map(\.key)) == Set(written.keys.map { prefix + $0 }))
        for object in objects {
            let bytes = try #require(written[String(object.key.dropFirst(prefix.count))])
            #expect(object.sha256 == Crypto.hex(Crypto.sha256(bytes)))
            #expect(object.contentType == "image/png")
            #expect(object.cacheControl == "public, max-age=31536000, immutable")
        }

        // One more image, as after an interrupted run: only it is copied.
        let more = try Self.images(1, in: workspace)
        let second = try workspace.run("images", "copy", "--to", "s3")
        #expect(second.standardOutput == "copied 1, already there 3, failed 0\n", "\(second)")

        try FileManager.default.removeItem(atPath: workspace.directory.file("data/images"))
        let back = try workspace.run("images", "copy", "--to", "directory")
        #expect(back.standardOutput == "copied 4, already there 0, failed 0\n", "\(back)")
        for (path, bytes) in written.merging(more, uniquingKeysWith: { $1 }) {
            #expect(FileManager.default.contents(atPath: workspace.directory.file("data/\(path)")).map(Array.init) == bytes)
        }
    }

    @Test func theKeyMayComeFromTheAWSVariablesAndNoKeyIsRefusedNamingTheSetting() throws {
        let s3 = try Self.started.get()
        let prefix = "env-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix)
        try workspace.rewriteConfig(adding: ["images": ["s3": ["endpoint": s3.endpoint, "bucket": s3.bucket, "region": s3.region,
                                                               "prefix": prefix, "path_style": 1, "access_key_id": "",
                                                               "secret_access_key_file": ""] as [String: Any]]])
        _ = try Self.images(1, in: workspace)
        // Set empty, so that variables of the machine running the tests cannot stand in.
        workspace.environment["AWS_ACCESS_KEY_ID"] = ""
        workspace.environment["AWS_SECRET_ACCESS_KEY"] = ""
        // With no key, the instance's metadata service is asked; here nothing listens there.
        workspace.environment["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = "http://127.0.0.1:\(try FreePort.next())"
        let none = try workspace.run("images", "copy", "--to", "s3")
        #expect(none.status == 1)
        #expect(none.standardError.contains("images.s3.access_key_id") && none.standardError.contains("instance metadata"), "\(none)")
        workspace.environment["AWS_EC2_METADATA_DISABLED"] = "true"
        let disabled = try workspace.run("images", "copy", "--to", "s3")
        #expect(disabled.status == 1 && disabled.standardError.contains("images.s3.access_key_id"), "\(disabled)")
        workspace.environment["AWS_ACCESS_KEY_ID"] = s3.accessKeyID
        let noSecret = try workspace.run("images", "copy", "--to", "s3")
        #expect(noSecret.standardError.contains("AWS_SECRET_ACCESS_KEY"), "\(noSecret)")
        workspace.environment["AWS_SECRET_ACCESS_KEY"] = s3.secretAccessKey
        let copied = try workspace.run("images", "copy", "--to", "s3")
        #expect(copied.status == 0, "\(copied)")
        #expect(copied.standardOutput == "copied 1, already there 0, failed 0\n")
    }

    /// With no key anywhere, the platform's credentials: web identity exchanged at STS, then
    /// the instance metadata service, each issued by moto's STS and checked by its S3 with
    /// their session token.
    @Test func withNoKeyThePlatformsCredentialsAreUsed() throws {
        let platform = try S3ServerProcess(bucket: "belay-platform-cli", platformCredentials: true)
        let workspace = try ClubWorkspace()
        try workspace.rewriteConfig(adding: ["images": ["s3": ["endpoint": platform.endpoint, "bucket": platform.bucket, "region": platform.region,
                                                               "prefix": "web/", "path_style": 1, "access_key_id": "",
                                                               "secret_access_key_file": ""] as [String: Any]]])
        try workspace.succeed("migrate")
        _ = try Self.images(2, in: workspace)
        workspace.environment["AWS_ACCESS_KEY_ID"] = ""
        workspace.environment["AWS_SECRET_ACCESS_KEY"] = ""
        let tokenFile = workspace.directory.file("web-identity-token")
        try platform.webIdentityToken.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        workspace.environment["AWS_WEB_IDENTITY_TOKEN_FILE"] = tokenFile
        workspace.environment["AWS_ROLE_ARN"] = platform.roleARN
        workspace.environment["AWS_ENDPOINT_URL_STS"] = platform.endpoint
        let web = try workspace.run("images", "copy", "--to", "s3")
        #expect(web.status == 0 && web.standardOutput == "copied 2, already there 0, failed 0\n", "\(web)")
        #expect(try platform.readBack(prefix: "web/").count == 2)

        workspace.environment["AWS_WEB_IDENTITY_TOKEN_FILE"] = ""
        workspace.environment["AWS_ROLE_ARN"] = ""
        workspace.environment["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = platform.instanceMetadataEndpoint
        workspace.environment["BELAY_IMAGES_S3_PREFIX"] = "instance/"
        let instance = try workspace.run("images", "copy", "--to", "s3")
        #expect(instance.status == 0 && instance.standardOutput == "copied 2, already there 0, failed 0\n", "\(instance)")
        #expect(try platform.readBack(prefix: "instance/").count == 2)
        #expect((try platform.platformStats()["imds_credentials"] ?? 0) >= 1)
    }

    @Test func aBadDestinationIsAUsageError() throws {
        let workspace = try Self.club(prefix: "x/")
        let result = try workspace.run("images", "copy", "--to", "bucket")
        #expect(result.status == 64)
        #expect(result.standardError.contains("--to must be s3"), "\(result)")
    }

    @Test func gcRemovesUnreferencedObjectsFromTheBucketAfterTheGracePeriod() throws {
        let prefix = "gc-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try Self.club(prefix: prefix, store: "s3")
        _ = try Self.images(2, in: workspace)
        #expect(try workspace.run("images", "copy", "--to", "s3").status == 0)

        let young = try workspace.run("gc")
        #expect(young.status == 0, "\(young)")
        #expect(try Self.started.get().readBack(prefix: prefix).count == 2, "objects younger than --min-age are kept")

        let old = try workspace.run("gc", "--min-age", "0")
        #expect(old.status == 0, "\(old)")
        #expect(old.standardOutput.split(separator: "\n").count == 2, "\(old)")
        #expect(try Self.started.get().readBack(prefix: prefix).isEmpty)
    }
}

/// `belay db backup s3://…`, `belay db backups list` and `belay db restore` against the
/// loopback S3 server: the restored file opens, passes the integrity check and answers as the
/// live database does.
@Suite(.serialized) struct BucketBackupTests {
    @Test(.enabled(if: !TestDatabase.isPostgreSQL, "a SQLite club's backups"))
    func aBackupInTheBucketIsListedAndRestoresToTheSameClub() throws {
        let prefix = "backups-\(UUID().uuidString.lowercased().prefix(8))/"
        let workspace = try ImagesCommandTests.club(prefix: "unused/")
        _ = try workspace.user("ana")
        _ = try workspace.user("admin", role: "admin")
        let s3 = try ImagesCommandTests.server()
        let location = "s3://\(s3.bucket)/\(prefix)"

        let backup = try workspace.run("db", "backup", location)
        #expect(backup.status == 0, "\(backup)")
        let written = backup.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(written.hasPrefix(location + "belay-") && written.hasSuffix(".sqlite3.gz"), "\(backup)")
        let objects = try s3.readBack(prefix: prefix)
        #expect(objects.count == 1)
        #expect(objects.first?.contentType == "application/gzip")

        let list = try workspace.run("db", "backups", "list", location)
        #expect(list.status == 0, "\(list)")
        let name = String(written.dropFirst(location.count))
        #expect(list.standardOutput.hasPrefix(name + "\t"), "\(list)")

        let restored = workspace.directory.file("restored.sqlite3")
        let restore = try workspace.run("db", "restore", location + name, restored)
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.standardError.contains("integrity and foreign keys ok"))

        // The restored file is a whole club: `db check` passes and it lists the same members.
        let live = try workspace.run("users", "list")
        var onRestored = workspace.environment
        onRestored["BELAY_DATABASE_PATH"] = restored
        let check = try BelayProcess.run(["--config", workspace.configPath, "db", "check"], environment: onRestored, in: workspace.path)
        #expect(check.status == 0, "\(check)")
        #expect(check.standardOutput == "ok\n")
        let same = try BelayProcess.run(["--config", workspace.configPath, "users", "list"], environment: onRestored, in: workspace.path)
        #expect(same.standardOutput == live.standardOutput)
        #expect(live.standardOutput.contains("ana"))

        let again = try workspace.run("db", "restore", location + name, restored)
        #expect(again.status == 1)
        #expect(again.standardError.contains("already exists"))
        let missing = try workspace.run("db", "restore", location + "belay-nothing.sqlite3.gz", workspace.directory.file("x.sqlite3"))
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("there is no backup"), "\(missing)")
        let bad = try workspace.run("db", "backups", "list", "s3://Bad_Bucket/")
        #expect(bad.status == 64)
    }
}
