import BelayDomain
import BelayHTTP

/// The per-request context of the Belay API: the router's core plus the user the
/// authentication middleware found behind the request's bearer token.
public struct APIContext: RequestContext {
    public var core: CoreRequestContext
    /// The caller, set by `AuthenticationMiddleware`; nil on the public routes. Handlers behind
    /// authentication get it, not optional, as `AuthenticatedContext.caller`.
    public var user: AuthenticatedUser?

    public init(core: CoreRequestContext) {
        self.core = core
    }

    /// The path parameter `name` as a positive 64-bit id, 1 through 2^63−1 (every `{id}` of
    /// the API, declared int64 ≥ 1), parsed without the generic integer parser (this runs on
    /// every request for a meetup).
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter.
    public func id(_ name: String = "id") throws -> Int64 { try core.parameters.positiveID(name) }
}

extension Parameters {
    /// The parameter `name` as a positive 64-bit id (`APIContext.id(_:)`,
    /// `AuthenticatedContext.id(_:)`).
    /// - Throws: `HTTPError` 400 `invalid_path_parameter` naming the parameter.
    func positiveID(_ name: String) throws -> Int64 {
        let text = try require(name)
        var value: Int64 = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { value = -1; break }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowed, !overflowedAgain else { value = -1; break }
            value = sum
            digits += 1
        }
        guard digits > 0, value > 0 else {
            throw HTTPError(.badRequest, code: "invalid_path_parameter",
                            detail: "Path parameter `\(name)` must be a positive integer id (1 to 9223372036854775807); got `\(text.prefix(80))`.",
                            extensions: ["parameter": .string(name), "expected": "a positive integer"])
        }
        return value
    }
}
