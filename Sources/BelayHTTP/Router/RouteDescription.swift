/// One registered route, for documentation checks (every route in the OpenAPI document) and
/// listings.
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPMethod
    /// The normalised pattern, e.g. `/v1/meetups/{id}`.
    public let pattern: String
    /// The pattern's `{name}` parameters, in order.
    public let parameterNames: [String]
    /// The query parameters the route takes, sorted; nil when it takes any.
    public let queryNames: [String]?

    public var description: String { "\(method) \(pattern)" }
}
