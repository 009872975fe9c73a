/// Behind a reverse proxy (nginx terminating TLS), every connection comes from the proxy;
/// the client is named in `Forwarded` (RFC 7239) or `X-Forwarded-For`. This middleware
/// replaces `Request.remoteAddress` with that client, but only when the connection comes
/// from one of `trustedProxies`: anyone else could write the header themselves.
///
/// The list is read from the right: each hop appended by a trusted proxy is skipped, and the
/// first address not in the list is the client. Put it before the access log, so that the
/// log and everything after it see the real client.
public struct ForwardedClientMiddleware<Context: RequestContext>: RouterMiddleware {
    let trustedProxies: Set<String>

    /// - Parameter trustedProxies: numeric addresses of the proxies in front (`127.0.0.1`, `::1`).
    public init(trustedProxies: Set<String>) { self.trustedProxies = trustedProxies }

    public func handle(_ request: Request, context: Context, next: (Request, Context) -> ResponseFuture) throws -> ResponseFuture {
        guard trustedProxies.contains(request.remoteAddress), let client = client(of: request) else {
            return next(request, context)
        }
        var forwarded = request
        forwarded.remoteAddress = client
        return next(forwarded, context)
    }

    /// The client named by the request's forwarding headers, or nil when they name none.
    func client(of request: Request) -> String? {
        var hops: [String] = []
        if let forwarded = request.headers["Forwarded"] {
            for element in forwarded.split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[0].trimmingBlanks.lowercased() == "for" else { continue }
                    hops.append(Self.address(parts[1].trimmingBlanks))
                }
            }
        } else if let list = request.headers["X-Forwarded-For"] {
            hops = list.split(separator: ",").map { Self.address($0.trimmingBlanks) }
        }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return hop.isEmpty ? nil : hop
        }
        return nil
    }

    /// `"[2001:db8::1]:4711"` → `2001:db8::1`; `192.0.2.4:80` → `192.0.2.4`; an unknown or
    /// obfuscated identifier (`unknown`, `_hidden`) is kept as it is.
    static func address(_ text: Substring) -> String {
        var value = text
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return String(value) }
            return String(value[value.index(after: value.startIndex)..<close])
        }
        if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") { return String(value[..<colon]) }
        return String(value)
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
