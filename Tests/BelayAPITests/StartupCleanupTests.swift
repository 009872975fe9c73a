import BelayComposition
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A render killed mid-write leaves `.<digest>.png.<n>.tmp` beside the images; `belay serve` and
/// `belay worker` remove the stale ones when they start, and leave a young one (another node's
/// write in progress on a shared data directory) and every real image alone.
@Suite struct StartupCleanupTests {
    /// Creates `name` under the data directory's `folder/ab/` with its modification time `age`
    /// seconds before `now`.
    static func leftover(_ fixture: APIFixture, _ folder: String, _ name: String, age: TimeInterval) throws -> String {
        let directory = fixture.directory.file("data/\(folder)/ab")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try Data("partial".utf8).write(to: URL(fileURLWithPath: path))
        let instant = fixture.clock.now().timeIntervalSince1970 - age
        var times = [timespec(tv_sec: Int(instant), tv_nsec: 0), timespec(tv_sec: Int(instant), tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return path
    }

    @Test("starting the worker removes temporary image files older than five minutes, and nothing else")
    func workerStartRemovesStaleTemporaryFiles() throws {
        let fixture = try APIFixture()
        let hour: TimeInterval = 3_600
        let stale = try Self.leftover(fixture, "images", ".abcd.png.1234.tmp", age: hour)
        let staleCollection = try Self.leftover(fixture, "collections", ".abef.png.99.tmp", age: hour)
        let inProgress = try Self.leftover(fixture, "images", ".abcd.png.5678.tmp", age: 10)
        let image = try Self.leftover(fixture, "images", "abcd.png", age: hour)
        try fixture.application.startWithoutHTTP()
        defer { fixture.application.stopWithoutHTTP() }
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(!FileManager.default.fileExists(atPath: staleCollection))
        #expect(FileManager.default.fileExists(atPath: inProgress), "a write younger than five minutes may still be going on")
        #expect(FileManager.default.fileExists(atPath: image), "images are belay gc's to judge")
    }

    @Test("a first start creates the data directory 0700 under umask 022")
    func dataDirectoryIsPrivate() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let fixture = try APIFixture()
        var info = stat()
        #expect(stat(fixture.directory.file("data"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test("starting the server removes them too")
    func serveStartRemovesStaleTemporaryFiles() throws {
        let fixture = try APIFixture()
        let stale = try Self.leftover(fixture, "images", ".abcd.png.1234.tmp", age: 600)
        try fixture.application.start()
        defer { fixture.application.stop(gracePeriod: .seconds(1)) }
        #expect(!FileManager.default.fileExists(atPath: stale))
    }
}
