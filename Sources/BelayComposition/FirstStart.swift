import BelayCore
import BelayConfig
import BelayDomain
import BelayStorage
import Foundation

/// What `prepareDataDirectory` did on a first start.
public struct FirstStartReport: Sendable {
    /// The database created.
    public let databasePath: String
    /// The migrations applied.
    public let migrations: [String]
    /// The hold catalogue imported.
    public let catalogue: CatalogImportReport
}

/// Sets up an empty data directory the first time the server starts: creates the directory
/// and the database, applies every migration, and imports the hold catalogue from the assets.
///
/// A data directory that already has a database is left alone (nothing is migrated
/// silently; `buildApplication` refuses a database that misses migrations and says what to run).
/// - Returns: what was done, or nil when the database already existed.
/// - Throws: `ApplicationError` when the directory cannot be created, the migrations cannot
///   be read or applied, or the catalogue is invalid.
public func prepareDataDirectory(_ configuration: BelayConfiguration, clock: any TimeSource = SystemTimeSource()) throws -> FirstStartReport? {
    let directory = ClubDatabase.fileDirectory(of: configuration) ?? configuration.dataDirectory
    do {
        try createPrivateDirectory(directory)
        try createPrivateDirectory(configuration.dataDirectory)
    } catch {
        throw ApplicationError(.dataDirectoryUnusable(path: directory, reason: error.localizedDescription))
    }
    let database: ClubDatabase
    let applied: [Migration]
    do {
        // A server database is new when it has no migrations recorded; a file when it is missing.
        guard let created = try ClubDatabase.createIfNew(configuration) else { return nil }
        (database, applied) = created
    } catch let error as DatabaseError {
        throw ApplicationError(.databaseUnusable(path: ClubDatabase.location(of: configuration), reason: error.description))
    }
    let pool = database.store
    let catalogue: CatalogImportReport
    do {
        let domain = try DomainServices(pool: pool, clock: clock, settings: try DomainSettings(configuration: configuration))
        catalogue = try domain.catalog.importCatalog(assetsDirectory: configuration.assetsDirectory)
    } catch let error as DomainError {
        throw ApplicationError(.catalogueUnusable(reason: error.message))
    }
    return FirstStartReport(databasePath: database.location, migrations: applied.map(\.identifier), catalogue: catalogue)
}

/// Creates `path` (and any missing parents) when it does not exist, itself with mode 0700
/// whatever the umask: the data directory holds the database, its backups and the badge key.
/// An existing directory keeps the mode its operator gave it.
public func createPrivateDirectory(_ path: String) throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
}
