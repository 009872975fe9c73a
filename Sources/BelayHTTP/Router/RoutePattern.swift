/// A parsed route pattern such as `/v1/meetups/{id}` or `/v1/images/{hash}.png`.
///
/// Segments are literals or captures; a capture takes a whole segment between an optional literal
/// prefix and suffix. Empty segments (`//`, a trailing `/`) are ignored when matching.
struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case capture(name: String, prefix: String, suffix: String)
    }

    let segments: [Segment]
    /// The normalised text, e.g. `/v1/meetups/{id}`: what logs and metrics show.
    let description: String

    var parameterNames: [String] {
        segments.compactMap { segment in
            if case let .capture(name, _, _) = segment { return name }
            return nil
        }
    }

    /// Parses `text`; a malformed pattern is a programming error reported with what is wrong.
    init(_ text: String) {
        var segments: [Segment] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            if let open = part.firstIndex(of: "{") {
                guard let close = part.firstIndex(of: "}"), open < close,
                      part[part.index(after: close)...].firstIndex(where: { $0 == "{" || $0 == "}" }) == nil,
                      part[..<open].firstIndex(of: "}") == nil
                else {
                    preconditionFailure("Route pattern \(text): segment `\(part)` must hold exactly one `{name}`")
                }
                let name = String(part[part.index(after: open)..<close])
                precondition(!name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" },
                             "Route pattern \(text): parameter name `\(name)` must be letters, digits or _")
                segments.append(.capture(name: name, prefix: String(part[..<open]), suffix: String(part[part.index(after: close)...])))
            } else {
                precondition(!part.contains("}"), "Route pattern \(text): stray `}` in `\(part)`")
                segments.append(.literal(String(part)))
            }
        }
        let names = segments.compactMap { segment -> String? in
            if case let .capture(name, _, _) = segment { return name }
            return nil
        }
        precondition(Set(names).count == names.count, "Route pattern \(text) names a parameter twice")
        self.segments = segments
        description = "/" + segments.map { segment in
            switch segment {
            case .literal(let literal): literal
            case let .capture(name, prefix, suffix): "\(prefix){\(name)}\(suffix)"
            }
        }.joined(separator: "/")
    }

    /// `prefix` followed by `self`.
    func appending(_ other: RoutePattern) -> RoutePattern {
        RoutePattern(description + other.description)
    }
}
