#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An open file (or a byte range of one) to send as a response body.
///
/// Owns its file descriptor: the server hands it to libmicrohttpd, which closes it after sending;
/// a region that is never sent closes it when released.
public final class FileRegion: Sendable {
    private let descriptor: Mutex<Int32?>
    /// The first byte sent.
    public let offset: Int64
    /// How many bytes are sent.
    public let length: Int64

    /// Opens `path` for reading and sends `length` bytes from `offset` (the rest of the file when nil).
    /// - Throws: `HTTPError` 404 `not_found` when the file does not exist; `HTTPServerError` when it
    ///   exists but cannot be read, or the range lies outside it.
    public init(path: String, offset: Int64 = 0, length: Int64? = nil) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw HTTPError(.notFound, code: "not_found", detail: "The requested file does not exist.")
            }
            throw HTTPServerError.fileUnreadable(path: path, reason: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw HTTPServerError.fileUnreadable(path: path, reason: "not a regular file")
        }
        let size = Int64(info.st_size)
        let available = size - offset
        guard offset >= 0, available >= 0, (length ?? 0) >= 0, (length ?? 0) <= available else {
            close(fd)
            throw HTTPServerError.fileUnreadable(
                path: path, reason: "range offset \(offset) length \(length.map(String.init) ?? "rest") lies outside its \(size) bytes")
        }
        descriptor = Mutex(fd)
        self.offset = offset
        self.length = length ?? available
    }

    /// Hands the descriptor to the caller, who becomes responsible for closing it; nil if already taken.
    func takeDescriptor() -> Int32? {
        descriptor.withLock { fd in
            defer { fd = nil }
            return fd
        }
    }

    /// Reads the region into memory.
    func readAll() -> [UInt8] {
        descriptor.withLock { fd -> [UInt8] in
            guard let fd else { return [] }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            var done = 0
            while done < bytes.count {
                let got = bytes.withUnsafeMutableBytes { buffer in
                    pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                }
                if got <= 0 { break }
                done += got
            }
            return Array(bytes.prefix(done))
        }
    }

    deinit {
        if let fd = descriptor.withLock({ $0 }) { close(fd) }
    }
}
