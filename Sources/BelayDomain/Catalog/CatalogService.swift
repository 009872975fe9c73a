import BelayCore
import BelayStorage
import Foundation

/// The hold and background catalogue: importing `Assets/holds/catalog.json` and
/// `Assets/backgrounds/catalog.json`, and listing what is there.
///
/// An import checks both files completely before writing, then applies them in one
/// transaction: new entries are added, changed ones updated, and entries missing from the
/// files are retired, never deleted (rewards already given keep their hold).
public final class CatalogService: Sendable {
    private let pool: any DatabaseStore
    private let clock: any TimeSource

    public init(pool: any DatabaseStore, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// Imports both catalogues from `assetsDirectory` (which holds `holds/` and `backgrounds/`).
    /// Importing the same files again changes nothing.
    /// - Throws: `DomainError.invalidCatalog` naming the file, entry and problem (nothing is
    ///   written then), or `storage_failure`.
    @discardableResult
    public func importCatalog(assetsDirectory: String) throws -> CatalogImportReport {
        let holds = try CatalogFileReader.holds(assetsDirectory: assetsDirectory)
        let backgrounds = try CatalogFileReader.backgrounds(assetsDirectory: assetsDirectory)
        let now = clock.now()
        return try domainCall {
            try pool.write { db in
                var report = CatalogImportReport()
                let existingHolds = Dictionary(uniqueKeysWithValues: try CatalogRepository.holds(in: db).map { ($0.id, $0) })
                for hold in holds {
                    if let existing = existingHolds[hold.id] {
                        if existing == hold { report.holdsUnchanged += 1; continue }
                        report.holdsUpdated += 1
                    } else {
                        report.holdsAdded += 1
                    }
                    try CatalogRepository.upsert(hold, at: now, in: db)
                }
                let listedHolds = Set(holds.map(\.id))
                for hold in existingHolds.values where !listedHolds.contains(hold.id) && !hold.isRetired {
                    try CatalogRepository.retireHold(id: hold.id, at: now, in: db)
                    report.holdsRetired += 1
                }

                let existingBackgrounds = Dictionary(uniqueKeysWithValues: try CatalogRepository.backgrounds(in: db).map { ($0.id, $0) })
                for background in backgrounds {
                    if let existing = existingBackgrounds[background.id] {
                        if existing == background { report.backgroundsUnchanged += 1; continue }
                        report.backgroundsUpdated += 1
                    } else {
                        report.backgroundsAdded += 1
                    }
                    try CatalogRepository.upsert(background, at: now, in: db)
                }
                let listedBackgrounds = Set(backgrounds.map(\.id))
                for background in existingBackgrounds.values where !listedBackgrounds.contains(background.id) && !background.isRetired {
                    try CatalogRepository.retireBackground(id: background.id, at: now, in: db)
                    report.backgroundsRetired += 1
                }
                if report != CatalogImportReport(holdsUnchanged: report.holdsUnchanged, backgroundsUnchanged: report.backgroundsUnchanged) {
                    try CatalogRepository.bumpGeneration(in: db)
                }
                return report
            }
        }
    }

    /// Holds by id; retired ones only when asked.
    public func holds(includeRetired: Bool = false) throws -> [Hold] {
        try domainCall { try pool.read { try CatalogRepository.holds(in: $0) } }.filter { includeRetired || !$0.isRetired }
    }

    /// One hold, retired or not.
    /// - Throws: `DomainError.holdNotFound`.
    public func hold(id: String) throws -> Hold {
        guard let hold = try holds(includeRetired: true).first(where: { $0.id == id }) else {
            throw DomainError(.holdNotFound, "No hold has id \(id); list holds or import the catalogue")
        }
        return hold
    }

    /// Backgrounds by id; retired ones only when asked.
    public func backgrounds(includeRetired: Bool = false) throws -> [Background] {
        try domainCall { try pool.read { try CatalogRepository.backgrounds(in: $0) } }.filter { includeRetired || !$0.isRetired }
    }
}
