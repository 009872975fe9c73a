import BelayConfig
import BelayCore
import Foundation
import Synchronization

/// `belay serve`'s scheduled backups of a SQLite club into a bucket: every `interval` seconds
/// (`database.backup_every_hours`), on a thread of its own, an online backup goes to
/// `database.backup_url` and all but the newest `keep` (`database.backup_keep`) are deleted.
/// The first backup is made one interval after the start, so a server restarted often does
/// not fill the bucket. A failed backup is logged and tried again at the next interval.
///
/// Threading: `start` and `stop` come from the application's owner thread.
public final class DatabaseBackupScheduler: Sendable {
    private let backups: DatabaseBackups
    private let file: ClubDatabaseFile
    private let interval: TimeInterval
    private let keep: Int
    private let log: @Sendable (String) -> Void
    private let thread = BackgroundLoop(name: "belay-database-backups")
    private let started = Atomic<Bool>(false)
    /// Backups made by this process.
    public let made = Atomic<Int>(0)

    public init(backups: DatabaseBackups, file: ClubDatabaseFile, interval: TimeInterval, keep: Int,
                log: @escaping @Sendable (String) -> Void) {
        self.backups = backups
        self.file = file
        self.interval = interval
        self.keep = keep
        self.log = log
    }

    /// The scheduler `config.json` asks for; nil when scheduled backups are off or the club is
    /// on PostgreSQL.
    /// - Throws: `ApplicationError` naming the setting when the bucket cannot be reached.
    public static func make(configuration: BelayConfiguration, database: ClubDatabase,
                            log: @escaping @Sendable (String) -> Void) throws -> DatabaseBackupScheduler? {
        let settings = configuration.database
        guard settings.backupEveryHours > 0, let file = database.file else { return nil }
        guard let location = BackupLocation(settings.backupURL) else {
            throw ApplicationError(.invalidSetting(key: "database.backup_url",
                                                   message: "\(settings.backupURL) is not s3://bucket/prefix/ with a valid bucket name"))
        }
        let backups = try DatabaseBackups(configuration: configuration, location: location)
        return DatabaseBackupScheduler(backups: backups, file: file, interval: TimeInterval(settings.backupEveryHours) * 3600,
                                       keep: settings.backupKeep, log: log)
    }

    /// Starts the thread; the first backup follows one interval later.
    public func start() {
        thread.start { [self] in
            if started.exchange(true, ordering: .relaxed) { runOnce() }
            return interval
        }
    }

    /// Stops the thread after the backup in hand.
    public func stop() { thread.stop() }

    /// One backup, then the old ones pruned.
    public func runOnce() {
        let scratch = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
        do {
            let stored = try backups.backUp(file, scratchDirectory: scratch)
            made.add(1, ordering: .relaxed)
            let removed = try backups.prune(keep: keep)
            log("backed the database up to \(backups.location)\(stored.name) (\(stored.size) bytes)"
                + (removed.isEmpty ? "" : "; removed \(removed.count) older backup(s)"))
        } catch {
            log("could not back the database up to \(backups.location): \(error); trying again in \(Int(interval)) s")
        }
    }
}
