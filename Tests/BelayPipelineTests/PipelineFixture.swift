import BelayCore
import BelayDomain
@testable import BelayPipeline
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Synchronization

/// A migrated database with a small catalogue whose artworks are tiny text files, a manual
/// clock, a data directory, and helpers to make historical check-ins: the starting point of
/// every pipeline test. Rendering uses `FakeRewardRenderer`, which is fast and records its calls.
final class PipelineFixture: @unchecked Sendable {
    /// 2026-11-29T01:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_795_914_000)

    let directory: TemporaryDirectory
    /// SQLite in the fixture's directory, or a database of its own on the test cluster when
    /// the run is on PostgreSQL (`TEST_DATABASE_ENGINE`).
    let pool: any DatabaseStore
    let clock: ManualTimeSource
    let domain: DomainServices
    let settings: RenderPipelineSettings
    let service: RenderService
    let counters = FakeRenderCounters()
    let host: User
    private var userCount = 0

    static let holds = ["jug-gold", "jug-crimson", "crimp-lime", "sloper-teal", "volume-violet"]
    static let backgrounds = ["wall-dusk", "crag-sunset"]

    init(renderJobs: RenderJobPolicy = RenderJobPolicy(maxAttempts: 3, retryBaseSeconds: 0, leaseSeconds: 60),
         importCatalog: Bool = true, database: DatabaseConfiguration = DatabaseConfiguration()) throws {
        directory = try TemporaryDirectory(prefix: "belay-pipeline")
        let migrations = BelayProcess.packageRoot.appendingPathComponent("Migrations").path
        if TestDatabase.isPostgreSQL {
            pool = try TestDatabase.migratedStore(sqlitePath: "", migrations: migrations)
        } else {
            let sqlite = try SQLitePool(path: directory.file("belay.sqlite3"), configuration: database)
            try Migrator.sqlite(directory: migrations).migrate(sqlite)
            pool = sqlite
        }
        clock = ManualTimeSource(Self.start)
        domain = try DomainServices(pool: pool, clock: clock, settings: BuiltInSettings.domain { $0.renderJobs = renderJobs })
        try Self.writeCatalog(in: directory.file("assets"))
        if importCatalog { try domain.catalog.importCatalog(assetsDirectory: directory.file("assets")) }
        try FileManager.default.createDirectory(atPath: directory.file("data/images"), withIntermediateDirectories: true)
        settings = BuiltInSettings.renderPipeline(dataDirectory: directory.file("data"), assetsDirectory: directory.file("assets")) {
            $0.pollInterval = 0.05
            $0.storageRetryDelay = 60
        }
        service = try RenderService(queue: domain.renderJobs, clock: clock, settings: settings)
        host = try domain.users.createUser(NewUser(handle: "host", displayName: "Host", role: .host))
    }

    /// Makes renderers that share this fixture's counters and template version.
    var rendererFactory: RewardImageRendererFactory {
        let counters = counters
        return { FakeRewardRenderer(counters: counters) }
    }

    func workerContext(_ owner: String = "test:1:worker") -> RenderWorkerContext {
        RenderWorkerContext(renderer: FakeRewardRenderer(counters: counters), owner: owner)
    }

    /// A request of the project's own artwork (`Assets/`), for tests of the real renderer.
    static func assetsRequest(hold: String, background: String, place: String, stickerScale: Int = 3) -> RewardImageRequest {
        let assets = BelayProcess.packageRoot.appendingPathComponent("Assets")
        return RewardImageRequest(
            holdArtworkPath: assets.appendingPathComponent("holds/\(hold).png").path,
            backgroundPath: assets.appendingPathComponent("backgrounds/\(background).png").path,
            topColor: "#1E3C72", bottomColor: "#2A5298", placeName: place, dateText: "2026.11.29 (일)", stickerScale: stickerScale)
    }

    func importCatalog() throws { try domain.catalog.importCatalog(assetsDirectory: directory.file("assets")) }

    /// Replaces an artwork with bytes the fake renderer refuses, as a real one refuses a corrupt PNG.
    func corruptArtwork(_ holdID: String) throws {
        try Data("CORRUPT".utf8).write(to: URL(fileURLWithPath: directory.file("assets/holds/\(holdID).png")))
    }

    func repairArtwork(_ holdID: String) throws {
        try Data("ARTWORK \(holdID)".utf8).write(to: URL(fileURLWithPath: directory.file("assets/holds/\(holdID).png")))
    }

    func member() throws -> User {
        userCount += 1
        return try domain.users.createUser(NewUser(handle: "member\(userCount)", displayName: "Member \(userCount)"))
    }

    /// `meetups` meetups a day apart, each with the same `members` checked-in members, made at
    /// the time they happened; the clock ends a day after the last start.
    /// - Returns: the meetups.
    @discardableResult
    func history(meetups: Int, members: Int, place: (Int) -> String = { "Gym \($0 % 3)" }) throws -> [Meetup] {
        let people = try (0..<members).map { _ in try member() }
        var made: [Meetup] = []
        for index in 0..<meetups {
            let start = clock.now().addingTimeInterval(3_600)
            let meetup = try domain.meetups.create(
                NewMeetup(title: "Session \(index)", placeName: place(index), startsAt: start, endsAt: start.addingTimeInterval(7_200),
                          timeZone: "Asia/Seoul", capacity: 100, hostID: host.id),
                by: .user(host.id, role: .host))
            for person in people {
                _ = try domain.attendance.join(meetupID: meetup.id, memberID: person.id, by: .user(person.id, role: .member))
            }
            clock.set(start.addingTimeInterval(600))
            for person in people {
                _ = try domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: person.id, proof: .host),
                                                by: .user(host.id, role: .host))
            }
            clock.set(start.addingTimeInterval(86_400))
            made.append(meetup)
        }
        return made
    }

    /// Every reward, oldest first.
    func rewards() throws -> [Reward] {
        let ids = try pool.read { db in try db.query("SELECT id FROM rewards ORDER BY id", []) { try $0.get("id", as: Int64.self) } }
        return try ids.map { try domain.rewards.reward(id: $0) }
    }

    /// Every meetup, oldest first.
    func meetups() throws -> [Meetup] {
        let ids = try pool.read { db in try db.query("SELECT id FROM meetups ORDER BY id", []) { try $0.get("id", as: Int64.self) } }
        return try ids.map { try domain.meetups.meetup(id: $0) }
    }

    func checkedInCount() throws -> Int {
        try pool.read { try $0.scalar("SELECT count(*) FROM attendances WHERE status = 'checked_in'", as: Int.self) } ?? 0
    }

    func fileExists(_ rowPath: String?) -> Bool {
        guard let rowPath else { return false }
        return service.rowFileExists(rowPath)
    }

    func backfillRunner(leaseDuration: TimeInterval = 30, identity: WorkerIdentity = .current,
                        retry: FailedRenderRetryPolicy = FailedRenderRetryPolicy()) -> BackfillRunner {
        BackfillRunner(domain: domain, service: service, rendererFactory: rendererFactory, identity: identity,
                       leaseDuration: leaseDuration, retryPolicy: retry)
    }

    static func writeCatalog(in assets: String) throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: assets + "/holds", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: assets + "/backgrounds", withIntermediateDirectories: true)
        let holdEntries = holds.enumerated().map { index, id in
            _ = fileManager.createFile(atPath: "\(assets)/holds/\(id).png", contents: Data("ARTWORK \(id)".utf8))
            let rarity = ["epic", "common", "common", "uncommon", "rare"][index]
            return """
                {"id":"\(id)","name":"\(id)","type":"\(id.split(separator: "-")[0])","color":"#C8102E","rarity":"\(rarity)",\
                "artwork":"\(id).png","milestone_only":\(index == 0)}
                """
        }
        try "{\"version\":1,\"holds\":[\(holdEntries.joined(separator: ","))]}"
            .write(toFile: assets + "/holds/catalog.json", atomically: true, encoding: .utf8)
        let backgroundEntries = backgrounds.map { id in
            _ = fileManager.createFile(atPath: "\(assets)/backgrounds/\(id).png", contents: Data("BACKGROUND \(id)".utf8))
            return "{\"id\":\"\(id)\",\"name\":\"\(id)\",\"file\":\"\(id).png\",\"top_color\":\"#1E3C72\",\"bottom_color\":\"#2A5298\"}"
        }
        try "{\"version\":1,\"backgrounds\":[\(backgroundEntries.joined(separator: ","))]}"
            .write(toFile: assets + "/backgrounds/catalog.json", atomically: true, encoding: .utf8)
    }
}

/// What fake renderers did, shared by all of a fixture's renderers.
final class FakeRenderCounters: Sendable {
    private let state = Mutex((renders: 0, version: 1, bakes: 0, preloads: 0))

    /// Calls of `render`.
    var renders: Int { state.withLock { $0.renders } }
    /// The template version the renderers report.
    var templateVersion: Int {
        get { state.withLock { $0.version } }
        set { state.withLock { $0.version = newValue } }
    }

    func countRender() { state.withLock { $0.renders += 1 } }

    /// Calls of `bakeBadge`.
    var bakes: Int { state.withLock { $0.bakes } }

    func countBake() { state.withLock { $0.bakes += 1 } }

    /// Calls of `preloadArtwork`.
    var preloads: Int { state.withLock { $0.preloads } }

    func countPreload() { state.withLock { $0.preloads += 1 } }
}

/// A renderer that reads the artwork files (so a changed or corrupt file matters, as with the
/// real one) and "draws" images whose bytes spell their content key.
final class FakeRewardRenderer: RewardImageRenderer {
    struct CorruptArtwork: Error, CustomStringConvertible {
        let path: String
        var description: String { "'\(path)' is a corrupt PNG (bad signature). Export the image again." }
    }

    private let counters: FakeRenderCounters

    init(counters: FakeRenderCounters) { self.counters = counters }

    var templateVersion: Int { counters.templateVersion }

    func contentKeys(for request: RewardImageRequest) throws -> RewardImageKeys {
        let hold = try artwork(request.holdArtworkPath)
        let background = try artwork(request.backgroundPath)
        let sticker = "sticker/v\(templateVersion)/\(hold)/\(background)/\(request.placeName)/\(request.dateText)/\(request.stickerScale)"
        // Like the real renderer's fonts, this one has no Egyptian hieroglyphs.
        let missing = request.placeName.filter { $0.unicodeScalars.contains { (0x13000...0x1342F).contains($0.value) } }
        // As with the real renderer: the credential changes the sticker, not the story.
        return RewardImageKeys(sticker: ContentKey(canonical: sticker + (request.badgeCredential.map { Self.baked($0) } ?? "")),
                               story: ContentKey(canonical: "story/\(request.topColor)/\(request.bottomColor)/\(sticker)"),
                               missingCharacters: Array(missing))
    }

    func bakeBadge(_ credential: String, into sticker: [UInt8]) throws -> [UInt8] {
        counters.countBake()
        return sticker + Array(Self.baked(credential).utf8)
    }

    private static func baked(_ credential: String) -> String { "/badge=\(credential)" }

    func preloadArtwork(for request: RewardImageRequest) throws {
        counters.countPreload()
        _ = try artwork(request.backgroundPath)
        _ = try artwork(request.holdArtworkPath)
    }

    func render(_ request: RewardImageRequest, sticker: Bool, story: Bool) throws -> RewardImageFiles {
        counters.countRender()
        let keys = try contentKeys(for: request)
        return RewardImageFiles(sticker: sticker ? Array("PNG \(keys.sticker.canonical)".utf8) : nil,
                                story: story ? Array("PNG \(keys.story.canonical)".utf8) : nil)
    }

    private func artwork(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw CorruptArtwork(path: path) }
        let text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("CORRUPT") { throw CorruptArtwork(path: path) }
        return text
    }
}
