import Foundation

/// A notification heard on a connection that listens (`LISTEN channel`): its channel and the
/// payload its sender gave it (empty when none).
public struct PostgresNotification: Equatable, Sendable {
    public var channel: String
    public var payload: String

    public init(channel: String, payload: String = "") {
        self.channel = channel
        self.payload = payload
    }

    /// The `NOTIFY` that sends this notification, its payload a quoted literal. The channel is
    /// one of Belay's own names, written as it is.
    var statement: String {
        payload.isEmpty ? "NOTIFY \(channel)" : "NOTIFY \(channel), '\(payload.replacingOccurrences(of: "'", with: "''"))'"
    }
}
