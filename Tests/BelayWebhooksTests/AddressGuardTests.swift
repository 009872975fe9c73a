#if canImport(Glibc)
import Glibc
#endif
import CCurlShim
import Testing

/// The address guard libcurl consults before each connection (`belay_curl_address_is_private`):
/// it sees the address DNS gave, so a name resolving to an IPv6 form of an internal IPv4
/// address is refused like that address.
@Suite struct AddressGuardTests {
    static let refused: [String] = [
        "127.0.0.1", "10.1.2.3", "198.18.0.1", "198.19.255.254", "192.0.0.8",
        "::1", "::", "fe80::1", "fd00::5", "ff02::1",
        "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::c612:1", "64:ff9b:1::5db8:d70e",
        "2002:7f00:1::", "2002:a00:1::", "2002:c0a8:101::1",
        "::127.0.0.1", "::10.0.0.1", "::ffff:10.0.0.1", "::ffff:0:127.0.0.1", "::ffff:0:172.16.0.1", "::ffff:192.0.0.1",
    ]

    static let allowed: [String] = [
        "93.184.215.14", "198.17.255.255", "198.20.0.1", "192.0.2.1",
        "64:ff9b::5db8:d70e", "2002:5db8:d70e::1", "::ffff:93.184.215.14", "::ffff:0:93.184.215.14",
        "2606:2800:220:1:248:1893:25c8:1946",
    ]

    @Test("internal addresses and IPv6 forms carrying them are refused", arguments: refused)
    func refuses(address: String) throws {
        #expect(try Self.isPrivate(address) == 1)
    }

    @Test("public addresses are allowed, also inside NAT64, 6to4 and mapped forms", arguments: allowed)
    func allows(address: String) throws {
        #expect(try Self.isPrivate(address) == 0)
    }

    /// The guard's answer for a numeric address.
    static func isPrivate(_ text: String) throws -> Int32 {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, text, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            return withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { belay_curl_address_is_private($0) } }
        }
        var v6 = sockaddr_in6()
        try #require(inet_pton(AF_INET6, text, &v6.sin6_addr) == 1, "\(text) is not a numeric address")
        v6.sin6_family = sa_family_t(AF_INET6)
        return withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { belay_curl_address_is_private($0) } }
    }
}
