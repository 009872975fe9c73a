import Foundation

/// A fresh directory under the system temporary directory, removed when the value is released.
///
/// Every test that touches the file system makes its own, so tests never share state.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's location.
    public let url: URL

    /// The directory's path, for APIs that take strings.
    public var path: String { url.path }

    /// Creates the directory.
    /// - Throws: the file-system error when the directory cannot be created.
    public init(prefix: String = "belay-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
