import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which webhook URLs may be registered: http or https, a host, no user name or password,
/// and — unless the club allows it — no loopback, link-local, private, shared or multicast
/// address written into the URL (or `localhost`). Names are checked again where it
/// matters, when the connection is made (`BelayWebhooks` refuses such an address after DNS
/// resolution), so a name pointing at an internal address is refused as well.
public enum WebhookAddressRule {
    /// Checks `text` as an endpoint URL.
    /// - Returns: the URL, trimmed.
    /// - Throws: `DomainError` (`invalid_input`, field `url`) saying what is wrong.
    public static func validated(_ text: String, allowPrivateAddresses: Bool) throws -> String {
        let url = text.trimmingCharacters(in: .whitespaces)
        guard (1...2000).contains(url.utf8.count), let parsed = URLComponents(string: url),
              let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parsed.host, !host.isEmpty else {
            throw DomainError.invalid("url", "'\(String(url.prefix(200)))' is not an http(s) URL such as https://hooks.example.com/belay")
        }
        guard parsed.user == nil, parsed.password == nil else {
            throw DomainError.invalid("url", "A webhook URL carries no user name or password; receivers check the signature instead")
        }
        if !allowPrivateAddresses, let kind = privateKind(host: host) {
            throw DomainError.invalid("url", "\(host) is \(kind); webhooks are not sent to the server's own or internal networks unless webhooks.allow_private_addresses is 1 in config.json")
        }
        return url
    }

    /// What kind of non-public address `host` is (`"a loopback address"`, …), or nil for a
    /// public address or a name other than `localhost`.
    public static func privateKind(host: String) -> String? {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name = String(name.dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") { return "a loopback address" }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            let bytes = withUnsafeBytes(of: v4.s_addr) { Array($0) }
            return privateKind(ipv4: bytes)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return privateKind(ipv6: withUnsafeBytes(of: v6) { Array($0) })
        }
        return nil
    }

    /// The kind of a non-public IPv4 address (4 bytes, network order), or nil.
    public static func privateKind(ipv4 b: [UInt8]) -> String? {
        guard b.count == 4 else { return nil }
        switch (b[0], b[1]) {
        case (127, _): return "a loopback address"
        case (0, _): return "an unspecified address"
        case (10, _), (172, 16...31), (192, 168): return "a private address"
        case (100, 64...127): return "a shared (carrier-grade NAT) address"
        case (169, 254): return "a link-local address"
        case (224...255, _): return "a multicast or reserved address"
        default: return nil
        }
    }

    /// The kind of a non-public IPv6 address (16 bytes), or nil.
    public static func privateKind(ipv6 b: [UInt8]) -> String? {
        guard b.count == 16 else { return nil }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? "a loopback address" : b[15] == 0 ? "an unspecified address" : nil }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF { return privateKind(ipv4: Array(b[12..<16])) }
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return "a link-local address" }
        if b[0] & 0xFE == 0xFC { return "a private (unique local) address" }
        if b[0] == 0xFF { return "a multicast address" }
        return nil
    }
}
