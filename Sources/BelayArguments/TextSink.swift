import Foundation

/// Where a command writes: standard output for data, standard error for messages.
public struct TextSink: Sendable {
    /// Writes the text as given (add the newline yourself).
    public let write: @Sendable (String) -> Void

    /// A sink that calls `write` with each piece of text.
    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// The process's standard output.
    public static let standardOutput = TextSink { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) }
    /// The process's standard error.
    public static let standardError = TextSink { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
}
