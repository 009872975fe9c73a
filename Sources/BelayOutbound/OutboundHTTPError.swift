/// A failure of libcurl itself, before any transfer: it would not start, or could not take a
/// header or a list entry (out of memory).
public struct OutboundHTTPError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(description: String) { self.description = description }
}
