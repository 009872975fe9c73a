import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small file system mounted over a directory and filled up, so writes into it fail with
/// ENOSPC as on a full disk; `makeRoom()` frees it again. Needs root with `CAP_SYS_ADMIN`
/// (a tmpfs mount); `isAvailable` says whether this machine allows it.
public final class FullDisk: @unchecked Sendable {
    /// The directory the small file system is mounted on.
    public let path: String
    private var mounted = false

    /// Mounts a tmpfs of `size` (1 MiB by default, `mount`'s notation) on `path` (which must
    /// exist and be empty) and fills it.
    /// - Throws: when the mount fails.
    public init(_ path: String, size: String = "1m") throws {
        self.path = path
        try ExternalTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
        mounted = true
        fill()
    }

    /// True when a tmpfs can be mounted here.
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let scratch = try? TemporaryDirectory(prefix: "belay-full-probe"),
              let disk = try? FullDisk(scratch.path) else { return false }
        disk.unmount()
        return true
    }()

    /// Fills every free byte.
    public func fill() {
        let handle = FileHandle(forWritingAtPath: path + "/.filler") ?? {
            _ = FileManager.default.createFile(atPath: path + "/.filler", contents: nil)
            return FileHandle(forWritingAtPath: path + "/.filler")
        }()
        let block = Data(repeating: 0x5A, count: 4_096)
        while (try? handle?.write(contentsOf: block)) != nil {}
        try? handle?.close()
    }

    /// Removes the filler, so writes succeed again.
    public func makeRoom() {
        unlink(path + "/.filler")
    }

    /// Unmounts the file system (what was written to it goes with it).
    public func unmount() {
        guard mounted else { return }
        try? ExternalTool.run("/bin/umount", [path])
        mounted = false
    }

    deinit { unmount() }
}
