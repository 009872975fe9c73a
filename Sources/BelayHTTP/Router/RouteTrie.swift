/// Routes organised by path segment, matched without allocating for literal segments.
///
/// Literal children win over captures; among captures, the longest literal prefix+suffix wins;
/// matching backtracks, so `/a/{x}/b` and `/a/fixed/c` coexist.
final class RouteTrie<Endpoint: Sendable>: Sendable {
    struct Capture: Sendable {
        let prefix: String
        let suffix: String
        let node: RouteTrie
    }

    let literalChildren: [Substring: RouteTrie]
    let captureChildren: [Capture]
    /// Endpoints registered at this node, by method, with the pattern they were registered as.
    let endpoints: [HTTPMethod: Endpoint]
    /// The pattern of the routes ending here (for 405 answers and logs).
    let pattern: String?

    init(literalChildren: [Substring: RouteTrie], captureChildren: [Capture], endpoints: [HTTPMethod: Endpoint], pattern: String?) {
        self.literalChildren = literalChildren
        self.captureChildren = captureChildren
        self.endpoints = endpoints
        self.pattern = pattern
    }

    /// Finds the node for `path`, appending captured values to `captures`.
    func node(for path: String, captures: inout [Substring]) -> RouteTrie? {
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            segments.append(segment)
        }
        return match(segments[...], captures: &captures)
    }

    private func match(_ segments: ArraySlice<Substring>, captures: inout [Substring]) -> RouteTrie? {
        guard let segment = segments.first else { return pattern == nil ? nil : self }
        let rest = segments.dropFirst()
        if let child = literalChildren[segment], let found = child.match(rest, captures: &captures) {
            return found
        }
        for capture in captureChildren {
            guard segment.utf8.count > capture.prefix.utf8.count + capture.suffix.utf8.count,
                  segment.hasPrefix(capture.prefix), segment.hasSuffix(capture.suffix)
            else { continue }
            let value = segment.dropFirst(capture.prefix.count).dropLast(capture.suffix.count)
            captures.append(value)
            if let found = capture.node.match(rest, captures: &captures) { return found }
            captures.removeLast()
        }
        return nil
    }
}

/// Mutable form of the trie used while routes are registered.
final class RouteTrieBuilder<Endpoint: Sendable> {
    private var literalChildren: [String: RouteTrieBuilder] = [:]
    private var captureChildren: [(prefix: String, suffix: String, node: RouteTrieBuilder)] = []
    private var endpoints: [HTTPMethod: Endpoint] = [:]
    private var pattern: String?

    func insert(_ pattern: RoutePattern, method: HTTPMethod, endpoint: Endpoint) {
        var node = self
        for segment in pattern.segments {
            switch segment {
            case .literal(let literal):
                if let child = node.literalChildren[literal] {
                    node = child
                } else {
                    let child = RouteTrieBuilder()
                    node.literalChildren[literal] = child
                    node = child
                }
            case let .capture(_, prefix, suffix):
                if let existing = node.captureChildren.first(where: { $0.prefix == prefix && $0.suffix == suffix }) {
                    node = existing.node
                } else {
                    let child = RouteTrieBuilder()
                    node.captureChildren.append((prefix, suffix, child))
                    node = child
                }
            }
        }
        precondition(node.endpoints[method] == nil, "Route \(method) \(pattern) is registered twice")
        node.endpoints[method] = endpoint
        if node.pattern == nil { node.pattern = pattern.description }
    }

    func build() -> RouteTrie<Endpoint> {
        let captures = captureChildren
            .sorted { ($0.prefix.count + $0.suffix.count) > ($1.prefix.count + $1.suffix.count) }
            .map { RouteTrie.Capture(prefix: $0.prefix, suffix: $0.suffix, node: $0.node.build()) }
        var literals: [Substring: RouteTrie<Endpoint>] = [:]
        for (key, child) in literalChildren { literals[Substring(key)] = child.build() }
        return RouteTrie(literalChildren: literals, captureChildren: captures, endpoints: endpoints, pattern: pattern)
    }
}
