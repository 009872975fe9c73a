import BelayCore
import BelayObjectStore
import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

/// One suite, both stores: what the render pipeline relies on holds for the directory and for
/// a bucket alike.
@Suite struct RewardImageStoreContractTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case directory, bucket
        var testDescription: String { rawValue }
    }

    /// A fresh, empty store of `kind` (the directory lives as long as the returned value).
    static func store(_ kind: Kind) throws -> (store: any RewardImageStore, keep: TemporaryDirectory?) {
        switch kind {
        case .directory:
            let directory = try TemporaryDirectory()
            return (ImageStore(root: directory.url.appendingPathComponent("images")), directory)
        case .bucket:
            return (S3ImageStore(client: try LoopbackStore.client(), prefix: LoopbackStore.freshPrefix()), nil)
        }
    }

    static func digest(_ text: String) -> String { Crypto.hex(Crypto.sha256(Array(text.utf8))) }

    @Test(arguments: Kind.allCases) func aStoredImageIsHeldAndReadBackWhole(_ kind: Kind) throws {
        let (store, keep) = try Self.store(kind)
        defer { withExtendedLifetime(keep) {} }
        let digest = Self.digest("sticker \(kind)")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(!store.containsImage(digest: digest, fileExtension: "png"))
        #expect(!store.holdsImage(digest: digest, fileExtension: "png"))
        #expect(store.isMissingImage(digest: digest, fileExtension: "png"))
        try store.storeImage(bytes, digest: digest, fileExtension: "png")
        #expect(!store.isMissingImage(digest: digest, fileExtension: "png"))
        #expect(store.containsImage(digest: digest, fileExtension: "png"))
        #expect(store.holdsImage(digest: digest, fileExtension: "png"))
        #expect(!store.containsImage(digest: digest, fileExtension: "jpg"))
        #expect(try store.imageBytes(digest: digest, fileExtension: "png") == bytes)
    }

    @Test(arguments: Kind.allCases) func storingTheSameImageAgainKeepsOneWholeCopy(_ kind: Kind) throws {
        let (store, keep) = try Self.store(kind)
        defer { withExtendedLifetime(keep) {} }
        let digest = Self.digest("story \(kind)")
        try store.storeImage([1, 2, 3], digest: digest, fileExtension: "jpg")
        try store.storeImage([1, 2, 3], digest: digest, fileExtension: "jpg")
        #expect(try store.imageBytes(digest: digest, fileExtension: "jpg") == [1, 2, 3])
    }

    @Test(arguments: Kind.allCases) func aMissingImageIsReportedMissingNotTransient(_ kind: Kind) throws {
        let (store, keep) = try Self.store(kind)
        defer { withExtendedLifetime(keep) {} }
        let error = try #require(throws: ImageStoreError.self) { try store.imageBytes(digest: Self.digest("none"), fileExtension: "png") }
        #expect(error.isMissing && !error.isTransient)
    }

    /// What `belay gc` relies on: every stored image listed once, in name order, with its size
    /// and when it was written; one removed is gone from the listing and the store, and removing
    /// it again is no error.
    @Test(arguments: Kind.allCases) func storedImagesAreListedInNameOrderAndRemovedOneByOne(_ kind: Kind) throws {
        let (store, keep) = try Self.store(kind)
        defer { withExtendedLifetime(keep) {} }
        #expect(try store.storedImages() == [])
        let started = Date().addingTimeInterval(-60)
        let images: [(digest: String, fileExtension: String, bytes: [UInt8])] = [
            (Self.digest("first \(kind)"), "png", Array(repeating: 1, count: 1_000)),
            (Self.digest("second \(kind)"), "jpg", Array(repeating: 2, count: 2_000)),
            (Self.digest("third \(kind)"), "png", Array(repeating: 3, count: 3_000)),
        ]
        for image in images {
            try store.storeImage(image.bytes, digest: image.digest, fileExtension: image.fileExtension)
        }
        let listed = try store.storedImages()
        let expected = images.sorted { $0.digest < $1.digest }
        #expect(listed.map(\.digest) == expected.map(\.digest))
        #expect(listed.map(\.fileExtension) == expected.map(\.fileExtension))
        #expect(listed.map(\.size) == expected.map { Int64($0.bytes.count) })
        for image in listed {
            let modified = try #require(image.modified, "\(kind) does not say when \(image.rowPath) was written")
            #expect(modified > started)
        }

        let removed = images[1]
        try store.removeImage(digest: removed.digest, fileExtension: removed.fileExtension)
        #expect(!store.containsImage(digest: removed.digest, fileExtension: removed.fileExtension))
        #expect(try store.storedImages().map(\.digest) == expected.map(\.digest).filter { $0 != removed.digest })
        try store.removeImage(digest: removed.digest, fileExtension: removed.fileExtension)
        #expect(try store.imageBytes(digest: images[0].digest, fileExtension: "png") == images[0].bytes)
    }

    @Test func theBucketKeepsTheDirectorysNamesAndBoto3ReadsBackTypeAndCachePolicy() throws {
        let prefix = LoopbackStore.freshPrefix()
        let store = S3ImageStore(client: try LoopbackStore.client(), prefix: prefix)
        let sticker = Self.digest("sticker"), story = Self.digest("story")
        try store.storeImage(Array("png bytes".utf8), digest: sticker, fileExtension: "png")
        try store.storeImage(Array("jpeg bytes".utf8), digest: story, fileExtension: "jpg")
        let directory = ImageStore(root: URL(fileURLWithPath: "/x/images"))
        let readBack = try LoopbackStore.server().readBack(prefix: prefix)
        #expect(Set(readBack.map(\.key)) == [prefix + "images/" + directory.relativePath(digest: sticker, fileExtension: "png"),
                                             prefix + "images/" + directory.relativePath(digest: story, fileExtension: "jpg")])
        for object in readBack {
            #expect(object.cacheControl == "public, max-age=31536000, immutable")
            #expect(object.contentType == (object.key.hasSuffix(".png") ? "image/png" : "image/jpeg"))
            let expected = object.key.hasSuffix(".png") ? "png bytes" : "jpeg bytes"
            #expect(object.sha256 == Crypto.hex(Crypto.sha256(Array(expected.utf8))))
        }
    }

    @Test func anOldImageARenderReusesIsDatedAgainWithItsTypeAndCachePolicy() throws {
        let prefix = LoopbackStore.freshPrefix()
        let client = try LoopbackStore.client()
        let digest = Self.digest("old story")
        try S3ImageStore(client: client, prefix: prefix).storeImage(Array("story".utf8), digest: digest, fileExtension: "jpg")
        let store = S3ImageStore(client: client, prefix: prefix)
        let key = store.key(digest: digest, fileExtension: "jpg")
        let before = try #require(try client.head(key)?.lastModified)
        Thread.sleep(forTimeInterval: 1.1)
        #expect(store.holdsImage(digest: digest, fileExtension: "jpg"))
        #expect(try client.head(key)?.lastModified == before, "a recent image is reused as it is")
        let later = S3ImageStore(client: client, prefix: prefix, now: { Date().addingTimeInterval(7200) })
        #expect(later.holdsImage(digest: digest, fileExtension: "jpg"))
        let after = try #require(try client.head(key))
        #expect(try #require(after.lastModified) > before)
        #expect(after.contentType == "image/jpeg")
        let readBack = try LoopbackStore.server().readBack(prefix: prefix)
        #expect(readBack.first?.cacheControl == "public, max-age=31536000, immutable")
        #expect(try client.get(key) == Array("story".utf8))
    }

    @Test func aBucketThatDoesNotAnswerMakesTheWriteTransient() throws {
        let closed = try FreePort.next()
        let client = try S3Client(settings: try LoopbackStore.settings(maxAttempts: 2, endpoint: "http://127.0.0.1:\(closed)"))
        let store = S3ImageStore(client: client, prefix: "")
        let error = try #require(throws: ImageStoreError.self) { try store.storeImage([1], digest: Self.digest("x"), fileExtension: "png") }
        #expect(error.isTransient)
        #expect(!store.holdsImage(digest: Self.digest("x"), fileExtension: "png"))
        #expect(!store.isMissingImage(digest: Self.digest("x"), fileExtension: "png"), "a store that cannot be asked does not say missing")
    }
}
