import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Makes a directory refuse writes, and writable again, the way a real fault would: for
/// every process, including one already running.
///
/// Tests run as root, where `chmod` stops nobody, so as root the directory is bind-mounted
/// read-only onto itself (writes then fail with EROFS, as on a file system remounted
/// read-only); that needs `CAP_SYS_ADMIN`. As any other user it is made `r-x` with `chmod`
/// (writes fail with EACCES). `isAvailable` says whether either works on this machine.
public final class ReadOnlyDirectory: @unchecked Sendable {
    /// The directory.
    public let path: String
    private let usesMount: Bool
    private var isReadOnly = false

    /// - Throws: when the directory does not exist.
    public init(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        self.path = path
        usesMount = geteuid() == 0
    }

    /// True when a directory can be made read-only here (probed once with a scratch directory).
    public static let isAvailable: Bool = {
        guard let scratch = try? TemporaryDirectory(prefix: "belay-ro-probe"),
              let directory = try? ReadOnlyDirectory(scratch.path) else { return false }
        guard (try? directory.makeReadOnly()) != nil else { return false }
        defer { try? directory.makeWritable() }
        return !FileManager.default.createFile(atPath: scratch.file("probe"), contents: Data("x".utf8))
    }()

    /// Makes the directory (and everything under it) refuse writes.
    /// - Throws: when the mount or chmod fails.
    public func makeReadOnly() throws {
        guard !isReadOnly else { return }
        if usesMount {
            try ExternalTool.run("/bin/mount", ["--bind", path, path])
            do {
                try ExternalTool.run("/bin/mount", ["-o", "remount,bind,ro", path])
            } catch {
                try? ExternalTool.run("/bin/umount", [path])
                throw error
            }
        } else {
            try Self.chmodTree(path, mode: 0o555)
        }
        isReadOnly = true
    }

    /// Makes the directory writable again.
    /// - Throws: when the unmount or chmod fails.
    public func makeWritable() throws {
        guard isReadOnly else { return }
        if usesMount {
            try ExternalTool.run("/bin/umount", [path])
        } else {
            try Self.chmodTree(path, mode: 0o755)
        }
        isReadOnly = false
    }

    deinit {
        try? makeWritable()
    }

    private static func chmodTree(_ path: String, mode: mode_t) throws {
        var directories = [path]
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            for case let relative as String in enumerator {
                let full = (path as NSString).appendingPathComponent(relative)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), isDirectory.boolValue {
                    directories.append(full)
                }
            }
        }
        for directory in directories where chmod(directory, mode) != 0 {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory])
        }
    }
}
