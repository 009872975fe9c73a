import BelayCore
import BelayDomain
import Foundation

/// What `belay gc` removed (or, with `--dry-run`, would remove).
public struct GarbageCollectionReport: Sendable, Hashable, Codable {
    public var dryRun: Bool
    /// Image files no reward row refers to, removed (paths relative to the data directory).
    public var removedFiles: [String] = []
    /// Temporary files a crash or a refused write left behind, removed.
    public var removedTemporaryFiles: [String] = []
    /// Collection images not used for `collectionMaxAge`, removed (they are re-rendered on demand).
    public var removedCollections: [String] = []
    /// Bytes freed.
    public var removedBytes: Int64 = 0
    /// Files kept because a row refers to them.
    public var keptReferenced = 0
    /// Unreferenced files kept because they are newer than the minimum age (a render may be
    /// about to point a row at them).
    public var keptRecent = 0
    /// Files that could not be removed, with the reason.
    public var errors: [String] = []

    public init(dryRun: Bool) { self.dryRun = dryRun }
}

/// Removes image files no reward row refers to, temporary files left behind, and collection
/// images unused for a while.
///
/// Files younger than `minimumAge` are always kept: a render stores (or touches) its files
/// before it points the reward row at them, and that happens within the job's lease, so a
/// recent unreferenced file may be about to be referenced.
public struct ImageGarbageCollector: Sendable {
    private let backfill: BackfillService
    private let settings: RenderPipelineSettings
    private let clock: any TimeSource
    /// Where reward images are when not in the directory under the data directory (a bucket).
    private let imageStore: (any RewardImageStore)?

    /// - Parameter imageStore: the reward image store when it is not the directory under the
    ///   data directory (a bucket): its images are listed and removed page by page there.
    public init(backfill: BackfillService, settings: RenderPipelineSettings, clock: any TimeSource = SystemTimeSource(),
                imageStore: (any RewardImageStore)? = nil) {
        self.backfill = backfill
        self.settings = settings
        self.clock = clock
        self.imageStore = imageStore is ImageStore ? nil : imageStore
    }

    /// Collects garbage.
    /// - Parameters:
    ///   - dryRun: report what would be removed, remove nothing.
    ///   - minimumAge: seconds; younger files are kept (default 10 minutes, far beyond a job's lease).
    ///   - collectionMaxAge: seconds a cached collection image may go unused (default 7 days).
    /// - Throws: `DomainError` when the database fails, `ImageStoreError` when a directory
    ///   cannot be listed. Files that cannot be removed are listed in `errors`.
    public func collect(dryRun: Bool, minimumAge: TimeInterval = 600,
                        collectionMaxAge: TimeInterval = 7 * 86_400) throws -> GarbageCollectionReport {
        var report = GarbageCollectionReport(dryRun: dryRun)
        let now = clock.now()
        if let imageStore {
            try collectImages(in: imageStore, dryRun: dryRun, minimumAge: minimumAge, now: now, report: &report)
        } else {
            try collectImageFiles(dryRun: dryRun, minimumAge: minimumAge, now: now, report: &report)
        }
        let collections = ImageStore(root: settings.collectionsDirectory)
        for file in try listing(collections) {
            let path = RenderPipelineSettings.collectionsFolder + "/" + file.url.deletingLastPathComponent().lastPathComponent + "/" + file.name
            let age = now.timeIntervalSince(modificationDate(file.url) ?? now)
            guard age >= (file.digest == nil ? minimumAge : collectionMaxAge) else { continue }
            remove(file, as: path, store: collections, dryRun: dryRun, into: \.removedCollections, report: &report)
        }
        return report
    }

    /// Unreferenced reward images of a store other than the directory (a bucket), by the age
    /// the store gives them.
    private func collectImages(in store: any RewardImageStore, dryRun: Bool, minimumAge: TimeInterval, now: Date,
                               report: inout GarbageCollectionReport) throws {
        // Listed before the references are read, as for the directory.
        let images = try store.storedImages()
        let referenced = try backfill.referencedImagePaths()
        for image in images {
            let path = image.rowPath
            if referenced.contains(path) {
                report.keptReferenced += 1
            } else if now.timeIntervalSince(image.modified ?? now) < minimumAge {
                report.keptRecent += 1
            } else {
                if !dryRun {
                    do {
                        try store.removeImage(digest: image.digest, fileExtension: image.fileExtension)
                    } catch {
                        report.errors.append("\(path): \(error)")
                        continue
                    }
                }
                report.removedFiles.append(path)
                report.removedBytes += image.size
            }
        }
    }

    private func collectImageFiles(dryRun: Bool, minimumAge: TimeInterval, now: Date, report: inout GarbageCollectionReport) throws {
        let images = ImageStore(root: settings.imagesDirectory)
        // List before reading the references: a row committed after the listing names a file
        // that is either listed-and-referenced or too recent to be removed.
        let files = try listing(images)
        let referenced = try backfill.referencedImagePaths()
        for file in files {
            let rowPath = RenderPipelineSettings.imagesFolder + "/" + file.url.deletingLastPathComponent().lastPathComponent + "/" + file.name
            let age = now.timeIntervalSince(modificationDate(file.url) ?? now)
            if file.digest == nil {
                guard age >= minimumAge else { report.keptRecent += 1; continue }
                remove(file, as: rowPath, store: images, dryRun: dryRun, into: \.removedTemporaryFiles, report: &report)
            } else if referenced.contains(rowPath) {
                report.keptReferenced += 1
            } else if age < minimumAge {
                report.keptRecent += 1
            } else {
                remove(file, as: rowPath, store: images, dryRun: dryRun, into: \.removedFiles, report: &report)
            }
        }
    }

    private func listing(_ store: ImageStore) throws -> [StoredImageFile] {
        do {
            return try store.storedFiles()
        } catch let error as ImageStoreError {
            throw error
        } catch {
            throw ImageStoreError.fromErrno(EIO, path: store.root.path, operation: "list")
        }
    }

    private func remove(_ file: StoredImageFile, as path: String, store: ImageStore, dryRun: Bool, into list: WritableKeyPath<GarbageCollectionReport, [String]>,
                        report: inout GarbageCollectionReport) {
        if !dryRun {
            do {
                try store.remove(file)
            } catch {
                report.errors.append("\(path): \(error)")
                return
            }
        }
        report[keyPath: list].append(path)
        report.removedBytes += file.size
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
