import BelaySQLite
import BelayStorage
import BelayTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The database and its backups hold every secret of the club (webhook, check-in and calendar
/// secrets): they are created 0600 even under a umask that would make them world-readable.
@Suite(.serialized) struct FilePermissionTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("the database, its -wal and -shm files and a backup are 0600 under umask 022")
    func databaseFilesArePrivate() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try TemporaryDirectory(prefix: "belay-modes")
        let path = directory.file("club.sqlite3")
        let pool = try SQLitePool(path: path)
        try pool.write { try $0.execute("CREATE TABLE secrets (value TEXT)") }
        try pool.write { try $0.execute("INSERT INTO secrets VALUES ('whsec_x')") }
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(Self.mode(file) == 0o600, "\(file) is \(String(Self.mode(file) ?? 0, radix: 8))")
        }
        let backup = directory.file("backup.sqlite3")
        try pool.backup(to: backup)
        #expect(Self.mode(backup) == 0o600, "the backup is \(String(Self.mode(backup) ?? 0, radix: 8))")
    }
}
