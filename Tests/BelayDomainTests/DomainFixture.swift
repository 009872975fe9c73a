import BelayCore
import BelayDomain
import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation

/// A migrated database of its own (on the engine of the run, see `TestDatabase`), a
/// temporary directory, a manual clock, a small catalogue, an admin and a host: the starting
/// point of every domain test.
final class DomainFixture: @unchecked Sendable {
    /// 2026-11-29T01:00:00Z (10:00 in Seoul).
    static let start = Date(timeIntervalSince1970: 1_795_914_000)

    let directory: TemporaryDirectory
    let databasePath: String
    let pool: any DatabaseStore
    let clock: ManualTimeSource
    let domain: DomainServices
    let admin: User
    let host: User
    private var memberCount = 0

    init(settings: DomainSettings = BuiltInSettings.domain(), importCatalog: Bool = true) throws {
        directory = try TemporaryDirectory()
        databasePath = directory.file("belay.sqlite")
        pool = try TestDatabase.migratedStore(sqlitePath: databasePath,
                                              migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        clock = ManualTimeSource(Self.start)
        domain = try DomainServices(pool: pool, clock: clock, settings: settings)
        if importCatalog {
            try Self.writeCatalog(in: directory.file("assets"))
            try domain.catalog.importCatalog(assetsDirectory: directory.file("assets"))
        }
        admin = try domain.users.createUser(NewUser(handle: "admin", displayName: "Admin", role: .admin))
        host = try domain.users.createUser(NewUser(handle: "host", displayName: "Host", role: .host))
    }

    static func migrator() throws -> Migrator {
        try Migrator.sqlite(directory: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
    }

    var hostActor: Actor { .user(host.id, role: .host) }

    /// A new member with a unique handle.
    func member(_ name: String? = nil) throws -> User {
        memberCount += 1
        let handle = name ?? "member\(memberCount)"
        return try domain.users.createUser(NewUser(handle: handle, displayName: handle.capitalized))
    }

    /// A meetup hosted by `host`, starting `startsIn` seconds from the clock's now, lasting two hours.
    func meetup(capacity: Int = 10, startsIn: TimeInterval = 3_600, place: String = "Seoul Forest Gym",
                title: String = "Evening bouldering") throws -> Meetup {
        let start = clock.now().addingTimeInterval(startsIn)
        return try domain.meetups.create(
            NewMeetup(title: title, placeName: place, startsAt: start, endsAt: start.addingTimeInterval(7_200),
                      timeZone: "Asia/Seoul", capacity: capacity, hostID: host.id),
            by: hostActor)
    }

    /// Joins and checks in a member by the host.
    @discardableResult
    func checkedIn(_ member: User, at meetup: Meetup) throws -> CheckInResult {
        _ = try domain.attendance.join(meetupID: meetup.id, memberID: member.id, by: .user(member.id, role: .member))
        return try domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: member.id, proof: .host), by: hostActor)
    }

    // MARK: Catalogue fixture

    struct HoldEntry {
        let id: String
        let rarity: String
        let milestoneOnly: Bool
    }

    static let fixtureHolds: [HoldEntry] = [
        HoldEntry(id: "jug-gold", rarity: "epic", milestoneOnly: true),
        HoldEntry(id: "crimp-silver", rarity: "epic", milestoneOnly: true),
        HoldEntry(id: "jug-crimson", rarity: "common", milestoneOnly: false),
        HoldEntry(id: "jug-azure", rarity: "common", milestoneOnly: false),
        HoldEntry(id: "crimp-lime", rarity: "common", milestoneOnly: false),
        HoldEntry(id: "sloper-teal", rarity: "uncommon", milestoneOnly: false),
        HoldEntry(id: "pinch-amber", rarity: "uncommon", milestoneOnly: false),
        HoldEntry(id: "volume-violet", rarity: "rare", milestoneOnly: false),
        HoldEntry(id: "jug-prism", rarity: "epic", milestoneOnly: false),
    ]

    static let fixtureBackgrounds = ["wall-dusk", "crag-sunset", "gym-night"]

    /// Writes `holds/catalog.json` and `backgrounds/catalog.json` (with empty artwork files).
    static func writeCatalog(in assets: String, holds: [HoldEntry] = fixtureHolds, backgrounds: [String] = fixtureBackgrounds,
                             nameSuffix: String = "") throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: assets + "/holds", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: assets + "/backgrounds", withIntermediateDirectories: true)
        let holdEntries = holds.map { hold in
            _ = fileManager.createFile(atPath: "\(assets)/holds/\(hold.id).png", contents: Data())
            return """
                {"id":"\(hold.id)","name":"\(hold.id.capitalized)\(nameSuffix)","type":"\(hold.id.split(separator: "-")[0])",\
                "color":"#C8102E","rarity":"\(hold.rarity)","artwork":"\(hold.id).png","milestone_only":\(hold.milestoneOnly)}
                """
        }
        try "{\"version\":1,\"holds\":[\(holdEntries.joined(separator: ","))]}"
            .write(toFile: assets + "/holds/catalog.json", atomically: true, encoding: .utf8)
        let backgroundEntries = backgrounds.map { id in
            _ = fileManager.createFile(atPath: "\(assets)/backgrounds/\(id).png", contents: Data())
            return "{\"id\":\"\(id)\",\"name\":\"\(id)\",\"file\":\"\(id).png\",\"top_color\":\"#1E3C72\",\"bottom_color\":\"#2A5298\"}"
        }
        try "{\"version\":1,\"backgrounds\":[\(backgroundEntries.joined(separator: ","))]}"
            .write(toFile: assets + "/backgrounds/catalog.json", atomically: true, encoding: .utf8)
    }
}

/// The refusal reason of `body`'s `DomainError`, or nil when it did not throw one.
func refusal(_ body: () throws -> Void) -> RefusalReason? {
    do {
        try body()
        return nil
    } catch let error as DomainError {
        return error.reason
    } catch {
        return nil
    }
}
