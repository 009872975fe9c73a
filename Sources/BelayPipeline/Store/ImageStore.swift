import BelayCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Rendered images on disk, content-addressed under `<data directory>/images`.
///
/// A file's name is the hex digest that identifies its inputs (see `RenderedImageKey`), so
/// identical inputs map to the same file and are rendered once. Files are written
/// with `AtomicFile`: a temporary file in the same directory is written, fsynced, renamed
/// into place, and the directory is fsynced, so a crash leaves either no file or a whole one.
/// A database row is only pointed at a file after `write` has returned.
///
/// Once on the disk, a stored image's pages are given back to the kernel
/// (`AtomicFile.Caching.release`): a render writes 1.4 MB that is read once or twice, and a
/// backfill or a busy worker would otherwise fill the page cache with them at ~90 MB/s,
/// pushing out the database's pages. Filling ever more memory made each write slower too:
/// on a 2-core VM, 2.7 ms per fsynced 1.4 MB file once the cache had grown by a gigabyte,
/// against 0.25 ms when the pages are given back and reused.
public struct ImageStore: Sendable {
    /// The directory holding the fan-out subdirectories.
    public let root: URL

    /// Creates a store rooted at `root` (created on the first write).
    public init(root: URL) {
        self.root = root
    }

    /// The file an image with this digest and extension lives at.
    public func url(digest: String, fileExtension: String) -> URL {
        let fanOut = String(digest.prefix(2))
        return root.appendingPathComponent(fanOut, isDirectory: true)
            .appendingPathComponent("\(digest).\(fileExtension)")
    }

    /// The file's path relative to `root`: `<fan-out>/<digest>.<extension>`.
    public func relativePath(digest: String, fileExtension: String) -> String {
        "\(digest.prefix(2))/\(digest).\(fileExtension)"
    }

    /// True when a complete image with this digest is stored.
    public func contains(digest: String, fileExtension: String) -> Bool {
        var info = stat()
        let path = url(digest: digest, fileExtension: fileExtension).path
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }

    /// Writes `bytes` as the image with this digest, atomically and durably.
    ///
    /// Writing an image that already exists replaces it with identical bytes.
    /// - Returns: the file's location.
    /// - Throws: `ImageStoreError` when the disk is full, the directory is not writable, or
    ///   another I/O error occurs; no partial file is left behind.
    @discardableResult
    public func write(_ bytes: [UInt8], digest: String, fileExtension: String) throws -> URL {
        let destination = url(digest: digest, fileExtension: fileExtension)
        try makeDirectory(destination.deletingLastPathComponent())
        do {
            try AtomicFile.write(bytes, to: destination.path, caching: .release)
        } catch {
            throw Self.storeError(error)
        }
        return destination
    }

    /// Stores the image with this digest that `produce` writes to a temporary path (for images
    /// too large to hold in memory, such as a long collection rendered in bands), atomically
    /// and durably as `write(_:digest:fileExtension:)` does.
    /// - Parameter produce: writes the whole image to the path it is given (which does not
    ///   exist yet, in the destination's directory).
    /// - Returns: the file's location.
    /// - Throws: `ImageStoreError` as `write` does; what `produce` throws. No partial file is
    ///   left behind either way.
    @discardableResult
    public func write(digest: String, fileExtension: String, using produce: (String) throws -> Void) throws -> URL {
        let destination = url(digest: digest, fileExtension: fileExtension)
        let directory = destination.deletingLastPathComponent()
        try makeDirectory(directory)
        let temporaryPath = AtomicFile.temporaryPath(for: destination.path)
        do {
            try produce(temporaryPath)
        } catch let error as ImageStoreError {
            unlink(temporaryPath)
            throw error
        } catch {
            unlink(temporaryPath)
            // A producer that could not write its file says so with its own error; a full or
            // read-only disk is still reported as such, so the caller can treat it as transient.
            if let refusal = Self.unwritable(directory) { throw refusal }
            throw error
        }
        do {
            try AtomicFile.install(temporaryPath, at: destination.path, caching: .release)
        } catch {
            throw Self.storeError(error)
        }
        return destination
    }

    /// The store's error for a failed atomic write, naming what its messages always named.
    private static func storeError(_ error: FileWriteError) -> ImageStoreError {
        switch error.step {
        case .create:
            let directory = URL(fileURLWithPath: error.path).deletingLastPathComponent().path
            return ImageStoreError.fromErrno(error.code, path: directory, operation: "write into")
        case .write, .rename:
            return ImageStoreError.fromErrno(error.code, path: error.path, operation: "write")
        case .syncDirectory:
            return ImageStoreError.fromErrno(error.code, path: error.path, operation: "sync")
        }
    }

    /// An error when `directory` cannot be written to because its file system is full or read-only.
    private static func unwritable(_ directory: URL) -> ImageStoreError? {
        var info = statvfs()
        guard statvfs(directory.path, &info) == 0 else { return nil }
        if info.f_flag & UInt(ST_RDONLY) != 0 { return ImageStoreError.fromErrno(EROFS, path: directory.path, operation: "write into") }
        if info.f_bavail == 0 { return ImageStoreError.fromErrno(ENOSPC, path: directory.path, operation: "write into") }
        if access(directory.path, W_OK) != 0 { return ImageStoreError.fromErrno(errno, path: directory.path, operation: "write into") }
        return nil
    }

    /// Sets a stored file's modification time to now. A render that finds its image already
    /// stored touches it, so `belay gc` (which spares recent files) cannot remove it in the
    /// moment before the reward row points at it.
    /// - Returns: false when the file is not there (any more).
    @discardableResult
    public func touch(digest: String, fileExtension: String) -> Bool {
        utimensat(AT_FDCWD, url(digest: digest, fileExtension: fileExtension).path, nil, 0) == 0
    }

    /// Reads a stored image.
    /// - Throws: `ImageStoreError` when the file is missing or unreadable.
    public func read(digest: String, fileExtension: String) throws -> [UInt8] {
        let path = url(digest: digest, fileExtension: fileExtension).path
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ImageStoreError(kind: exists ? .io(errno: EIO) : .missing, path: path, operation: "read")
        }
        return [UInt8](data)
    }

    /// Every stored file (including temporary files a crash left behind), for garbage collection.
    public func storedFiles() throws -> [StoredImageFile] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        var files: [StoredImageFile] = []
        let fanOuts = try FileManager.default.contentsOfDirectory(atPath: root.path)
        for fanOut in fanOuts.sorted() {
            let directory = root.appendingPathComponent(fanOut, isDirectory: true)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let fileURL = directory.appendingPathComponent(name)
                let attributes = try? FileManager.default.attributesOfItem(atPath: fileURL.path)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
                files.append(StoredImageFile(url: fileURL, name: name, size: size))
            }
        }
        return files
    }

    /// Removes one stored file.
    /// - Throws: `ImageStoreError` when it cannot be removed.
    public func remove(_ file: StoredImageFile) throws {
        guard unlink(file.url.path) == 0 || errno == ENOENT else {
            throw ImageStoreError.fromErrno(errno, path: file.url.path, operation: "remove")
        }
    }

    /// Removes the temporary files (`.<name>.<n>.tmp`) that writes killed mid-way left behind,
    /// when they were last modified at least `minimumAge` seconds before `now`: a younger one
    /// may be another process's write still in progress on a shared directory.
    /// - Returns: what was removed, and a line per file that could not be (with the reason).
    public func removeStaleTemporaryFiles(minimumAge: TimeInterval, now: Date) -> (removed: [StoredImageFile], failures: [String]) {
        let files: [StoredImageFile]
        do {
            files = try storedFiles()
        } catch {
            return ([], ["\(root.path): \(error)"])
        }
        var removed: [StoredImageFile] = []
        var failures: [String] = []
        for file in files where file.digest == nil && file.name.hasPrefix(".") && file.name.hasSuffix(".tmp") {
            var info = stat()
            guard stat(file.url.path, &info) == 0 else { continue }
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
            guard now.timeIntervalSince(modified) >= minimumAge else { continue }
            do {
                try remove(file)
                removed.append(file)
            } catch {
                failures.append("\(error)")
            }
        }
        return (removed, failures)
    }

    /// Makes `directory` and the root, and the folders above the root that are missing (the
    /// data directory itself on a club whose database is not a file in it).
    private func makeDirectory(_ directory: URL) throws {
        var ancestors: [String] = []
        var parent = root.deletingLastPathComponent()
        while parent.path != "/" && !FileManager.default.fileExists(atPath: parent.path) {
            ancestors.insert(parent.path, at: 0)
            parent = parent.deletingLastPathComponent()
        }
        for path in ancestors + [root.path, directory.path] {
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw ImageStoreError.fromErrno(errno, path: path, operation: "create")
            }
        }
    }
}

/// One file found in the image store.
public struct StoredImageFile: Sendable, Equatable {
    public init(url: URL, name: String, size: Int64) {
        self.url = url
        self.name = name
        self.size = size
    }

    /// Where it is.
    public let url: URL
    /// Its file name: `<digest>.<extension>`, or a leftover temporary `.…tmp` name.
    public let name: String
    /// Its size in bytes.
    public let size: Int64

    /// The digest part of the name, or nil for a leftover temporary file.
    public var digest: String? {
        guard !name.hasPrefix("."), let dot = name.firstIndex(of: ".") else { return nil }
        return String(name[..<dot])
    }
}
