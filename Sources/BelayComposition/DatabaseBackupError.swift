/// Why a backup could not be made, listed or restored.
public struct DatabaseBackupError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
