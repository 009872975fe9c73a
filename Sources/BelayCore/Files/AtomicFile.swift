#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written atomically and durably: the bytes go to a temporary file beside the
/// destination (`.<name>.<random>.tmp`, hidden), which `commit()` flushes to the disk, renames
/// over the destination and makes permanent by flushing the directory. Readers see the old
/// file or the whole new one; after a crash there is the old file or the whole new one, never
/// a part. Dropped without `commit()`, the temporary file is removed.
///
/// Not thread-safe: one writer uses an instance.
public final class AtomicFile {
    /// What happens to the file's pages in the kernel's page cache once they are on the disk.
    public enum Caching: Sendable {
        /// They stay cached, as for any written file: for files read again soon.
        case keep
        /// They are given back at once (`POSIX_FADV_DONTNEED` after the flush): for files
        /// written in bulk and seldom read, which would otherwise push the pages of what is
        /// read often (the database) out of the cache, and make every write fill fresh memory.
        case release
    }

    /// The destination.
    public let path: String
    /// Where the bytes are written until `commit()`.
    public let temporaryPath: String
    private let caching: Caching
    private var descriptor: Int32

    /// Creates the temporary file with `permissions`.
    /// - Throws: `FileWriteError` (`.create`) when the directory does not exist or refuses the file.
    public init(path: String, permissions: mode_t = 0o644, caching: Caching = .keep) throws(FileWriteError) {
        self.path = path
        self.caching = caching
        temporaryPath = Self.temporaryPath(for: path)
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileWriteError(step: .create, path: path, code: errno) }
    }

    /// Appends `bytes` to the temporary file.
    /// - Throws: `FileWriteError` (`.write`), e.g. `ENOSPC` when the disk is full.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        precondition(descriptor >= 0, "AtomicFile.write after commit")
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(step: .write, path: path, code: errno)
            }
            offset += written
        }
    }

    /// Appends `bytes` to the temporary file.
    /// - Throws: `FileWriteError` (`.write`).
    public func write(_ bytes: [UInt8]) throws(FileWriteError) {
        var failure: FileWriteError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileWriteError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Flushes the file, renames it over the destination and flushes the directory.
    /// - Throws: `FileWriteError`; when the rename has not happened, the temporary file is removed.
    public func commit() throws(FileWriteError) {
        guard descriptor >= 0 else { return }
        let synced = fsync(descriptor) == 0
        let syncError = errno
        if synced { Self.release(descriptor, caching) }
        let closed = close(descriptor) == 0
        let closeError = errno
        descriptor = -1
        guard synced else { unlink(temporaryPath); throw FileWriteError(step: .write, path: path, code: syncError) }
        guard closed else { unlink(temporaryPath); throw FileWriteError(step: .write, path: path, code: closeError) }
        try Self.moveIntoPlace(temporaryPath, at: path)
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    /// Writes `bytes` as the whole of `path`, atomically and durably.
    /// - Throws: `FileWriteError`; no temporary file is left behind.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644,
                             caching: Caching = .keep) throws(FileWriteError) {
        let file = try AtomicFile(path: path, permissions: permissions, caching: caching)
        try file.write(bytes)
        try file.commit()
    }

    /// Makes the finished file at `temporaryPath` (written by someone else, such as an encoder
    /// that writes by path) the destination `path`, as `commit()` does: flush it, rename it,
    /// flush the directory. Both must be in the same directory.
    /// - Throws: `FileWriteError`; when the rename has not happened, `temporaryPath` is removed.
    public static func install(_ temporaryPath: String, at path: String, caching: Caching = .keep) throws(FileWriteError) {
        let descriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            unlink(temporaryPath)
            throw FileWriteError(step: .write, path: path, code: code)
        }
        let flushed = fsync(descriptor) == 0
        let code = errno
        if flushed { release(descriptor, caching) }
        close(descriptor)
        guard flushed else { unlink(temporaryPath); throw FileWriteError(step: .write, path: path, code: code) }
        try moveIntoPlace(temporaryPath, at: path)
    }

    /// A fresh temporary name in `path`'s directory: `.<name>.<random>.tmp`.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + ".\(UInt32.random(in: 0 ... .max)).tmp"
    }

    /// Renames the flushed `temporaryPath` over `path` and flushes the directory.
    private static func moveIntoPlace(_ temporaryPath: String, at path: String) throws(FileWriteError) {
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw FileWriteError(step: .rename, path: path, code: code)
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileWriteError(step: .syncDirectory, path: directory, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileWriteError(step: .syncDirectory, path: directory, code: errno) }
    }

    /// Gives a flushed file's pages back to the kernel when `caching` says so. Only advice:
    /// pages that are still dirty or mapped stay, and nothing is lost either way.
    private static func release(_ descriptor: Int32, _ caching: Caching) {
        guard caching == .release else { return }
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        #endif
    }
}

/// write(2), named apart from `AtomicFile.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
