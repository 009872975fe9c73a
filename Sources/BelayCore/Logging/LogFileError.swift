/// Why a log file could not be opened for appending.
public struct LogFileError: Error, Sendable, CustomStringConvertible {
    /// The log file.
    public let path: String
    /// The system's sentence, e.g. "No such file or directory".
    public let reason: String

    /// The file at `path` could not be opened, for the system's `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "Cannot write log lines to \(path): \(reason). Check that its directory exists and is writable."
    }
}
