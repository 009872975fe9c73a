#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why an atomic write failed: the step, the file it concerned, and the system's error number.
public struct FileWriteError: Error, Sendable, CustomStringConvertible {
    /// The step of an atomic write that failed.
    public enum Step: Sendable, Equatable {
        /// Creating the temporary file beside the destination (the directory refused it).
        case create
        /// Writing the bytes, or flushing them to the disk.
        case write
        /// Renaming the temporary file over the destination.
        case rename
        /// Flushing the directory, so the rename survives a crash.
        case syncDirectory
    }

    /// The step that failed.
    public let step: Step
    /// The destination file (its directory, for `syncDirectory`).
    public let path: String
    /// The `errno` the system reported (`ENOSPC` for a full disk, `EROFS`, `EACCES`, …).
    public let code: Int32

    /// The system's sentence for `code`, e.g. "No space left on device".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String {
        switch step {
        case .create: "cannot create a file beside \(path): \(reason)"
        case .write: "cannot write \(path): \(reason)"
        case .rename: "cannot move the new \(path) into place: \(reason)"
        case .syncDirectory: "cannot flush the directory \(path) to the disk: \(reason)"
        }
    }
}

/// For messages built from `localizedDescription`: the system's sentence, as Foundation's
/// own file errors give.
extension FileWriteError: LocalizedError {
    public var errorDescription: String? { reason }
}
