import BelayCore
import BelayTestSupport
import Foundation
import Testing

@Suite struct AtomicFileTests {
    @Test func replacesTheWholeFileAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let path = directory.file("card.png")
        try AtomicFile.write(Array("old".utf8), to: path)
        try AtomicFile.write(Array("new contents".utf8), to: path, permissions: 0o600)
        #expect(FileManager.default.contents(atPath: path) == Data("new contents".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["card.png"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func theDestinationChangesOnlyAtCommit() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let path = directory.file("collection.png")
        try AtomicFile.write(Array("before".utf8), to: path)
        let file = try AtomicFile(path: path)
        try file.write(Array("after, written in ".utf8))
        try file.write(Array("two parts".utf8))
        #expect(FileManager.default.contents(atPath: path) == Data("before".utf8))
        #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
        try file.commit()
        #expect(FileManager.default.contents(atPath: path) == Data("after, written in two parts".utf8))
        #expect(!FileManager.default.fileExists(atPath: file.temporaryPath))
    }

    @Test func anAbandonedWriteLeavesTheOldFileAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let path = directory.file("sticker.png")
        try AtomicFile.write(Array("kept".utf8), to: path)
        var temporaryPath = ""
        do {
            let file = try AtomicFile(path: path)
            temporaryPath = file.temporaryPath
            try file.write(Array("half".utf8))
        }
        #expect(!FileManager.default.fileExists(atPath: temporaryPath))
        #expect(FileManager.default.contents(atPath: path) == Data("kept".utf8))
    }

    @Test func installsAFileSomeoneElseWrote() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let path = directory.file("story.jpg")
        let temporaryPath = AtomicFile.temporaryPath(for: path)
        #expect(temporaryPath.hasPrefix(directory.path + "/.story.jpg."))
        #expect(temporaryPath.hasSuffix(".tmp"))
        try Data("jpeg".utf8).write(to: URL(fileURLWithPath: temporaryPath))
        try AtomicFile.install(temporaryPath, at: path)
        #expect(FileManager.default.contents(atPath: path) == Data("jpeg".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["story.jpg"])
    }

    @Test(.enabled(if: !PageCache.isMemoryBacked(NSTemporaryDirectory()), "tmpfs keeps every page"))
    func aReleasedFileLeavesNoPagesInTheCacheAndAKeptOneDoes() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let bytes = [UInt8](repeating: 0x5A, count: 1 << 20)
        let kept = directory.file("kept.png"), released = directory.file("released.png")
        try AtomicFile.write(bytes, to: kept)
        try AtomicFile.write(bytes, to: released, caching: .release)
        #expect((PageCache.residentPages(ofFileAt: kept) ?? 0) > 128)
        #expect(PageCache.residentPages(ofFileAt: released) == 0)
        #expect(FileManager.default.contents(atPath: released) == Data(bytes))

        let installed = directory.file("installed.png")
        let temporaryPath = AtomicFile.temporaryPath(for: installed)
        try Data(bytes).write(to: URL(fileURLWithPath: temporaryPath))
        try AtomicFile.install(temporaryPath, at: installed, caching: .release)
        #expect(PageCache.residentPages(ofFileAt: installed) == 0)
    }

    @Test func aMissingDirectoryIsNamedWithTheSystemsReason() throws {
        let directory = try TemporaryDirectory(prefix: "belay-core")
        let path = directory.file("missing/sticker.png")
        let error = #expect(throws: FileWriteError.self) { try AtomicFile.write([1, 2, 3], to: path) }
        #expect(error?.step == .create)
        #expect(error?.code == ENOENT)
        #expect(error?.path == path)
        #expect(error?.description == "cannot create a file beside \(path): No such file or directory")
    }
}
