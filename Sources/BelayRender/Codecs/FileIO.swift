import BelayCore
import Foundation

/// Whole-file reads and atomic writes with errors that name the file and the reason.
enum FileIO {
    /// Reads a regular file of at most `limit` bytes.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RenderError(.unreadableFile(path: path, reason: String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw RenderError(.unreadableFile(path: path, reason: String(cString: strerror(errno))))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw RenderError(.unreadableFile(path: path, reason: "not a regular file"))
        }
        let size = Int(status.st_size)
        guard size <= limit else { throw RenderError(.fileTooLarge(path: path, bytes: size, limit: limit)) }
        var bytes = [UInt8](repeating: 0, count: size)
        var total = 0
        while total < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + total, size - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw RenderError(.unreadableFile(path: path, reason: String(cString: strerror(errno))))
            }
            if count == 0 { break }
            total += count
        }
        if total < size { bytes.removeLast(size - total) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: readers see the old file or the whole new one.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicFile(path: path)
        try bytes.withUnsafeBytes { try file.write($0) }
        try file.commit()
    }
}

/// A file written under a temporary name beside its destination and renamed into place by
/// `commit()`; dropped without commit, the temporary file is removed.
final class AtomicFile: PNGByteSink {
    let path: String
    private let temporaryPath: String
    private var descriptor: Int32

    init(path: String) throws {
        self.path = path
        temporaryPath = path + ".partial-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RenderError(.writeFailed(path: path, reason: String(cString: strerror(errno))))
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw RenderError(.writeFailed(path: path, reason: String(cString: strerror(errno))))
            }
            offset += written
        }
    }

    func commit() throws {
        guard descriptor >= 0 else { return }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else {
            throw RenderError(.writeFailed(path: path, reason: String(cString: strerror(errno))))
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw RenderError(.writeFailed(path: path, reason: reason))
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }
}
