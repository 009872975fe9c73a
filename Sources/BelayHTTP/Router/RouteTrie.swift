#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Routes organised by path segment, matched over the path's UTF-8 bytes without splitting it
/// or hashing segments.
///
/// Literal children win over captures; among captures, the longest literal prefix+suffix wins;
/// matching backtracks, so `/a/{x}/b` and `/a/fixed/c` coexist. Empty segments are skipped.
final class RouteTrie<Endpoint: Sendable>: Sendable {
    struct Literal: Sendable {
        let bytes: [UInt8]
        let node: RouteTrie
    }

    struct Capture: Sendable {
        let prefix: [UInt8]
        let suffix: [UInt8]
        let node: RouteTrie
    }

    let literalChildren: [Literal]
    let captureChildren: [Capture]
    /// Endpoints registered at this node, by method.
    let endpoints: [HTTPMethod: Endpoint]
    /// The pattern of the routes ending here (for 405 answers and logs).
    let pattern: String?

    init(literalChildren: [Literal], captureChildren: [Capture], endpoints: [HTTPMethod: Endpoint], pattern: String?) {
        self.literalChildren = literalChildren
        self.captureChildren = captureChildren
        self.endpoints = endpoints
        self.pattern = pattern
    }

    /// Finds the node for `path`, appending captured values to `captures`.
    func node(for path: String, captures: inout [Substring]) -> RouteTrie? {
        var ranges: [Range<Int>] = []
        var path = path
        let found = path.withUTF8 { bytes in match(bytes, from: 0, ranges: &ranges) }
        guard let found else { return nil }
        if !ranges.isEmpty {
            let utf8 = path.utf8
            captures.reserveCapacity(ranges.count)
            for range in ranges {
                let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
                let end = utf8.index(start, offsetBy: range.count)
                captures.append(Substring(utf8[start..<end]))
            }
        }
        return found
    }

    private func match(_ path: UnsafeBufferPointer<UInt8>, from offset: Int, ranges: inout [Range<Int>]) -> RouteTrie? {
        let slash = UInt8(ascii: "/")
        var start = offset
        while start < path.count && path[start] == slash { start += 1 }
        guard start < path.count else { return pattern == nil ? nil : self }
        var end = start
        while end < path.count && path[end] != slash { end += 1 }
        let length = end - start

        for literal in literalChildren where literal.bytes.count == length {
            let equal = literal.bytes.withUnsafeBytes { expected in
                memcmp(expected.baseAddress!, path.baseAddress! + start, length) == 0
            }
            guard equal else { continue }
            if let found = literal.node.match(path, from: end, ranges: &ranges) { return found }
            break
        }
        for capture in captureChildren {
            let prefixLength = capture.prefix.count
            let suffixLength = capture.suffix.count
            guard length > prefixLength + suffixLength,
                  Self.bytes(path, at: start, equal: capture.prefix),
                  Self.bytes(path, at: end - suffixLength, equal: capture.suffix)
            else { continue }
            ranges.append((start + prefixLength)..<(end - suffixLength))
            if let found = capture.node.match(path, from: end, ranges: &ranges) { return found }
            ranges.removeLast()
        }
        return nil
    }

    private static func bytes(_ path: UnsafeBufferPointer<UInt8>, at offset: Int, equal expected: [UInt8]) -> Bool {
        expected.isEmpty || expected.withUnsafeBytes { memcmp($0.baseAddress!, path.baseAddress! + offset, expected.count) == 0 }
    }
}

/// Mutable form of the trie used while routes are registered.
final class RouteTrieBuilder<Endpoint: Sendable> {
    private var literalChildren: [(literal: String, node: RouteTrieBuilder)] = []
    private var captureChildren: [(prefix: String, suffix: String, node: RouteTrieBuilder)] = []
    private var endpoints: [HTTPMethod: Endpoint] = [:]
    private var pattern: String?

    func insert(_ pattern: RoutePattern, method: HTTPMethod, endpoint: Endpoint) {
        var node = self
        for segment in pattern.segments {
            switch segment {
            case .literal(let literal):
                if let existing = node.literalChildren.first(where: { $0.literal == literal }) {
                    node = existing.node
                } else {
                    let child = RouteTrieBuilder()
                    node.literalChildren.append((literal, child))
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
            .sorted { ($0.prefix.utf8.count + $0.suffix.utf8.count) > ($1.prefix.utf8.count + $1.suffix.utf8.count) }
            .map { RouteTrie.Capture(prefix: Array($0.prefix.utf8), suffix: Array($0.suffix.utf8), node: $0.node.build()) }
        let literals = literalChildren.map { RouteTrie.Literal(bytes: Array($0.literal.utf8), node: $0.node.build()) }
        return RouteTrie(literalChildren: literals, captureChildren: captures, endpoints: endpoints, pattern: pattern)
    }
}
