/// The query parameters a route takes. The router answers a request carrying any other one
/// with 400 `unknown_query_parameter` naming it, before the route's middleware and handler
/// run, so a misspelt `?meetup=` is not silently ignored.
///
/// Write the names as an array literal: `router.get("/v1/meetups", query: ["limit", "cursor"]) { … }`;
/// a route registered without `query:` takes none.
public enum AcceptedQuery: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Only these names.
    case only(Set<String>)
    /// Any query string, for public pages that link unfurlers and messengers open with
    /// parameters of their own appended (`fbclid`, `utm_source`).
    case any

    public init(arrayLiteral names: String...) { self = .only(Set(names)) }

    /// The accepted names in order, or nil for `any`.
    public var names: [String]? {
        if case let .only(names) = self { return names.sorted() }
        return nil
    }

    /// - Throws: `HTTPError` 400 `unknown_query_parameter` naming the first parameter of
    ///   `request` this route does not take, and listing those it does.
    func check(_ request: Request) throws {
        guard case let .only(accepted) = self,
              let unknown = request.queryItems.first(where: { !accepted.contains($0.name) }) else { return }
        let takes = accepted.isEmpty ? "it takes none" : "it takes " + accepted.sorted().map { "`\($0)`" }.joined(separator: ", ")
        throw HTTPError.badRequest(code: "unknown_query_parameter",
                                   detail: "Query parameter `\(unknown.name.prefix(80))` is not one this operation takes; \(takes).",
                                   extensions: ["parameter": .string(String(unknown.name.prefix(80)))])
    }
}
