import BelayDomain
import Testing

/// Which addresses a webhook URL may name: an IPv6 form that carries an internal IPv4 address
/// reaches that address, so it is refused like the address itself.
@Suite struct WebhookAddressRuleTests {
    static let refused: [String] = [
        // IPv4 ranges that are not the public internet.
        "198.18.0.1", "198.19.255.254", "192.0.0.8", "192.0.0.170",
        // NAT64 (well-known prefix) carrying an internal address, and the local-use prefix.
        "[64:ff9b::127.0.0.1]", "[64:ff9b::a00:1]", "[64:ff9b::169.254.169.254]", "[64:ff9b:1::5db8:d70e]",
        "[64:ff9b:1:abcd::1]",
        // 6to4 of an internal address.
        "[2002:7f00:1::]", "[2002:a9fe:a9fe::1]", "[2002:c0a8:1::]",
        // IPv4-compatible, IPv4-mapped and IPv4-translated forms.
        "[::127.0.0.1]", "[::10.0.0.1]", "[::ffff:10.0.0.1]", "[::ffff:0:127.0.0.1]", "[::ffff:0:192.168.1.1]",
        "[::ffff:198.18.0.1]", "[::ffff:192.0.0.1]",
    ]

    static let allowed: [String] = [
        "93.184.215.14", "198.17.255.255", "198.20.0.1", "192.0.1.1", "192.0.2.1",
        "[64:ff9b::5db8:d70e]", "[2002:5db8:d70e::1]", "[::ffff:93.184.215.14]", "[::ffff:0:93.184.215.14]",
        "[2606:2800:220:1:248:1893:25c8:1946]",
    ]

    @Test("IPv6 forms carrying an internal IPv4 address, 198.18.0.0/15 and 192.0.0.0/24 are refused", arguments: refused)
    func refusesInternalAddresses(host: String) {
        #expect(WebhookAddressRule.privateKind(host: host) != nil)
        #expect(throws: DomainError.self) {
            try WebhookAddressRule.validated("https://\(host)/hook", allowPrivateAddresses: false)
        }
        #expect((try? WebhookAddressRule.validated("https://\(host)/hook", allowPrivateAddresses: true)) != nil)
    }

    @Test("public addresses, also inside NAT64, 6to4 and mapped forms, are accepted", arguments: allowed)
    func acceptsPublicAddresses(host: String) throws {
        #expect(WebhookAddressRule.privateKind(host: host) == nil)
        #expect(try WebhookAddressRule.validated("https://\(host)/hook", allowPrivateAddresses: false) == "https://\(host)/hook")
    }

    @Test func theRefusalNamesTheCarriedAddressAndItsForm() {
        #expect(WebhookAddressRule.privateKind(host: "[64:ff9b::a00:1]") == "a private address (10.0.0.1 as a NAT64 address)")
        #expect(WebhookAddressRule.privateKind(host: "[2002:7f00:1::]") == "a loopback address (127.0.0.1 as a 6to4 address)")
        #expect(WebhookAddressRule.privateKind(host: "198.18.3.4") == "a benchmarking address")
    }
}
