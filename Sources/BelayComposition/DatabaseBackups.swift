import BelayConfig
import BelayObjectStore
import BelaySQLite
import Foundation

/// A SQLite club's backups in a bucket, reached with the `images.s3.*` endpoint and key (the
/// bucket and prefix come from the `s3://` address): an online backup, gzip-compressed and
/// uploaded (as a multipart upload when large), named by its UTC time so names sort by age;
/// listing, restoring into a file that is then checked, and keeping only the newest N.
public struct DatabaseBackups: Sendable {
    public let location: BackupLocation
    let client: S3Client
    /// Compressed backups larger than this go up in parts of this size.
    let partSize: Int

    /// - Throws: `ApplicationError` naming the setting when the bucket cannot be reached.
    public init(configuration: BelayConfiguration, location: BackupLocation, partSize: Int = 8 * 1024 * 1024,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var settings = try ImageStorage.objectStoreSettings(configuration, environment: environment)
        settings.bucket = location.bucket
        let credentials = try ImageStorage.credentialProvider(for: settings)
        credentials?.startRefreshing()
        do {
            client = try S3Client(settings: settings, credentials: credentials)
        } catch let error as ObjectStoreError {
            throw ApplicationError(.invalidSetting(key: ImageStorage.settingKey(of: error), message: "\(error)"))
        }
        self.location = location
        self.partSize = max(partSize, 5 * 1024 * 1024)
    }

    /// Runs `body`, any failure said as a `DatabaseBackupError`.
    private static func explained<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseBackupError {
            throw error
        } catch {
            throw DatabaseBackupError(description: "\(error)")
        }
    }

    /// `belay-20261205T083000Z.sqlite3.gz` for `date`.
    static func name(at date: Date) -> String { "belay-\(SigV4Signer.timestamp(date)).sqlite3.gz" }

    /// Backs `file` up into the bucket.
    /// - Parameter scratchDirectory: where the uncompressed snapshot is written first (removed after).
    /// - Throws: `DatabaseBackupError` saying whether the snapshot or the upload failed.
    public func backUp(_ file: ClubDatabaseFile, scratchDirectory: String, at date: Date = Date()) throws -> StoredBackup {
        try Self.explained { try upload(file, scratchDirectory: scratchDirectory, at: date) }
    }

    private func upload(_ file: ClubDatabaseFile, scratchDirectory: String, at date: Date) throws -> StoredBackup {
        let snapshot = scratchDirectory + "/.belay-backup-\(UUID().uuidString).sqlite3"
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        try file.backup(to: snapshot)
        guard let data = FileManager.default.contents(atPath: snapshot) else {
            throw DatabaseBackupError(description: "the snapshot \(snapshot) could not be read back")
        }
        let compressed = try Gzip.compress(Array(data))
        let name = Self.name(at: date)
        let key = location.prefix + name
        if compressed.count <= partSize {
            try client.put(key, bytes: compressed, contentType: "application/gzip")
        } else {
            let upload = try client.startMultipartUpload(key, contentType: "application/gzip")
            do {
                var etags: [String] = []
                var offset = 0
                while offset < compressed.count {
                    let end = min(offset + partSize, compressed.count)
                    etags.append(try client.uploadPart(key, uploadID: upload, number: etags.count + 1, bytes: Array(compressed[offset..<end])))
                    offset = end
                }
                try client.completeMultipartUpload(key, uploadID: upload, parts: etags)
            } catch {
                client.abortMultipartUpload(key, uploadID: upload)
                throw error
            }
        }
        return StoredBackup(name: name, size: Int64(compressed.count), created: date)
    }

    /// The backups under the prefix, oldest first.
    public func list() throws -> [StoredBackup] {
        try Self.explained { try listing() }
    }

    private func listing() throws -> [StoredBackup] {
        var backups: [StoredBackup] = []
        var continuation: String?
        repeat {
            let page = try client.list(prefix: location.prefix, continuation: continuation)
            for object in page.objects {
                let name = String(object.key.dropFirst(location.prefix.count))
                guard name.hasPrefix("belay-"), name.hasSuffix(".sqlite3.gz"), !name.contains("/") else { continue }
                backups.append(StoredBackup(name: name, size: object.size, created: object.lastModified))
            }
            continuation = page.continuation
        } while continuation != nil
        return backups.sorted { $0.name < $1.name }
    }

    /// Downloads backup `name`, decompresses it into `destination` (which must not exist), and
    /// checks that it opens and passes SQLite's integrity and foreign-key checks.
    /// - Returns: the restored file's size in bytes.
    /// - Throws: `DatabaseBackupError` when there is no such backup, it is damaged or fails the
    ///   checks (the file is then removed), or the bucket fails.
    public func restore(_ name: String, to destination: String) throws -> Int {
        try Self.explained { try download(name, to: destination) }
    }

    private func download(_ name: String, to destination: String) throws -> Int {
        let key = location.prefix + name
        guard let object = try client.head(key) else {
            throw DatabaseBackupError(description: "there is no backup \(name) in \(location); `belay db backups list \(location)` shows the names")
        }
        var compressed: [UInt8] = []
        compressed.reserveCapacity(Int(object.size))
        var offset: Int64 = 0
        while offset < object.size {
            let end = min(offset + Int64(partSize), object.size) - 1
            compressed += try client.get(key, range: offset...end)
            offset = end + 1
        }
        let bytes: [UInt8]
        do {
            bytes = try Gzip.decompress(compressed)
        } catch {
            throw DatabaseBackupError(description: "backup \(name) cannot be decompressed: \(error)")
        }
        guard FileManager.default.createFile(atPath: destination, contents: Data(bytes)) else {
            throw DatabaseBackupError(description: "\(destination) cannot be written; choose a writable place")
        }
        do {
            let report = try SQLiteDatabase(path: destination).check()
            guard report.isHealthy else {
                try? FileManager.default.removeItem(atPath: destination)
                throw DatabaseBackupError(description: "backup \(name) fails the integrity check: \((report.integrityProblems + report.foreignKeyViolations.map(\.description)).joined(separator: "; "))")
            }
            return bytes.count
        } catch let error as DatabaseBackupError {
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw DatabaseBackupError(description: "backup \(name) does not open as a SQLite database: \(error)")
        }
    }

    /// Removes all but the newest `keep` backups; returns the names removed.
    public func prune(keep: Int) throws -> [String] {
        try Self.explained { try pruning(keep: keep) }
    }

    private func pruning(keep: Int) throws -> [String] {
        let backups = try listing()
        guard backups.count > keep else { return [] }
        let removed = backups.prefix(backups.count - keep).map(\.name)
        for name in removed { try client.delete(location.prefix + name) }
        return removed
    }
}
