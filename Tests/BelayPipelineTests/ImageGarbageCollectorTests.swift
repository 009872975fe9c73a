import BelayDomain
@testable import BelayPipeline
import BelayTestSupport
import Foundation
import Testing

@Suite struct ImageGarbageCollectorTests {
    /// Sets a file's modification time `seconds` into the past.
    static func age(_ path: String, by seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: path)
    }

    @Test func removesOnlyOldUnreferencedFilesAndLeftoverTemporaryFiles() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 2)
        _ = try fixture.backfillRunner().run(BackfillOptions())
        let store = fixture.service.store
        let orphan = String(repeating: "0a", count: 32)
        let recentOrphan = String(repeating: "0b", count: 32)
        try store.write(Array("old".utf8), digest: orphan, fileExtension: "png")
        try store.write(Array("new".utf8), digest: recentOrphan, fileExtension: "png")
        let orphanPath = store.url(digest: orphan, fileExtension: "png").path
        try Self.age(orphanPath, by: 3_600)
        let leftover = store.root.appendingPathComponent("0a/.\(orphan).123.tmp").path
        _ = FileManager.default.createFile(atPath: leftover, contents: Data("partial".utf8))
        try Self.age(leftover, by: 3_600)
        let referenced = try fixture.rewards().flatMap { [$0.images!.stickerPath, $0.images!.storyPath!] }
        for path in referenced { try Self.age(fixture.directory.file("data/" + path), by: 86_400) }
        let collector = ImageGarbageCollector(backfill: fixture.domain.backfill, settings: fixture.settings)

        let dryRun = try collector.collect(dryRun: true)
        #expect(dryRun.removedFiles == ["images/0a/\(orphan).png"])
        #expect(dryRun.removedTemporaryFiles == ["images/0a/.\(orphan).123.tmp"])
        #expect(FileManager.default.fileExists(atPath: orphanPath) && FileManager.default.fileExists(atPath: leftover))

        let report = try collector.collect(dryRun: false)
        #expect(report.removedFiles == dryRun.removedFiles && report.removedTemporaryFiles == dryRun.removedTemporaryFiles)
        #expect(report.removedBytes == 3 + 7)
        #expect(report.keptReferenced == Set(referenced).count)
        #expect(report.keptRecent == 1)
        #expect(!FileManager.default.fileExists(atPath: orphanPath) && !FileManager.default.fileExists(atPath: leftover))
        #expect(store.contains(digest: recentOrphan, fileExtension: "png"))
        #expect(referenced.allSatisfy { fixture.fileExists($0) })
    }

    @Test func reusingAStoredImageProtectsItFromCollection() throws {
        let fixture = try BackfillRunnerTests.importedHistory(meetups: 1, members: 1)
        _ = try fixture.backfillRunner().run(BackfillOptions())
        let images = try #require(try fixture.rewards().first?.images)
        let stickerFile = fixture.directory.file("data/" + images.stickerPath)
        try Self.age(stickerFile, by: 86_400)
        // Another reward with the same inputs is about to point at the stored file.
        #expect(fixture.service.store.touch(digest: images.stickerHash, fileExtension: "png"))
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: stickerFile)[.modificationDate] as? Date)
        #expect(Date().timeIntervalSince(modified) < 3_600)
    }
}
