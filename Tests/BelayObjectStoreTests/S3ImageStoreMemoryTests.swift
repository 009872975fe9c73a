import BelayCore
import BelayObjectStore
import Foundation
import Synchronization
import Testing

/// A render that reuses an image this process has just uploaded or found asks the bucket
/// nothing (identical stories are common, and each `HEAD` is a round trip and a billed
/// request); past the store's `refreshAge` it asks again and dates the object anew, as a
/// store with no memory would.
@Suite struct S3ImageStoreMemoryTests {
    /// A clock the test moves: the real time plus an offset.
    final class MovedClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func move(to seconds: TimeInterval) { offset.withLock { $0 = seconds } }
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    /// A store on the loopback bucket with a moved clock, and its count of `HEAD`s.
    struct Counted {
        let store: S3ImageStore
        let registry = MetricsRegistry()
        let clock = MovedClock()

        init(prefix: String = LoopbackStore.freshPrefix()) throws {
            let clock = clock
            store = S3ImageStore(client: try S3Client(settings: LoopbackStore.settings(), metrics: ObjectStoreMetrics(registry: registry)),
                                 prefix: prefix, refreshAge: 300, now: { clock.now() })
        }

        /// `HEAD` requests sent so far, whatever they answered.
        var heads: Int {
            ["ok", "error"].map { outcome in
                registry.counter("belay_object_store_requests_total", help: "", labels: ["operation": "head", "outcome": outcome]).value
            }.reduce(0, +)
        }
    }

    static func digest(_ text: String) -> String { Crypto.hex(Crypto.sha256(Array(text.utf8))) }

    @Test func anImageThisProcessUploadedIsReusedWithoutAskingTheBucket() throws {
        let counted = try Counted()
        let digest = Self.digest("story \(UUID())")
        try counted.store.storeImage(Array("story".utf8), digest: digest, fileExtension: "jpg")
        for _ in 0..<3 { #expect(counted.store.holdsImage(digest: digest, fileExtension: "jpg")) }
        #expect(counted.heads == 0)
    }

    @Test func anImageFoundOnceIsNotAskedAboutAgainUntilItIsDueToBeDatedAnew() throws {
        let writer = try Counted()
        let digest = Self.digest("found \(UUID())")
        try writer.store.storeImage(Array("found".utf8), digest: digest, fileExtension: "png")
        // Another process (no memory of the upload), on the same prefix.
        let other = try Counted(prefix: writer.store.prefix)
        let reader = other.store
        let heads = { other.heads }
        #expect(reader.holdsImage(digest: digest, fileExtension: "png"))
        #expect(reader.holdsImage(digest: digest, fileExtension: "png"))
        #expect(heads() == 1)

        // Past refreshAge the bucket is asked again, and the object is dated anew.
        let key = reader.key(digest: digest, fileExtension: "png")
        let before = try #require(try reader.client.head(key)?.lastModified)
        other.clock.move(to: 400)
        Thread.sleep(forTimeInterval: 1.1) // Last-Modified has whole seconds
        #expect(reader.holdsImage(digest: digest, fileExtension: "png"))
        #expect(heads() == 3)
        #expect(try #require(try reader.client.head(key)?.lastModified) > before)
        #expect(reader.holdsImage(digest: digest, fileExtension: "png"))
        #expect(heads() == 4, "the object dated anew is remembered")
    }

    @Test func aRemovedImageIsNotRemembered() throws {
        let counted = try Counted()
        let digest = Self.digest("removed \(UUID())")
        try counted.store.storeImage([1, 2, 3], digest: digest, fileExtension: "png")
        try counted.store.removeImage(digest: digest, fileExtension: "png")
        #expect(!counted.store.holdsImage(digest: digest, fileExtension: "png"))
        #expect(counted.heads == 1)
    }
}
