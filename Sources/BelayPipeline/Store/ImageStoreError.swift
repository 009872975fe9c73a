import Foundation

/// Why the image store could not read or write a rendered image.
public struct ImageStoreError: Error, CustomStringConvertible, Sendable {
    enum Kind: Sendable, Equatable {
        case diskFull
        case notWritable
        case missing
        case io(errno: Int32)
        /// A remote store did not answer, or answered that it is down or busy.
        case unavailable(detail: String)
    }

    let kind: Kind
    /// The file or directory the operation was working on.
    public let path: String
    /// What the store was doing: "write", "read", "remove", ...
    public let operation: String

    /// True when retrying later may succeed (disk full, read-only or unwritable directory).
    public var isTransient: Bool {
        switch kind {
        case .diskFull, .notWritable, .unavailable: return true
        case .missing, .io: return false
        }
    }

    /// A remote store (a bucket) that is down, unreachable or busy: the render waits and is
    /// retried, like one refused by a full disk. `detail` says what the store answered.
    public static func unavailable(_ location: String, operation: String, detail: String) -> ImageStoreError {
        ImageStoreError(kind: .unavailable(detail: detail), path: location, operation: operation)
    }

    /// The image is not in the store.
    public static func missing(_ path: String, operation: String) -> ImageStoreError {
        ImageStoreError(kind: .missing, path: path, operation: operation)
    }

    /// True when the image (or file) is not in the store.
    public var isMissing: Bool { kind == .missing }

    static func fromErrno(_ code: Int32, path: String, operation: String) -> ImageStoreError {
        switch code {
        case ENOSPC, EDQUOT: return ImageStoreError(kind: .diskFull, path: path, operation: operation)
        case EROFS, EACCES, EPERM: return ImageStoreError(kind: .notWritable, path: path, operation: operation)
        case ENOENT: return ImageStoreError(kind: .missing, path: path, operation: operation)
        default: return ImageStoreError(kind: .io(errno: code), path: path, operation: operation)
        }
    }

    public var description: String {
        switch kind {
        case .diskFull:
            return "cannot \(operation) \(path): the disk is full; free some space (or run `belay gc`) and the render will be retried"
        case .notWritable:
            return "cannot \(operation) \(path): the data directory is not writable; fix its permissions or mount and the render will be retried"
        case .missing:
            return "cannot \(operation) \(path): the file does not exist"
        case .unavailable(let detail):
            return "cannot \(operation) \(path): \(detail)"
        case .io(let code):
            return "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        }
    }
}
