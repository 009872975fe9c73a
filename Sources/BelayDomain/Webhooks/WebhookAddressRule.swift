import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which webhook URLs may be registered: http or https, a host, no user name or password,
/// and — unless the club allows it — no loopback, link-local, private, shared, benchmarking,
/// IETF-protocol or multicast address written into the URL (nor an IPv6 address carrying one
/// of them, nor `localhost`). Names are checked again where it
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
        case (198, 18...19): return "a benchmarking address"
        case (192, 0) where b[2] == 0: return "an IETF protocol address"
        default: return nil
        }
    }

    /// The kind of a non-public IPv6 address (16 bytes), or nil. An address that carries an
    /// IPv4 address (IPv4-compatible `::a.b.c.d`, IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
    /// `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`) is as private as the
    /// IPv4 address it carries: each is a way to reach that address; the local-use NAT64 prefix
    /// `64:ff9b:1::/48` leads into a local network whatever it carries.
    public static func privateKind(ipv6 b: [UInt8]) -> String? {
        guard b.count == 16 else { return nil }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? "a loopback address" : b[15] == 0 ? "an unspecified address" : nil }
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return "a link-local address" }
        if b[0] & 0xFE == 0xFC { return "a private (unique local) address" }
        if b[0] == 0xFF { return "a multicast address" }
        if b[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return "a local-use NAT64 address" }
        guard let (form, ipv4) = embeddedIPv4(b), let kind = privateKind(ipv4: ipv4) else { return nil }
        return "\(kind) (\(ipv4.map(String.init).joined(separator: ".")) as \(form))"
    }

    /// The IPv4 address an IPv6 address carries, and the name of the form that carries it.
    private static func embeddedIPv4(_ b: [UInt8]) -> (form: String, ipv4: [UInt8])? {
        let last4 = Array(b[12..<16])
        if b[0..<12].allSatisfy({ $0 == 0 }) { return ("an IPv4-compatible address", last4) }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF { return ("an IPv4-mapped address", last4) }
        if b[0..<8].allSatisfy({ $0 == 0 }), b[8] == 0xFF, b[9] == 0xFF, b[10] == 0, b[11] == 0 {
            return ("an IPv4-translated address", last4)
        }
        if b[0..<4] == [0x00, 0x64, 0xFF, 0x9B], b[4..<12].allSatisfy({ $0 == 0 }) { return ("a NAT64 address", last4) }
        if b[0] == 0x20, b[1] == 0x02 { return ("a 6to4 address", Array(b[2..<6])) }
        return nil
    }
}
