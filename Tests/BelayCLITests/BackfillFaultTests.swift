import Foundation
import Testing
import BelayAPI
import BelayConfig
import BelayPipeline
import BelaySQLite
import BelayStorage
import BelayTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A club (`ClubWorkspace`) whose attendance was imported before the hold catalogue existed:
/// `meetups` × `members` check-ins and no rewards. Renders use the real renderer, fonts and
/// artworks, a copy of its own.
final class HistoricalClub: @unchecked Sendable {
    let workspace: ClubWorkspace
    let assets: String

    /// - Parameter settings: extra `config.json` members.
    init(meetups: Int = 5, members: Int = 8, settings: String = "") throws {
        let scratch = try TemporaryDirectory(prefix: "belay-assets")
        // Each workspace gets its own copy of the artworks, so a test may damage one.
        let copy = scratch.file("Assets")
        try FileManager.default.copyItem(atPath: BelayProcess.packageRoot.appendingPathComponent("Assets").path, toPath: copy)
        assetsScratch = scratch
        assets = copy
        // Its faults are SQLite's (its file, its write lock), on either run.
        workspace = try ClubWorkspace(assetsDirectory: copy, settings: ["render": ["max_attempts": 2, "retry_base_seconds": 1]],
                                      settingsJSON: settings, engine: .sqlite)
        try workspace.succeed("migrate")
        try workspace.succeed("dev", "seed-history", "--meetups", "\(meetups)", "--members", "\(members)", "--start", "2026-01-05")
        try workspace.succeed("holds", "import")
    }

    private let assetsScratch: TemporaryDirectory

    var path: String { workspace.path }
    var imagesDirectory: String { workspace.directory.file("data/images") }

    func backgroundBackfill(_ arguments: String...) throws -> BelayChildProcess {
        try BelayChildProcess(["backfill"] + arguments, in: path)
    }

    /// Waits for a plain progress line of the rendering phase with some but not all jobs done.
    static func midRendering(_ child: BelayChildProcess) -> String? {
        child.waitForErrorLine { line in
            guard let match = line.wholeMatch(of: /rendering (\d+)\/(\d+).*/), let done = Int(match.1), let total = Int(match.2) else {
                return false
            }
            return done > 0 && done < total
        }
    }

    /// Facts about the database, read directly.
    struct State {
        var checkedIn = 0
        var rewards = 0
        var attendancesWithoutExactlyOneReward = 0
        var ready = 0
        var pending = 0
        var failed = 0
        var unfinishedJobs = 0
        var leaseRows = 0
        var images: [(sticker: String, story: String)] = []
        var failureReasons: [String: String] = [:]
    }

    /// Stops `child` (SIGSTOP) at a moment when it holds no write transaction: stops it, and
    /// while the database's write lock is taken lets it run a little and stops it again.
    func stopBetweenWrites(_ child: BelayChildProcess) throws {
        let probe = try SQLiteDatabase(path: workspace.databasePath, configuration: DatabaseConfiguration(busyTimeoutMilliseconds: 0))
        for _ in 0..<200 {
            // The probe must run only once the child has truly stopped: a thread still running
            // for a moment after SIGSTOP could take the write lock just after the probe let it go.
            guard child.stop() else {
                Issue.record("the first backfill did not stop within 10 seconds of SIGSTOP")
                return
            }
            if (try? probe.executeScript("BEGIN IMMEDIATE; ROLLBACK")) != nil { return }
            child.send(SIGCONT)
            usleep(5_000)
        }
        Issue.record("the first backfill held the write lock at every one of 200 tries")
    }

    func state() throws -> State {
        let pool = try SQLitePool(path: workspace.databasePath)
        return try pool.read { db in
            var state = State()
            state.checkedIn = try db.scalar("SELECT count(*) FROM attendances WHERE status = 'checked_in'", as: Int.self) ?? 0
            state.rewards = try db.scalar("SELECT count(*) FROM rewards", as: Int.self) ?? 0
            state.attendancesWithoutExactlyOneReward = try db.scalar("""
                SELECT count(*) FROM attendances a WHERE a.status = 'checked_in'
                  AND (SELECT count(*) FROM rewards r WHERE r.attendance_id = a.id AND r.revoked_at IS NULL) != 1
                """, as: Int.self) ?? 0
            state.ready = try db.scalar("SELECT count(*) FROM rewards WHERE render_status = 'ready'", as: Int.self) ?? 0
            state.pending = try db.scalar("SELECT count(*) FROM rewards WHERE render_status = 'pending'", as: Int.self) ?? 0
            state.failed = try db.scalar("SELECT count(*) FROM rewards WHERE render_status = 'failed'", as: Int.self) ?? 0
            state.unfinishedJobs = try db.scalar("SELECT count(*) FROM render_jobs WHERE status IN ('queued', 'running')", as: Int.self) ?? 0
            state.leaseRows = try db.scalar("SELECT count(*) FROM leases", as: Int.self) ?? 0
            state.images = try db.query("SELECT sticker_path, story_path FROM rewards WHERE sticker_path IS NOT NULL", []) {
                (try $0.get("sticker_path", as: String.self), try $0.get("story_path", as: String.self))
            }
            for (hold, reason) in try db.query("SELECT hold_id, failure_reason FROM rewards WHERE render_status = 'failed'", [], {
                (try $0.get("hold_id", as: String.self), try $0.get("failure_reason", as: String?.self) ?? "")
            }) { state.failureReasons[hold] = reason }
            return state
        }
    }

    /// Every image a row points at is a whole PNG of the right size.
    func everyRowPointsAtWholeImages(_ state: State) -> Bool {
        state.images.allSatisfy { sticker, story in
            let stickerSize = PNGFile.dimensions(atPath: workspace.directory.file("data/" + sticker))
            let storySize = PNGFile.dimensions(atPath: workspace.directory.file("data/" + story))
            return stickerSize?.width == 720 && stickerSize?.height == 960 && storySize?.width == 1080 && storySize?.height == 1920
        }
    }

    /// Every finished (not temporary) file in the image store is a whole PNG.
    func everyStoredFileIsWhole() throws -> Bool {
        guard let enumerator = FileManager.default.enumerator(atPath: imagesDirectory) else { return true }
        for case let relative as String in enumerator where relative.hasSuffix(".png") && !(relative as NSString).lastPathComponent.hasPrefix(".") {
            if PNGFile.dimensions(atPath: imagesDirectory + "/" + relative) == nil { return false }
        }
        return true
    }
}

/// The backfill survives what servers live through: SIGKILL half-way, a second run at the
/// same time, a corrupt artwork, a data directory that turns read-only. Each test runs the
/// real `belay` binary on a real database with the real renderer.
@Suite(.serialized)
struct BackfillFaultTests {
    @Test func killedHalfWayTheNextRunFinishesEverythingExactlyOnce() throws {
        let club = try HistoricalClub()
        let child = try club.backgroundBackfill("--jobs", "1")
        let progressLine = HistoricalClub.midRendering(child)
        let line = try #require(progressLine, "no progress line")
        child.send(SIGKILL)
        let killed = child.wait()
        #expect(killed.status == 128 + SIGKILL)

        let halfway = try club.state()
        #expect(halfway.rewards == halfway.checkedIn, "awards commit before rendering starts (\(line))")
        #expect(halfway.ready > 0 && halfway.ready < halfway.rewards, "killed in the middle of rendering")
        #expect(club.everyRowPointsAtWholeImages(halfway), "rows only ever point at whole files")
        #expect(halfway.leaseRows == 1, "the dead run's lease is still there")

        let rerun = try club.workspace.run("backfill", "--json")
        #expect(rerun.status == 0, "\(rerun)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.standardOutput.utf8)) as? [String: Any])
        #expect(summary["awarded"] as? Int == 0, "nothing awarded twice")
        #expect((summary["rendered"] as? Int ?? 0) + (summary["reused_jobs"] as? Int ?? 0) == halfway.rewards - halfway.ready,
                "finished work is not redone: only the rewards that were not ready are rendered")
        let renderSeconds = try #require(summary["render_seconds"] as? Double)
        let renderCPUSeconds = try #require(summary["render_cpu_seconds"] as? Double)
        let duration = try #require(summary["duration_seconds"] as? Double)
        #expect(renderSeconds > 0 && renderCPUSeconds > 0, "the time spent drawing is reported")
        #expect(renderSeconds <= duration * 2, "two workers (backfill.jobs) cannot draw for longer than twice the run")

        let after = try club.state()
        #expect(after.checkedIn == 40)
        #expect(after.attendancesWithoutExactlyOneReward == 0)
        #expect(after.ready == after.rewards && after.rewards == 40)
        #expect(after.unfinishedJobs == 0, "no job is stuck")
        #expect(after.leaseRows == 0)
        #expect(club.everyRowPointsAtWholeImages(after))
        #expect(try club.everyStoredFileIsWhole())
    }

    @Test func aSecondBackfillSaysWhoHoldsTheLeaseAndExitsNonZero() throws {
        let club = try HistoricalClub(meetups: 3, members: 6)
        let first = try club.backgroundBackfill("--jobs", "1")
        // Rendering has begun: the lease is held, and 18 renders (seconds of work) remain.
        let started = first.waitForErrorLine { $0.hasPrefix("rendering") }
        _ = try #require(started, "the first backfill printed no progress")
        // Renders take milliseconds now, so the first run is held still while the second tries:
        // stopped, it keeps its lease exactly as a busy run does. It is stopped between two of
        // its writes, not inside one (stopped holding SQLite's write lock, it would make the
        // second wait for the lock and give up as busy, which is not what this tests).
        try club.stopBetweenWrites(first)
        let second = try club.workspace.run("backfill")
        let stillRunning = first.waitForErrorLine(timeout: 0) { $0.hasPrefix("rendering 18/18") } == nil
        first.send(SIGCONT)

        #expect(stillRunning, "the first run was still rendering when the second started")
        #expect(second.status == 1)
        #expect(second.standardError.contains("Another backfill is running"))
        #expect(second.standardError.contains("pid \(first.pid)"))
        #expect(second.standardError.contains("(belay backfill --jobs 1)"))
        let done = first.wait()
        #expect(done.status == 0, "\(done)")
        let state = try club.state()
        #expect(state.ready == 18 && state.unfinishedJobs == 0)
    }

    @Test func aCorruptArtworkFailsOnlyItsOwnRewardsNamingTheFile() throws {
        let club = try HistoricalClub(meetups: 3, members: 6)
        // Every member's first check-in earns the milestone hold jug-gold.
        let artwork = club.assets + "/holds/jug-gold.png"
        let original = try #require(FileManager.default.contents(atPath: artwork))
        try original.prefix(original.count / 3).write(to: URL(fileURLWithPath: artwork))

        let result = try club.workspace.run("backfill", "--jobs", "2")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError.contains("6 rewards failed"))
        let state = try club.state()
        #expect(state.failed == 6 && state.ready == 12 && state.unfinishedJobs == 0)
        #expect(state.failureReasons.keys.sorted() == ["jug-gold"])
        #expect(state.failureReasons["jug-gold"]?.contains("holds/jug-gold.png") == true)
        #expect(club.everyRowPointsAtWholeImages(state))
    }

    @Test(.enabled(if: ReadOnlyDirectory.isAvailable, "needs a way to make a directory read-only"))
    func aDataDirectoryTurnedReadOnlyStopsCleanlyAndTheNextRunCompletes() throws {
        let club = try HistoricalClub()
        try FileManager.default.createDirectory(atPath: club.imagesDirectory, withIntermediateDirectories: true)
        let readOnly = try ReadOnlyDirectory(club.imagesDirectory)
        let child = try club.backgroundBackfill("--jobs", "1")
        let progressLine = HistoricalClub.midRendering(child)
        _ = try #require(progressLine, "no progress line")
        child.stop()
        try readOnly.makeReadOnly()
        child.send(SIGCONT)
        let stopped = child.wait()

        #expect(stopped.status == 1, "\(stopped)")
        #expect(stopped.standardError.contains("not writable"))
        #expect(stopped.standardError.contains("Run it again once the data directory is writable"))
        let halfway = try club.state()
        #expect(halfway.ready > 0 && halfway.pending > 0 && halfway.failed == 0)
        #expect(club.everyRowPointsAtWholeImages(halfway), "nothing half-written is referenced")
        #expect(try club.everyStoredFileIsWhole())

        try readOnly.makeWritable()
        let rerun = try club.workspace.run("backfill")
        #expect(rerun.status == 0, "\(rerun)")
        let after = try club.state()
        #expect(after.ready == 40 && after.unfinishedJobs == 0 && after.failed == 0)
        #expect(club.everyRowPointsAtWholeImages(after))
    }
}
