import BelayStorage
import CSQLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A row that `PRAGMA foreign_key_check` reports: a child row whose parent is missing.
public struct ForeignKeyViolation: Sendable, Hashable, CustomStringConvertible {
    /// The child table.
    public let table: String
    /// The child row's rowid (nil for WITHOUT ROWID tables).
    public let rowID: Int64?
    /// The parent table the row refers to.
    public let parent: String

    public var description: String {
        "\(table) row \(rowID.map(String.init) ?? "?") refers to a missing \(parent) row"
    }
}

/// The outcome of `belay db check`.
public struct DatabaseCheckReport: Sendable {
    /// Problems `PRAGMA integrity_check` reported; empty when the file is sound.
    public let integrityProblems: [String]
    /// Rows whose foreign keys point nowhere; empty when all references hold.
    public let foreignKeyViolations: [ForeignKeyViolation]
    /// True when both checks passed.
    public var isHealthy: Bool { integrityProblems.isEmpty && foreignKeyViolations.isEmpty }
}

extension SQLiteDatabase {
    /// Runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check`.
    /// - Throws: `DatabaseError` when the checks cannot run (e.g. the file is not a database).
    public func check() throws -> DatabaseCheckReport {
        let integrity: [String] = try query("PRAGMA integrity_check") { try $0.get(0) }
        let violations = try query("PRAGMA foreign_key_check") { row in
            ForeignKeyViolation(table: try row.get(0), rowID: try row.get(1), parent: try row.get(2))
        }
        return DatabaseCheckReport(integrityProblems: integrity == ["ok"] ? [] : integrity,
                                   foreignKeyViolations: violations)
    }

    /// Copies the whole database to `destination` with SQLite's online backup API.
    ///
    /// The copy is one consistent snapshot even while other connections or processes write
    /// (in WAL mode they are not blocked). It is written to a temporary file beside
    /// `destination` and renamed into place, so `destination` is never half-written. A
    /// `-wal`, `-shm` or `-journal` file left beside `destination` (by a database that was
    /// there before) is removed first, so SQLite never replays it onto the copy.
    /// - Throws: `DatabaseError` when `destination` is this database itself or one of its
    ///   `-wal`/`-shm`/`-journal` files (the same file, even by another name or a link),
    ///   when the destination cannot be written, or when the copy fails.
    public func backup(to destination: String) throws {
        guard let source = handle else {
            throw DatabaseError.misuse("The database \(path) is closed; open a new connection to back it up")
        }
        try refuseBackupOntoItself(destination)
        let temporary = destination + ".partial-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var target: OpaquePointer?
        // Mode 0600 whatever the umask: a backup holds every secret the database does.
        SQLiteDatabase.createPrivateFile(temporary)
        let openCode = sqlite3_open_v2(temporary, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        defer { sqlite3_close_v2(target) }
        guard openCode == SQLITE_OK, let target else {
            let error = DatabaseError(code: openCode, connection: target, sql: nil)
            throw DatabaseError.sqlite(extendedCode: openCode,
                                        message: "cannot create the backup file \(destination): \(error.engineMessage ?? ""); check that its directory exists and is writable",
                                        sql: nil)
        }
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw DatabaseError(code: sqlite3_errcode(target), connection: target, sql: nil)
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, -1)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(10) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finishCode = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finishCode == SQLITE_OK else {
            throw DatabaseError(code: code == SQLITE_DONE ? finishCode : code, connection: target, sql: nil)
        }
        for suffix in Self.companionSuffixes {
            let companion = destination + suffix
            guard FileManager.default.fileExists(atPath: companion) else { continue }
            do {
                try FileManager.default.removeItem(atPath: companion)
            } catch {
                throw DatabaseError.misuse("Cannot remove the stale \(companion) beside the backup destination (SQLite would replay it onto the copy): \(error.localizedDescription); remove it by hand or choose another destination")
            }
        }
        if FileManager.default.fileExists(atPath: destination) {
            try? FileManager.default.removeItem(atPath: destination)
        }
        do {
            try FileManager.default.moveItem(atPath: temporary, toPath: destination)
        } catch {
            throw DatabaseError.misuse("Cannot move the backup into place at \(destination): \(error.localizedDescription)")
        }
    }
}

extension SQLiteDatabase {
    /// The files SQLite keeps beside a database: the write-ahead log, its shared-memory
    /// index, and the rollback journal.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Throws when `destination` names the same file (device and inode) as this database or
    /// one of its companion files: replacing it would destroy the live data.
    private func refuseBackupOntoItself(_ destination: String) throws {
        if let suffix = Self.companion(destination, of: path) {
            throw DatabaseError.misuse("Refusing to back up \(path) onto \(destination): that is \(suffix.isEmpty ? "the database itself" : "its \(suffix) file") (the same file on disk), and replacing it would destroy the live data. Choose a destination outside the database's files, e.g. \(path).backup")
        }
    }

    /// Which of the database at `database`'s files `candidate` is (the same device and
    /// inode): "" for the database, "-wal", "-shm" or "-journal"; nil for none.
    static func companion(_ candidate: String, of database: String) -> String? {
        guard let target = FileIdentity(path: candidate) else { return nil }   // nothing there
        return ([""] + companionSuffixes).first { FileIdentity(path: database + $0) == target }
    }
}

/// A file's device and inode: equal for two paths that reach the same file (hard links,
/// symbolic links, `..`).
private struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// Nil when nothing exists at `path` (or it cannot be examined).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

extension SQLitePool {
    /// Checks integrity and foreign keys on a reader connection.
    /// - Throws: `DatabaseError` when the checks cannot run.
    public func check() throws -> DatabaseCheckReport {
        try readSQLite { try $0.check() }
    }

    /// True when `candidate` is this database's file or one of its `-wal`/`-shm`/`-journal`
    /// files, under any name (same device and inode): never a place to write a backup.
    public func isDatabaseFile(_ candidate: String) -> Bool {
        SQLiteDatabase.companion(candidate, of: path) != nil
    }

    /// Backs the database up to `destination` from a reader connection, while writes go on.
    /// - Throws: `DatabaseError` when the backup cannot be written.
    public func backup(to destination: String) throws {
        try readWithoutTransaction { try $0.backup(to: destination) }
    }
}
