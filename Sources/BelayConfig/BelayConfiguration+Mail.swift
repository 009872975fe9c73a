import Foundation

extension BelayConfiguration {
    /// The transport sign-in mail takes, `mail.transport` with `auto` settled: SMTP when
    /// `mail.smtp_url` is set, else the outbox while `server.public_base_url` is on this
    /// machine or a private network (a newcomer trying `make run`), else none.
    public var mailTransport: Mail.Transport {
        switch mail.transport {
        case .auto:
            if !mail.smtpURL.isEmpty { return .smtp }
            return Self.isPrivate(urlString: server.publicBaseURL) ? .outbox : .off
        case .smtp, .outbox, .off:
            return mail.transport
        }
    }

    /// Where the outbox writes each message.
    public var mailOutboxDirectory: String { (dataDirectory as NSString).appendingPathComponent("mail-outbox") }

    /// True when `urlString`'s host is this machine (`localhost`, loopback) or an address of a
    /// private network (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10), so that
    /// nobody on the internet reaches it.
    static func isPrivate(urlString: String) -> Bool {
        guard let host = URL(string: urlString)?.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty else {
            return false
        }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        if host.hasPrefix("fc") || host.hasPrefix("fd") || host.hasPrefix("fe80:") { return host.contains(":") }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
        guard octets.count == 4 else { return false }
        switch (octets[0], octets[1]) {
        case (127, _), (10, _), (192, 168), (169, 254): return true
        case (172, let second): return (16...31).contains(second)
        default: return false
        }
    }
}
