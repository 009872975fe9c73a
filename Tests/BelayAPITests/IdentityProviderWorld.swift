import BelayDomain
import BelayTestSupport

/// What the use-case tests run against without HTTP: the identity provider fixture (Apple's
/// and Google's keys, Apple's token endpoints, PyJWT behind them) and the domain on a migrated
/// database of the run's engine.
struct IdentityProviderWorld {
    let directory: TemporaryDirectory
    let provider: IdentityProviderProcess
    let domain: DomainServices

    init() throws {
        directory = try TemporaryDirectory()
        provider = try IdentityProviderProcess(in: directory)
        let store = try TestDatabase.migratedStore(sqlitePath: directory.file("club.sqlite"),
                                                   migrations: BelayProcess.packageRoot.appendingPathComponent("Migrations").path)
        domain = try DomainServices(pool: store, settings: BuiltInSettings.domain())
    }
}
