import BelayCore
import Foundation

/// Whole-file reads with errors that name the file and the reason.
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
}

/// A render's output file: Belay's `AtomicFile` (written beside the destination, flushed and
/// renamed into place by `commit()`), with its failures reported as `RenderError`s.
final class RenderOutputFile: PNGByteSink {
    private let file: AtomicFile

    /// - Throws: `RenderError` (`.writeFailed`) when the directory refuses the file.
    init(path: String) throws {
        do {
            file = try AtomicFile(path: path)
        } catch {
            throw RenderError(.writeFailed(path: path, reason: error.reason))
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try file.write(bytes)
        } catch {
            throw RenderError(.writeFailed(path: file.path, reason: error.reason))
        }
    }

    /// Makes the file the destination.
    /// - Throws: `RenderError` (`.writeFailed`); no partial file is left behind.
    func commit() throws {
        do {
            try file.commit()
        } catch {
            throw RenderError(.writeFailed(path: file.path, reason: error.reason))
        }
    }
}
