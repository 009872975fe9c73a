import BelayCore
import BelayDomain
import BelayTestSupport
import Foundation

/// A club on the run's engine whose one member, `ana`, has an iPhone registered, with push on
/// for both platforms (as if APNs and FCM were configured): what the push worker's own tests
/// start from.
struct PushWorkerFixture {
    let directory: TemporaryDirectory
    let domain: DomainServices
    let member: User

    init() throws {
        directory = try TemporaryDirectory()
        let pool = try TestDatabase.migratedStore(sqlitePath: directory.file("belay.sqlite"),
                                                  migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        let settings = BuiltInSettings.domain {
            $0.push.publicBaseURL = "https://club.example"
            $0.push.defaultLocale = .en
            $0.push.platforms = Set(DevicePlatform.allCases)
        }
        domain = try DomainServices(pool: pool, clock: SystemTimeSource(), settings: settings)
        member = try domain.users.createUser(NewUser(handle: "ana", displayName: "Ana"))
        _ = try domain.push.register(DeviceRegistration(platform: .ios, token: "token-1", appID: "club.belay.app"),
                                     userID: member.id, sessionID: nil)
    }
}
