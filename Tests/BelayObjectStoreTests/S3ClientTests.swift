import BelayCore
import BelayObjectStore
import BelayTestSupport
import Foundation
import Synchronization
import Testing

/// The S3 client against a real S3 server on loopback that checks signatures (moto), with
/// boto3 reading back what was stored.
@Suite struct S3ClientTests {
    @Test func anObjectGoesInWithItsTypeCachePolicyAndChecksumAndComesBack() throws {
        let client = try LoopbackStore.client()
        let prefix = LoopbackStore.freshPrefix()
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.put(prefix + "images/ab/abc.png", bytes: bytes, contentType: "image/png", cacheControl: "public, max-age=31536000, immutable")
        let head = try #require(try client.head(prefix + "images/ab/abc.png"))
        #expect(head.size == Int64(bytes.count))
        #expect(head.contentType == "image/png")
        #expect(try client.get(prefix + "images/ab/abc.png") == bytes)
        #expect(try client.get(prefix + "images/ab/abc.png", range: 10...19) == Array(bytes[10...19]))

        let readBack = try LoopbackStore.server().readBack(prefix: prefix)
        #expect(readBack == [S3ServerProcess.ObjectReadBack(key: prefix + "images/ab/abc.png", size: bytes.count,
                                                            sha256: Crypto.hex(Crypto.sha256(bytes)), contentType: "image/png",
                                                            cacheControl: "public, max-age=31536000, immutable")])
    }

    @Test func aMissingObjectIsNilOrNotFoundAndDeletingItIsNoError() throws {
        let client = try LoopbackStore.client()
        let key = LoopbackStore.freshPrefix() + "nothing.png"
        #expect(try client.head(key) == nil)
        let error = try #require(throws: ObjectStoreError.self) { try client.get(key) }
        #expect(error.isNotFound && !error.isTransient)
        try client.delete(key)
    }

    @Test func listingGoesPageByPageAndDeletesRemove() throws {
        let client = try LoopbackStore.client()
        let prefix = LoopbackStore.freshPrefix()
        for index in 0..<5 { try client.put(prefix + "k\(index)", bytes: [UInt8(index)], contentType: "application/octet-stream") }
        var keys: [String] = []
        var continuation: String?
        var pages = 0
        repeat {
            let page = try client.list(prefix: prefix, continuation: continuation, limit: 2)
            keys += page.objects.map(\.key)
            continuation = page.continuation
            pages += 1
        } while continuation != nil
        #expect(keys == (0..<5).map { prefix + "k\($0)" })
        #expect(pages == 3)
        try client.delete(prefix + "k0")
        #expect(try client.list(prefix: prefix).objects.count == 4)
    }

    @Test func aWrongSecretIsRefusedAndTheErrorNamesTheSetting() throws {
        let client = try LoopbackStore.client(secret: "not-the-secret")
        let error = try #require(throws: ObjectStoreError.self) { try client.checkAccess(prefix: "") }
        #expect(error.status == 403 && error.code == "SignatureDoesNotMatch")
        #expect(!error.isTransient)
        #expect(error.description.contains("images.s3.secret_access_key_file"))
    }

    @Test func anUnknownKeyIsRefusedAndTheErrorNamesTheSetting() throws {
        let client = try LoopbackStore.client(accessKeyID: "AKIAUNKNOWNKEY000000")
        let error = try #require(throws: ObjectStoreError.self) { try client.checkAccess(prefix: "") }
        #expect(error.code == "InvalidAccessKeyId")
        #expect(error.description.contains("images.s3.access_key_id"))
    }

    @Test func aMissingBucketIsRefusedAndTheErrorNamesTheSetting() throws {
        let client = try LoopbackStore.client(bucket: "no-such-bucket")
        let error = try #require(throws: ObjectStoreError.self) { try client.checkAccess(prefix: "") }
        #expect(error.code == "NoSuchBucket")
        #expect(error.description.contains("images.s3.bucket"))
    }

    @Test func badSettingsAreRefusedBeforeAnyRequest() throws {
        var settings = try LoopbackStore.settings()
        settings.bucket = "Not_A_Bucket"
        #expect(throws: ObjectStoreError.self) { try S3Client(settings: settings) }
        settings = try LoopbackStore.settings(endpoint: "ftp://example")
        let error = try #require(throws: ObjectStoreError.self) { try S3Client(settings: settings) }
        #expect(error.description.contains("images.s3.endpoint"))
    }

    @Test func aPresignedURLWorksForAPlainHTTPClientAndATamperedOneDoesNot() throws {
        let client = try LoopbackStore.client()
        let key = LoopbackStore.freshPrefix() + "images/cd/cdef.png"
        try client.put(key, bytes: Array("sticker".utf8), contentType: "image/png")
        let url = try client.presignedURL(key, seconds: 300)
        #expect(url.hasPrefix(try LoopbackStore.server().endpoint + "/"))
        let answer = try S3ServerProcess.fetch(url)
        #expect(answer.status == 200)
        #expect(answer.body == Array("sticker".utf8))
        #expect(answer.contentType == "image/png")
        let tampered = url.replacingOccurrences(of: "X-Amz-Expires=300", with: "X-Amz-Expires=301")
        #expect(try S3ServerProcess.fetch(tampered).status == 403)
    }

    /// Within a signing window (a quarter of the URL's life, at most 5 minutes) a key gets the
    /// same working URL, signed once, so caches in front of the bucket can keep it; the next
    /// window signs anew, and another key never shares a URL.
    @Test func aKeyAskedForAgainWithinItsSigningWindowGetsTheSameWorkingURL() throws {
        let clock = MovableNow()
        let client = try S3Client(settings: LoopbackStore.settings(), now: { clock.now() })
        let prefix = LoopbackStore.freshPrefix()
        let sticker = prefix + "images/ab/abcd.png", story = prefix + "images/ef/efab.jpg"
        try client.put(sticker, bytes: Array("sticker".utf8), contentType: "image/png")
        try client.put(story, bytes: Array("story".utf8), contentType: "image/jpeg")
        let first = try client.presignedURL(sticker, seconds: 900)
        #expect(try client.presignedURL(sticker, seconds: 900) == first)
        let other = try client.presignedURL(story, seconds: 900)
        #expect(other != first)
        for (url, body) in [(first, "sticker"), (other, "story")] {
            let answer = try S3ServerProcess.fetch(url)
            #expect(answer.status == 200 && answer.body == Array(body.utf8), "\(answer.status)")
        }
        #expect(first.contains("X-Amz-Expires=900"))
        // The window is 225 s for a 900 s URL: one 300 s later is the next.
        clock.move(to: 300)
        let next = try client.presignedURL(sticker, seconds: 900)
        #expect(next != first)
        #expect(Self.amzDate(next) > Self.amzDate(first))
    }

    static func amzDate(_ url: String) -> String {
        URLComponents(string: url)?.queryItems?.first { $0.name == "X-Amz-Date" }?.value ?? ""
    }

    /// The real time plus a test's offset.
    final class MovableNow: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func move(to seconds: TimeInterval) { offset.withLock { $0 = seconds } }
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    @Test func aMultipartUploadJoinsItsParts() throws {
        let client = try LoopbackStore.client()
        let key = LoopbackStore.freshPrefix() + "backup.gz"
        let first = [UInt8](repeating: 7, count: 5 * 1024 * 1024)
        let second = Array("tail".utf8)
        let upload = try client.startMultipartUpload(key, contentType: "application/gzip")
        let etags = [try client.uploadPart(key, uploadID: upload, number: 1, bytes: first),
                     try client.uploadPart(key, uploadID: upload, number: 2, bytes: second)]
        try client.completeMultipartUpload(key, uploadID: upload, parts: etags)
        #expect(try client.get(key) == first + second)
    }

    @Test func nothingAnswersAndTheRequestIsRetriedThenReportedTransient() throws {
        let closed = try FreePort.next()
        let settings = try LoopbackStore.settings(maxAttempts: 3, endpoint: "http://127.0.0.1:\(closed)")
        let registry = MetricsRegistry()
        let client = try S3Client(settings: settings, metrics: ObjectStoreMetrics(registry: registry))
        let error = try #require(throws: ObjectStoreError.self) { try client.put("k", bytes: [1], contentType: "image/png") }
        #expect(error.isTransient)
        #expect(error.description.contains("images.s3.endpoint"))
        let text = registry.prometheusText()
        #expect(text.contains("belay_object_store_retries_total{operation=\"upload\"} 2"))
        #expect(text.contains("belay_object_store_errors_total{code=\"transport\"} 1"))
    }
}
